import { describe, expect, it } from 'vitest';
import { validate } from '../../forms/zodErrors';
import { bindSchema, confirmsDelete } from './devices.validation';

describe('the bind dialog’s fields', () => {
  it('needs both the serial number and the MAC address', () => {
    expect(validate(bindSchema, { serial: ' ', mac: '' })).toEqual({
      ok: false,
      fieldErrors: { serial: 'errors.CLOUDLOCKER_SERIAL_REQUIRED', mac: 'errors.CLOUDLOCKER_MAC_REQUIRED' },
    });
  });

  it('says which one is not well formed', () => {
    expect(validate(bindSchema, { serial: 'AX', mac: 'aa:bb:cc:dd:ee' })).toEqual({
      ok: false,
      fieldErrors: { serial: 'errors.CLOUDLOCKER_SERIAL_INVALID', mac: 'errors.CLOUDLOCKER_MAC_INVALID' },
    });
  });

  it('takes a MAC typed with colons, hyphens or nothing, and a serial in any case', () => {
    for (const mac of ['aa:bb:cc:dd:ee:01', 'AA-BB-CC-DD-EE-01', 'aabbccddee01']) expect(validate(bindSchema, { serial: 'axcl-0001', mac }).ok).toBe(true);
  });
});

describe('the removal confirmation', () => {
  it('is the word delete, whatever the case or surrounding spaces', () => {
    expect(confirmsDelete(' Delete ')).toBe(true);
    expect(confirmsDelete('delet')).toBe(false);
    expect(confirmsDelete('')).toBe(false);
  });
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { clientName, KNOWN_CLIENTS } from './client-name';

describe('X-Client', () => {
  it('names the known clients, the web app without a header, and nothing else', () => {
    expect(clientName(undefined)).toBe('web');
    expect(clientName('console')).toBe('console');
    expect(clientName(' Android ')).toBe('android');
    expect(clientName('<img src=x onerror=alert(1)>')).toBe('unknown');
    expect(clientName('web\u0000admin')).toBe('unknown');
    expect(clientName(['web', 'console'])).toBe('unknown');
  });

  test.prop([fc.string({ maxLength: 80 })])('whatever the header says, what is stored is one of a fixed few names', (header) => {
    expect([...KNOWN_CLIENTS, 'unknown']).toContain(clientName(header));
  });
});

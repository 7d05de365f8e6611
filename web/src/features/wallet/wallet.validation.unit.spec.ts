import { describe, expect, it } from 'vitest';
import { validateContact, validateSend } from './wallet.validation';
import type { Contact } from './wallet.types';

const KEY = 'A'.repeat(34);
const OTHER_KEY = 'B'.repeat(34);
const base = { nickname: 'Bob', email: 'bob@example.com', publicKey: KEY };
const ctx = { ownEmail: 'me@example.com', ownKeys: ['M'.repeat(34)], others: [] as Contact[] };

describe('send rules (§5)', () => {
  it('address is exactly 34 letters or digits', () => {
    expect(validateSend({ address: 'a'.repeat(33), amount: '1', note: '' }).ok).toBe(false);
    expect(validateSend({ address: `${'a'.repeat(33)}-`, amount: '1', note: '' }).ok).toBe(false);
    expect(validateSend({ address: 'a'.repeat(34), amount: '1', note: '' }).ok).toBe(true);
  });

  it('amount is required, valid, positive and at least the minimum', () => {
    const address = 'a'.repeat(34);
    const errorOf = (amount: string, min?: number) => {
      const r = validateSend({ address, amount, note: '' }, min);
      return r.ok ? null : r.fieldErrors.amount;
    };
    expect(errorOf('')).toBe('validation.required');
    expect(errorOf('abc')).toBe('wallet.validation.amount');
    expect(errorOf('0')).toBe('wallet.validation.amount');
    expect(errorOf('0.0009', 100_000)).toBe('wallet.validation.belowMinimum');
    expect(errorOf('0.001', 100_000)).toBeNull();
    expect(errorOf('0.0009')).toBe('wallet.validation.belowMinimum');
  });
});

describe('contact rules (§5)', () => {
  it('nickname, e-mail and public key are required', () => {
    const r = validateContact({}, ctx);
    expect(r.ok ? {} : r.fieldErrors).toEqual({ nickname: 'validation.required', email: 'validation.required', publicKey: 'validation.required' });
  });

  it('checks e-mail and phone formats and the key length', () => {
    const r = validateContact({ ...base, email: 'nope', email2: 'also-nope', phone: 'x1', publicKey: 'short' }, ctx);
    expect(r.ok ? {} : r.fieldErrors).toEqual({
      email: 'validation.email',
      email2: 'validation.email',
      phone: 'validation.phone',
      publicKey: 'validation.publicKeyLength',
    });
  });

  it('refuses your own e-mail or key', () => {
    const r = validateContact({ ...base, email: 'ME@example.com', email2: 'me@example.com', publicKey: 'M'.repeat(34) }, ctx);
    expect(r.ok ? {} : r.fieldErrors).toEqual({
      email: 'wallet.validation.ownEmail',
      email2: 'wallet.validation.ownEmail',
      publicKey: 'wallet.validation.ownKey',
    });
  });

  it('refuses a duplicate e-mail or key, but not the contact being edited', () => {
    const existing: Contact = { id: 'c1', ...base };
    const dup = validateContact({ ...base, email: 'BOB@example.com' }, { ...ctx, others: [existing] });
    expect(dup.ok ? {} : dup.fieldErrors).toEqual({ email: 'wallet.validation.duplicateEmail', publicKey: 'wallet.validation.duplicateKey' });
    const edited = validateContact({ ...base, nickname: 'Bobby', phone: '+31 20 123 4567', publicKey: OTHER_KEY }, ctx);
    expect(edited).toMatchObject({ ok: true, value: { nickname: 'Bobby', email: 'bob@example.com', phone: '+31 20 123 4567', publicKey: OTHER_KEY } });
  });
});

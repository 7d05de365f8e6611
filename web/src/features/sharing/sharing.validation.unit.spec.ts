import { describe, expect, it } from 'vitest';
import {
  emptyShareForm,
  expiryDateOf,
  expiryInstant,
  MAX_RECIPIENTS,
  splitAddresses,
  validateAccessForm,
  validateShareEdit,
  validateShareForm,
  type ShareFormValues,
} from './sharing.validation';

const NOW = new Date(2026, 10, 23, 12, 0, 0);
const OWN = 'owner@example.com';
const form = (over: Partial<ShareFormValues>): ShareFormValues => ({ ...emptyShareForm('Report'), ...over });
const privateForm = (over: Partial<ShareFormValues> = {}) =>
  form({ kind: 'private', recipients: 'a@example.com, b@example.com', message: 'For you', password: 'secret-pass', ...over });
const errors = (values: ShareFormValues) => {
  const r = validateShareForm(values, OWN, NOW);
  return r.ok ? {} : r.fieldErrors;
};

describe('share form rules (spec §5)', () => {
  it('a public share needs only a title, and sends what was chosen', () => {
    const r = validateShareForm(form({ description: '  notes  ', downloadable: false, expiresOn: '2026-12-01', password: 'pass-word1' }), OWN, NOW);
    expect(r).toEqual({
      ok: true,
      value: {
        title: 'Report',
        description: 'notes',
        expiresAt: new Date(2026, 11, 1, 23, 59, 59, 999).toISOString(),
        downloadable: false,
        requireLogin: false,
        esign: false,
        password: 'pass-word1',
      },
    });
    expect(errors(form({ title: '  ' }))).toEqual({ title: 'validation.required' });
  });

  it('titles without emoji or profanity, notes without the forbidden characters, expiry in the future, password of 8 without spaces', () => {
    expect(errors(form({ title: 'Party 🎉' }))).toEqual({ title: 'sharing.validation.titleEmoji' });
    expect(errors(form({ description: 'a/b' }))).toEqual({ description: 'sharing.validation.forbiddenCharacters' });
    expect(errors(form({ expiresOn: '2026-11-22' }))).toEqual({ expiresOn: 'sharing.validation.expiryPast' });
    expect(errors(form({ expiresOn: '2026-11-23' }))).toEqual({});
    expect(errors(form({ password: 'short' }))).toEqual({ password: 'validation.passwordLength' });
    expect(errors(form({ password: 'has space in' }))).toEqual({ password: 'validation.passwordSpaces' });
  });

  it('a private share needs recipients, a message and a password', () => {
    expect(errors(form({ kind: 'private' }))).toEqual({
      recipients: 'sharing.validation.recipientsRequired',
      message: 'sharing.validation.messageRequired',
      password: 'sharing.validation.passwordRequired',
    });
    const r = validateShareForm(privateForm({ recipients: 'A@Example.com;b@example.com  c@example.com' }), OWN, NOW);
    expect(r.ok && r.value).toMatchObject({ recipients: ['a@example.com', 'b@example.com', 'c@example.com'], message: 'For you', password: 'secret-pass' });
  });

  it('up to 10 addresses, never the sender own, no duplicates, each valid', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@example.com`).join(' ');
    expect(errors(privateForm({ recipients: many(MAX_RECIPIENTS) }))).toEqual({});
    expect(errors(privateForm({ recipients: many(MAX_RECIPIENTS + 1) }))).toEqual({ recipients: 'sharing.validation.tooManyRecipients' });
    expect(errors(privateForm({ recipients: 'a@example.com OWNER@example.com' }))).toEqual({ recipients: 'sharing.validation.ownEmail' });
    expect(errors(privateForm({ recipients: 'a@example.com,A@example.com' }))).toEqual({ recipients: 'sharing.validation.duplicateRecipient' });
    expect(errors(privateForm({ recipients: 'a@example.com not-an-address' }))).toEqual({ recipients: 'sharing.validation.recipientEmail' });
  });

  it('addresses split on spaces, commas and semicolons', () => {
    expect(splitAddresses(' a@x.io,b@x.io;c@x.io\nd@x.io ,; ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io']);
  });

  it('an expiry date is the end of that local day, and reads back as the same date', () => {
    const at = expiryInstant('2027-02-28')!;
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours()]).toEqual([2027, 1, 28, 23]);
    expect(expiryDateOf(at.toISOString())).toBe('2027-02-28');
    expect(expiryInstant('')).toBeNull();
    expect(errors(form({ expiresOn: '28/02/2027' }))).toEqual({ expiresOn: 'sharing.validation.expiryPast' });
  });
});

describe('share edit rules', () => {
  const edit = { title: 'T', description: '', expiresOn: '', downloadable: true, requireLogin: false, password: '', removePassword: false };
  it('an empty password keeps the current one; removing sends null; a private share keeps its password', () => {
    expect(validateShareEdit(edit, false, NOW)).toEqual({
      ok: true,
      value: { title: 'T', description: '', expiresAt: null, downloadable: true, requireLogin: false },
    });
    const removed = validateShareEdit({ ...edit, removePassword: true }, false, NOW);
    expect(removed.ok && removed.value.password).toBeNull();
    expect(validateShareEdit({ ...edit, removePassword: true }, true, NOW)).toEqual({
      ok: false,
      fieldErrors: { password: 'sharing.validation.passwordRequired' },
    });
    expect(validateShareEdit({ ...edit, password: 'new-password' }, true, NOW)).toMatchObject({ ok: true, value: { password: 'new-password' } });
  });
});

describe('access dialog', () => {
  it('asks for what the share needs', () => {
    expect(validateAccessForm({ password: '', email: '' }, { password: true, email: true })).toEqual({
      ok: false,
      fieldErrors: { password: 'validation.required', email: 'validation.required' },
    });
    expect(validateAccessForm({ password: 'x', email: 'Friend@Example.com' }, { password: true, email: true })).toEqual({
      ok: true,
      value: { password: 'x', email: 'friend@example.com' },
    });
    expect(validateAccessForm({ password: 'x', email: 'ignored' }, { password: true, email: false })).toEqual({ ok: true, value: { password: 'x' } });
  });
});

import { adminCreateUserSchema, validationMessages } from '@axel/domain/accounts/accounts.validation';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssuesToErrors, zodValidate } from './zodValidate';

const validate = zodValidate(adminCreateUserSchema);
const valid = { email: 'New.User@Example.com', password: 'abc123!def', passwordConfirmation: 'abc123!def', role: 'user' };

describe('zodValidate with the admin create-user rules', () => {
  it('accepts a valid user', () => {
    expect(validate(valid)).toEqual({});
  });

  it('says email, password and member cannot be empty', () => {
    expect(validate({})).toMatchObject({
      email: 'validation.required',
      password: 'validation.required',
      role: 'validation.required',
    });
    expect(validate({ email: '', password: '', passwordConfirmation: '', role: '' })).toMatchObject({
      email: 'validation.required',
      password: 'validation.required',
      role: 'validation.required',
    });
  });

  it('checks the e-mail format', () => {
    expect(validate({ ...valid, email: 'not-an-email' })).toEqual({ email: 'validation.email' });
  });

  it('wants 8 characters mixing letters, numbers and symbols', () => {
    expect(validate({ ...valid, password: 'a1!', passwordConfirmation: 'a1!' })).toEqual({ password: 'validation.passwordLength' });
    expect(validate({ ...valid, password: 'abcdefgh1', passwordConfirmation: 'abcdefgh1' })).toEqual({ password: 'validation.passwordMix' });
    expect(validate({ ...valid, password: 'abcdefgh!', passwordConfirmation: 'abcdefgh!' })).toEqual({ password: 'validation.passwordMix' });
  });

  it('wants the confirmation to match', () => {
    expect(validate({ ...valid, passwordConfirmation: 'abc123!deX' })).toEqual({ passwordConfirmation: 'validation.passwordConfirmation' });
  });

  it('rejects an unknown role', () => {
    expect(validate({ ...valid, role: 'root' })).toEqual({ role: 'validation.required' });
  });

  it('gives keys that all have an English text', () => {
    const errors = validate({ email: 'x', password: 'short', passwordConfirmation: '', role: '' });
    for (const message of Object.values(errors)) expect(Object.keys(validationMessages)).toContain(message);
  });
});

describe('zodIssuesToErrors', () => {
  it('keeps the first message per field and nests dotted paths', () => {
    expect(
      zodIssuesToErrors([
        { path: ['a'], message: 'first' },
        { path: ['a'], message: 'second' },
        { path: ['address', 'zip'], message: 'zip' },
        { path: [], message: 'form-level, no field' },
      ]),
    ).toEqual({ a: 'first', address: { zip: 'zip' } });
  });

  it('works for any zod schema', () => {
    const schema = z.object({ items: z.array(z.string().min(2, 'tooShort')) });
    expect(zodValidate(schema)({ items: ['ok', 'x'] })).toEqual({ items: { '1': 'tooShort' } });
  });
});

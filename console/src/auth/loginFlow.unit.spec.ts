import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { initialLoginState, loginErrorMessage, loginReducer, type LoginState } from './loginFlow';

describe('loginReducer', () => {
  it('goes to the code step when two-factor is required', () => {
    const submitting = loginReducer(initialLoginState, { type: 'SUBMIT' });
    expect(submitting.submitting).toBe(true);
    expect(loginReducer(submitting, { type: 'TWO_FACTOR_REQUIRED', method: 'email' })).toEqual({ step: 'code', method: 'email', submitting: false });
  });

  it('stays on the code step after a wrong code, starts over after other failures', () => {
    const code: LoginState = { step: 'code', method: 'totp', submitting: true };
    expect(loginReducer(code, { type: 'FAILED', code: 'TWO_FACTOR_INCORRECT' })).toEqual({ ...code, submitting: false });
    expect(loginReducer(code, { type: 'FAILED', code: 'USER_LOCKED' })).toEqual(initialLoginState);
    expect(loginReducer({ ...initialLoginState, submitting: true }, { type: 'FAILED', code: 'WRONG_CREDENTIALS' })).toEqual(initialLoginState);
  });

  it('goes back to credentials on demand', () => {
    expect(loginReducer({ step: 'code', method: 'email', submitting: false }, { type: 'BACK' })).toEqual(initialLoginState);
  });
});

describe('loginErrorMessage', () => {
  it('translates by code with the server message as fallback', () => {
    const error = new ApiError(401, { code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password', data: null });
    expect(loginErrorMessage(error)).toEqual({ key: 'console.errors.WRONG_CREDENTIALS', args: { _: 'Wrong e-mail or password' } });
  });

  it('passes the lock end for a locked account', () => {
    const error = new ApiError(423, { code: 'USER_LOCKED', message: 'Locked', data: { lockedUntil: '2030-01-01T00:00:00.000Z' } });
    expect(loginErrorMessage(error).args).toHaveProperty('lockedUntil');
  });

  it('names a network failure', () => {
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toEqual({ key: 'console.errors.network', args: {} });
  });
});

import { dateWriter } from '../i18n/dates';

/**
 * The console sign-in: credentials first; when the account has two-factor sign-in, a code step
 * that resubmits the same credentials with the code.
 */
export type TwoFactorMethod = 'email' | 'totp';

export interface LoginState {
  readonly step: 'credentials' | 'code';
  readonly method: TwoFactorMethod | null;
  readonly submitting: boolean;
}

export type LoginEvent =
  | { readonly type: 'SUBMIT' }
  | { readonly type: 'TWO_FACTOR_REQUIRED'; readonly method: TwoFactorMethod | null }
  | { readonly type: 'FAILED'; readonly code: string | null }
  | { readonly type: 'BACK' }
  | { readonly type: 'SUCCEEDED' };

export const initialLoginState: LoginState = { step: 'credentials', method: null, submitting: false };

/** Failures that concern the code itself keep the code step; anything else starts over. */
const CODE_STEP_ERRORS = new Set(['TWO_FACTOR_INCORRECT', 'CODE_INVALID', 'RATE_LIMITED']);

export const loginReducer = (state: LoginState, event: LoginEvent): LoginState => {
  switch (event.type) {
    case 'SUBMIT':
      return state.submitting ? state : { ...state, submitting: true };
    case 'TWO_FACTOR_REQUIRED':
      return { step: 'code', method: event.method, submitting: false };
    case 'FAILED':
      if (state.step === 'code' && (event.code === null || !CODE_STEP_ERRORS.has(event.code))) return initialLoginState;
      return { ...state, submitting: false };
    case 'BACK':
      return initialLoginState;
    case 'SUCCEEDED':
      return { ...state, submitting: false };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
};

export interface LoginErrorMessage {
  readonly key: string;
  readonly args: Record<string, unknown>;
}

/** The toast for a failed sign-in: translated by code, falling back to the server's English message. */
export const loginErrorMessage = (error: unknown, locale: string = 'en'): LoginErrorMessage => {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown; status?: unknown };
  const fallback = typeof e.message === 'string' && e.message ? e.message : 'ra.notification.http_error';
  if (typeof e.code !== 'string' || e.code.startsWith('HTTP_')) {
    return e.status === undefined && error instanceof TypeError ? { key: 'console.errors.network', args: {} } : { key: fallback, args: {} };
  }
  const args: Record<string, unknown> = { _: fallback };
  const lockedUntil = (e.data as { lockedUntil?: unknown } | null)?.lockedUntil;
  if (typeof lockedUntil === 'string') args.lockedUntil = dateWriter(locale).dateTime(lockedUntil, lockedUntil);
  return { key: `console.errors.${e.code}`, args };
};

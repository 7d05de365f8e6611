import { signInSchema, verificationCodeSchema, type TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { SignInAnswer, UserInfo } from '../../api/types';
import { validate, type FieldErrors } from '../../forms/zodErrors';

export interface SignInRequest {
  email: string;
  password: string;
  code?: string;
}

export interface SignInContext {
  email: string;
  password: string;
  method: TwoFactorMethod | null;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  /** ISO time until which sign-in is locked (USER_LOCKED). */
  lockedUntil: string | null;
  codeResent: boolean;
  user: UserInfo | null;
}

export type SignInEvent =
  | { type: 'SUBMIT'; email: string; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'RESEND_CODE' }
  | { type: 'BACK' };

/** Codes after which the code step makes no sense any more: start again from the credentials. */
const CREDENTIAL_ERRORS = new Set(['WRONG_CREDENTIALS', 'USER_LOCKED', 'USER_SUSPENDED', 'USER_BLOCKED', 'EMAIL_NOT_VERIFIED', 'SOCIAL_ACCOUNT']);

const errorAssign = (error: unknown) => {
  const e = toApiError(error).toJSON();
  const lockedUntil = e.code === 'USER_LOCKED' && typeof e.data?.lockedUntil === 'string' ? e.data.lockedUntil : null;
  return { error: e, lockedUntil };
};

const needsCode = (answer: SignInAnswer): answer is { twoFactorRequired: true; method: TwoFactorMethod } =>
  'twoFactorRequired' in answer && answer.twoFactorRequired === true;

/**
 * Sign-in: credentials, then (when the server answers twoFactorRequired) the code step. The
 * `signIn` actor is `POST /sessions/`; the app provides it, tests provide a fake.
 */
export const signinMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    output: {} as { user: UserInfo | null },
  },
  actors: {
    signIn: fromPromise<SignInAnswer, SignInRequest>(async () => {
      throw new Error('signIn actor not provided');
    }),
  },
  guards: {
    credentialsValid: ({ event }) => event.type === 'SUBMIT' && validate(signInSchema, { email: event.email, password: event.password }).ok,
    codeValid: ({ event }) => event.type === 'SUBMIT_CODE' && validate(verificationCodeSchema, event.code).ok,
  },
}).createMachine({
  id: 'signin',
  context: {
    email: '',
    password: '',
    method: null,
    fieldErrors: {},
    error: null,
    lockedUntil: null,
    codeResent: false,
    user: null,
  },
  initial: 'credentials',
  states: {
    credentials: {
      on: {
        SUBMIT: [
          {
            guard: 'credentialsValid',
            target: 'submitting',
            actions: assign(({ event }) => {
              const parsed = signInSchema.parse({ email: event.email, password: event.password });
              return { email: parsed.email, password: parsed.password, fieldErrors: {}, error: null, lockedUntil: null };
            }),
          },
          {
            actions: assign(({ event }) => {
              const result = validate(signInSchema, { email: event.email, password: event.password });
              return { fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({ email: context.email, password: context.password }),
        onDone: [
          {
            guard: ({ event }) => needsCode(event.output),
            target: 'twoFactor',
            actions: assign(({ event }) => ({ method: needsCode(event.output) ? event.output.method : null, codeResent: false })),
          },
          {
            target: 'done',
            actions: assign(({ event }) => ({ user: needsCode(event.output) ? null : event.output.user })),
          },
        ],
        onError: { target: 'credentials', actions: assign(({ event }) => ({ ...errorAssign(event.error), password: '' })) },
      },
    },
    twoFactor: {
      on: {
        SUBMIT_CODE: [
          { guard: 'codeValid', target: 'submittingCode', actions: assign({ fieldErrors: {}, error: null }) },
          { actions: assign({ fieldErrors: { code: 'validation.code' }, error: null }) },
        ],
        RESEND_CODE: { target: 'resendingCode', actions: assign({ error: null }) },
        BACK: { target: 'credentials', actions: assign({ password: '', method: null, error: null, fieldErrors: {} }) },
      },
    },
    resendingCode: {
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({ email: context.email, password: context.password }),
        onDone: { target: 'twoFactor', actions: assign({ codeResent: true }) },
        onError: { target: 'twoFactor', actions: assign(({ event }) => errorAssign(event.error)) },
      },
    },
    submittingCode: {
      invoke: {
        src: 'signIn',
        input: ({ context, event }) => ({
          email: context.email,
          password: context.password,
          code: event.type === 'SUBMIT_CODE' ? event.code.trim() : '',
        }),
        onDone: [
          {
            guard: ({ event }) => !needsCode(event.output),
            target: 'done',
            actions: assign(({ event }) => ({ user: needsCode(event.output) ? null : event.output.user })),
          },
          { target: 'twoFactor', actions: assign({ error: { code: 'TWO_FACTOR_INCORRECT', message: 'Incorrect 2FA code', data: null } }) },
        ],
        onError: [
          {
            guard: ({ event }) => CREDENTIAL_ERRORS.has(toApiError(event.error).code),
            target: 'credentials',
            actions: assign(({ event }) => ({ ...errorAssign(event.error), password: '', method: null })),
          },
          { target: 'twoFactor', actions: assign(({ event }) => errorAssign(event.error)) },
        ],
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ user: context.user }),
});

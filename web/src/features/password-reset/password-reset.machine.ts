import { emailSchema, passwordResetSchema } from '@axel/domain/accounts/accounts.validation';
import { z } from 'zod';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';

export interface SetPasswordRequest {
  token: string;
  password: string;
  passwordConfirmation: string;
}

export interface PasswordResetContext {
  token: string | null;
  email: string;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
}

export type PasswordResetEvent =
  | { type: 'REQUEST'; email: string }
  | { type: 'SUBMIT'; password: string; passwordConfirmation: string }
  | { type: 'REQUEST_NEW_LINK' };

const requestSchema = z.object({ email: emailSchema });
const LINK_ERRORS = new Set(['LINK_EXPIRED', 'LINK_INVALID']);

const passwordsOf = (event: PasswordResetEvent) =>
  event.type === 'SUBMIT' ? { password: event.password, passwordConfirmation: event.passwordConfirmation } : {};

/**
 * Password reset. Without a token: request -> requesting -> sent (the server answers 202 whether
 * or not the address exists). With the token of the mail link: form -> submitting -> done, or
 * expired when the link is expired or already used.
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { token?: string | null } | undefined,
  },
  actors: {
    requestReset: fromPromise<void, { email: string }>(async () => {
      throw new Error('requestReset actor not provided');
    }),
    setPassword: fromPromise<void, SetPasswordRequest>(async () => {
      throw new Error('setPassword actor not provided');
    }),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token),
    requestValid: ({ event }) => event.type === 'REQUEST' && validate(requestSchema, { email: event.email }).ok,
    passwordsValid: ({ event }) => validate(passwordResetSchema, passwordsOf(event)).ok,
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({ token: input?.token ?? null, email: '', fieldErrors: {}, error: null }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasToken', target: 'form' }, { target: 'request' }] },
    request: {
      on: {
        REQUEST: [
          {
            guard: 'requestValid',
            target: 'requesting',
            actions: assign(({ event }) => ({ email: requestSchema.parse({ email: event.email }).email, fieldErrors: {}, error: null })),
          },
          {
            actions: assign(({ event }) => {
              const r = validate(requestSchema, { email: event.email });
              return { fieldErrors: r.ok ? {} : r.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    requesting: {
      invoke: {
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: 'sent',
        onError: { target: 'request', actions: assign(({ event }) => splitServerError(event.error)) },
      },
    },
    sent: {},
    form: {
      on: {
        SUBMIT: [
          { guard: 'passwordsValid', target: 'submitting', actions: assign({ fieldErrors: {}, error: null }) },
          {
            actions: assign(({ event }) => {
              const r = validate(passwordResetSchema, passwordsOf(event));
              return { fieldErrors: r.ok ? {} : r.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'setPassword',
        input: ({ context, event }) => ({ token: context.token ?? '', ...(passwordsOf(event) as Omit<SetPasswordRequest, 'token'>) }),
        onDone: 'done',
        onError: [
          {
            guard: ({ event }) => LINK_ERRORS.has(toApiError(event.error).code),
            target: 'expired',
            actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })),
          },
          { target: 'form', actions: assign(({ event }) => splitServerError(event.error)) },
        ],
      },
    },
    expired: {
      on: { REQUEST_NEW_LINK: { target: 'request', actions: assign({ token: null, error: null, fieldErrors: {} }) } },
    },
    done: { type: 'final' },
  },
});

import { emailSchema, passwordResetSchema } from '@axel/domain/accounts/accounts.validation';
import { z } from 'zod';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { asLinkError, isRejectedLinkToken, isUnusableLinkError } from '../../api/links';
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

const passwordsOf = (event: PasswordResetEvent) =>
  event.type === 'SUBMIT' ? { password: event.password, passwordConfirmation: event.passwordConfirmation } : {};

/**
 * Password reset. Without a token: request -> requesting -> sent (the server answers 202 whether
 * or not the address exists). With the token of the mail link the link is checked first
 * (checking): a used, expired or garbled link goes straight to expired, from where a new link can
 * be requested, so nobody types a new password into a form that cannot work. A usable link shows
 * form -> submitting -> done (or expired, if the link was spent meanwhile). When the check itself
 * fails for another reason (network), the form is shown and the server checks again on submit.
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
    checkLink: fromPromise<void, { token: string }>(async () => {
      throw new Error('checkLink actor not provided');
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
    start: { always: [{ guard: 'hasToken', target: 'checking' }, { target: 'request' }] },
    checking: {
      invoke: {
        src: 'checkLink',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: 'form',
        onError: [
          {
            guard: ({ event }) => isRejectedLinkToken(event.error),
            target: 'expired',
            actions: assign(({ event }) => ({ error: asLinkError(event.error) })),
          },
          { target: 'form' },
        ],
      },
    },
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
            guard: ({ event }) => isUnusableLinkError(event.error),
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

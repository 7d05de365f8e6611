import { signUpSchema, type Locale } from '@axel/domain/accounts/accounts.validation';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';

export interface SignUpForm {
  email: string;
  password: string;
  passwordConfirmation: string;
  termsAccepted: boolean;
  locale?: Locale;
}

export interface SignUpRequest {
  email: string;
  password: string;
  passwordConfirmation: string;
  termsAccepted: true;
  locale?: Locale;
}

export interface SignUpContext {
  email: string;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  /** How many times the confirmation mail was sent again from this screen. */
  resentCount: number;
  startInInbox: boolean;
}

export type SignUpEvent = ({ type: 'SUBMIT' } & SignUpForm) | { type: 'RESEND' } | { type: 'EDIT' };

export interface SignUpInput {
  /** Start on "check your inbox" for this address (a sign-in refused with EMAIL_NOT_VERIFIED). */
  pendingEmail?: string;
}

const formOf = (event: SignUpEvent) =>
  event.type === 'SUBMIT'
    ? {
        email: event.email,
        password: event.password,
        passwordConfirmation: event.passwordConfirmation,
        termsAccepted: event.termsAccepted,
        locale: event.locale,
      }
    : {};

/**
 * Sign-up: form -> submitting -> checkInbox, with resending of the confirmation mail. Actors:
 * `signUp` is `POST /users/`, `resend` is `POST /email-confirmations/resend`.
 */
export const signupMachine = setup({
  types: {
    context: {} as SignUpContext,
    events: {} as SignUpEvent,
    input: {} as SignUpInput | undefined,
  },
  actors: {
    signUp: fromPromise<{ id: string; email: string }, SignUpRequest>(async () => {
      throw new Error('signUp actor not provided');
    }),
    resend: fromPromise<void, { email: string }>(async () => {
      throw new Error('resend actor not provided');
    }),
  },
  guards: {
    formValid: ({ event }) => validate(signUpSchema, formOf(event)).ok,
    startInInbox: ({ context }) => context.startInInbox && context.email !== '',
  },
}).createMachine({
  id: 'signup',
  context: ({ input }) => ({
    email: input?.pendingEmail ?? '',
    fieldErrors: {},
    error: null,
    resentCount: 0,
    startInInbox: Boolean(input?.pendingEmail),
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'startInInbox', target: 'checkInbox' }, { target: 'form' }],
    },
    form: {
      on: {
        SUBMIT: [
          { guard: 'formValid', target: 'submitting', actions: assign({ fieldErrors: {}, error: null }) },
          {
            actions: assign(({ event }) => {
              const result = validate(signUpSchema, formOf(event));
              return { fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'signUp',
        input: ({ event }) => {
          const parsed = signUpSchema.parse(formOf(event));
          return { ...parsed, termsAccepted: true as const };
        },
        onDone: { target: 'checkInbox', actions: assign(({ event }) => ({ email: event.output.email, resentCount: 0 })) },
        onError: {
          target: 'form',
          actions: assign(({ event }) => splitServerError(event.error, { EMAIL_EXISTS: 'email' })),
        },
      },
    },
    checkInbox: {
      on: {
        RESEND: { target: 'resending', actions: assign({ error: null }) },
        EDIT: { target: 'form', actions: assign({ error: null, fieldErrors: {}, startInInbox: false }) },
      },
    },
    resending: {
      invoke: {
        src: 'resend',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'checkInbox', actions: assign(({ context }) => ({ resentCount: context.resentCount + 1 })) },
        onError: { target: 'checkInbox', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
      },
    },
  },
});

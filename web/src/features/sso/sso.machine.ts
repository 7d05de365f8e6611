import { verificationCodeSchema, type TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { validate } from '../../forms/zodErrors';
import type { SsoAnswer, SsoRequest } from './sso.api';

export interface SsoContext {
  type: string;
  code: string;
  state: string;
  method: TwoFactorMethod | null;
  twoFactorToken: string | null;
  codeError: string | null;
  error: NormalisedError | null;
  /** The address the provider vouched for, when the server sends the user to sign up. */
  signUpEmail: string | null;
  user: UserInfo | null;
}

export type SsoEvent = { type: 'SUBMIT_CODE'; code: string };

/** Signed in (`user`), sent to sign up (`signUp`), or neither (the round failed, `context.error` says why). */
export interface SsoOutput {
  user: UserInfo | null;
  signUp: { email: string; reason: string } | null;
}

const needsCode = (answer: SsoAnswer): answer is Extract<SsoAnswer, { twoFactorRequired: true }> => 'twoFactorRequired' in answer;

/** The server sends an address to sign-up (terms not accepted yet, or not verified by the provider) with `data.signUp`. */
const signUpOf = (error: NormalisedError): { email: string; reason: string } | null => {
  const data = error.data as { signUp?: unknown; email?: unknown } | null;
  return data?.signUp === true && typeof data.email === 'string' ? { email: data.email, reason: error.code } : null;
};

/**
 * The return from a provider: exchanging (the code and state are posted) -> done with the user;
 * a two-factor account -> twoFactor (the second factor is asked, as on the password sign-in) ->
 * verifying -> done; a new or unverified address -> done with a sign-up hand-over; any other
 * refusal -> failed with its error.
 */
export const ssoMachine = setup({
  types: {
    context: {} as SsoContext,
    events: {} as SsoEvent,
    input: {} as { type: string; code: string; state: string },
    output: {} as SsoOutput,
  },
  actors: {
    complete: fromPromise<SsoAnswer, { type: string; request: SsoRequest }>(async () => {
      throw new Error('complete actor not provided');
    }),
  },
}).createMachine({
  id: 'sso',
  context: ({ input }) => ({ ...input, method: null, twoFactorToken: null, codeError: null, error: null, signUpEmail: null, user: null }),
  initial: 'exchanging',
  output: ({ context }) => ({
    user: context.user,
    signUp: context.signUpEmail ? { email: context.signUpEmail, reason: context.error?.code ?? '' } : null,
  }),
  states: {
    exchanging: {
      invoke: {
        src: 'complete',
        input: ({ context }) => ({ type: context.type, request: { code: context.code, state: context.state } }),
        onDone: [
          {
            guard: ({ event }) => needsCode(event.output),
            target: 'twoFactor',
            actions: assign(({ event }) => {
              const answer = event.output as Extract<SsoAnswer, { twoFactorRequired: true }>;
              return { method: answer.method, twoFactorToken: answer.twoFactorToken };
            }),
          },
          { target: 'signedIn', actions: assign(({ event }) => ({ user: (event.output as { user: UserInfo }).user })) },
        ],
        onError: [
          {
            guard: ({ event }) => signUpOf(toApiError(event.error).toJSON()) !== null,
            target: 'toSignUp',
            actions: assign(({ event }) => {
              const error = toApiError(event.error).toJSON();
              return { error, signUpEmail: signUpOf(error)?.email ?? null };
            }),
          },
          { target: 'failed', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
        ],
      },
    },
    twoFactor: {
      on: {
        SUBMIT_CODE: [
          {
            guard: ({ event }) => !validate(verificationCodeSchema, event.code).ok,
            actions: assign({ codeError: 'validation.code', error: null }),
          },
          { target: 'verifying', actions: assign({ codeError: null, error: null }) },
        ],
      },
    },
    verifying: {
      invoke: {
        src: 'complete',
        input: ({ context, event }) => ({
          type: context.type,
          request: { code: (event as { code: string }).code.trim(), twoFactorToken: context.twoFactorToken ?? '' },
        }),
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ user: (event.output as { user: UserInfo }).user })) },
        onError: [
          {
            // the sign-in's token expired: the whole round starts again
            guard: ({ event }) => toApiError(event.error).code === 'SSO_STATE_INVALID',
            target: 'failed',
            actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })),
          },
          { target: 'twoFactor', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
        ],
      },
    },
    signedIn: { type: 'final' },
    toSignUp: { type: 'final' },
    failed: { type: 'final' },
  },
});

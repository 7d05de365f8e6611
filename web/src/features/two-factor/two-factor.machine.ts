import { verificationCodeSchema, type TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { TotpEnrolment, UserInfo } from '../../api/types';
import { validate, type FieldErrors } from '../../forms/zodErrors';

export interface TwoFactorContext {
  /** Method being enrolled. */
  method: TwoFactorMethod | null;
  /** Method currently protecting the account, null when 2FA is off. */
  enabledMethod: TwoFactorMethod | null;
  totp: TotpEnrolment | null;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  codeSent: boolean;
  /** A further code was mailed on request: the page confirms it. */
  codeResent: boolean;
}

export type TwoFactorEvent =
  | { type: 'CHOOSE'; method: TwoFactorMethod }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'RESEND' }
  | { type: 'CANCEL' }
  | { type: 'DISABLE' };

export interface TwoFactorInput {
  enabled: boolean;
  method: TwoFactorMethod | null;
}

const codeOf = (event: TwoFactorEvent) => (event.type === 'SUBMIT_CODE' ? event.code.trim() : '');
const fail = ({ event }: { event: { type: string } }) => ({
  error: toApiError('error' in event ? (event as { error: unknown }).error : event).toJSON(),
});

/**
 * Two-factor enrolment and removal. Choose a method; for the authenticator app the server starts
 * an enrolment and sends the QR code as a data URL; for e-mail a code is mailed. The code is then
 * verified, which enables 2FA. Disabling asks for a current code (mailed first for e-mail).
 * Actors: startTotp, sendEmailCode, enable, disable (the /users/:id/two-factor/* calls).
 */
export const twoFactorMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    input: {} as TwoFactorInput,
  },
  actors: {
    startTotp: fromPromise<TotpEnrolment, void>(async () => {
      throw new Error('startTotp actor not provided');
    }),
    sendEmailCode: fromPromise<void, void>(async () => {
      throw new Error('sendEmailCode actor not provided');
    }),
    enable: fromPromise<UserInfo, { method: TwoFactorMethod; code: string }>(async () => {
      throw new Error('enable actor not provided');
    }),
    disable: fromPromise<UserInfo, { code: string }>(async () => {
      throw new Error('disable actor not provided');
    }),
  },
  actions: {
    /** The server's new user info; the app stores it. */
    userChanged: (_, _params: { user: UserInfo }) => {},
    /** A new attempt (a code sent, a new code asked for) clears what the previous one left. */
    startAttempt: assign({ fieldErrors: {}, error: null, codeResent: false }),
    rejectCodeFormat: assign({ fieldErrors: { code: 'validation.code' }, error: null, codeResent: false }),
    /** A code mailed while one had already been sent is a resend, confirmed on the page. */
    codeMailed: assign(({ context }) => ({ codeResent: context.codeSent, codeSent: true })),
  },
  guards: {
    isEnabled: ({ context }) => context.enabledMethod !== null,
    codeValid: ({ event }) => validate(verificationCodeSchema, codeOf(event)).ok,
    choseTotp: ({ event }) => event.type === 'CHOOSE' && event.method === 'totp',
    choseEmail: ({ event }) => event.type === 'CHOOSE' && event.method === 'email',
    enrollingTotp: ({ context }) => context.method === 'totp',
    enabledWithEmail: ({ context }) => context.enabledMethod === 'email',
  },
}).createMachine({
  id: 'twoFactor',
  context: ({ input }) => ({
    method: null,
    enabledMethod: input.enabled ? (input.method ?? 'totp') : null,
    totp: null,
    fieldErrors: {},
    error: null,
    codeSent: false,
    codeResent: false,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'isEnabled', target: 'enabled' }, { target: 'choose' }] },
    choose: {
      on: {
        CHOOSE: [
          { guard: 'choseTotp', target: 'startingTotp', actions: assign({ method: 'totp', error: null, fieldErrors: {} }) },
          { guard: 'choseEmail', target: 'sendingEmailCode', actions: assign({ method: 'email', error: null, fieldErrors: {} }) },
        ],
      },
    },
    startingTotp: {
      invoke: {
        src: 'startTotp',
        onDone: { target: 'totpSetup', actions: assign(({ event }) => ({ totp: event.output })) },
        onError: { target: 'choose', actions: assign(fail) },
      },
    },
    totpSetup: {
      on: {
        SUBMIT_CODE: [{ guard: 'codeValid', target: 'verifying', actions: 'startAttempt' }, { actions: 'rejectCodeFormat' }],
        CANCEL: { target: 'choose', actions: assign({ method: null, totp: null, error: null, fieldErrors: {}, codeResent: false }) },
      },
    },
    sendingEmailCode: {
      invoke: {
        src: 'sendEmailCode',
        onDone: { target: 'emailCode', actions: 'codeMailed' },
        onError: [
          { guard: ({ context }) => context.codeSent, target: 'emailCode', actions: assign(fail) },
          { target: 'choose', actions: assign(fail) },
        ],
      },
    },
    emailCode: {
      on: {
        SUBMIT_CODE: [{ guard: 'codeValid', target: 'verifying', actions: 'startAttempt' }, { actions: 'rejectCodeFormat' }],
        RESEND: { target: 'sendingEmailCode', actions: 'startAttempt' },
        CANCEL: { target: 'choose', actions: assign({ method: null, codeSent: false, codeResent: false, error: null, fieldErrors: {} }) },
      },
    },
    verifying: {
      invoke: {
        src: 'enable',
        input: ({ context, event }) => ({ method: context.method ?? 'totp', code: codeOf(event) }),
        onDone: {
          target: 'enabled',
          actions: [
            assign(({ context }) => ({ enabledMethod: context.method, method: null, totp: null, codeSent: false, codeResent: false })),
            { type: 'userChanged', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        onError: [
          { guard: 'enrollingTotp', target: 'totpSetup', actions: assign(fail) },
          { target: 'emailCode', actions: assign(fail) },
        ],
      },
    },
    enabled: {
      on: {
        DISABLE: [
          { guard: 'enabledWithEmail', target: 'sendingDisableCode', actions: assign({ error: null, fieldErrors: {} }) },
          { target: 'disableCode', actions: assign({ error: null, fieldErrors: {} }) },
        ],
      },
    },
    sendingDisableCode: {
      invoke: {
        src: 'sendEmailCode',
        onDone: { target: 'disableCode', actions: 'codeMailed' },
        onError: { target: 'enabled', actions: assign(fail) },
      },
    },
    disableCode: {
      on: {
        SUBMIT_CODE: [{ guard: 'codeValid', target: 'disabling', actions: 'startAttempt' }, { actions: 'rejectCodeFormat' }],
        RESEND: { guard: 'enabledWithEmail', target: 'sendingDisableCode', actions: 'startAttempt' },
        CANCEL: { target: 'enabled', actions: assign({ error: null, fieldErrors: {}, codeSent: false, codeResent: false }) },
      },
    },
    disabling: {
      invoke: {
        src: 'disable',
        input: ({ event }) => ({ code: codeOf(event) }),
        onDone: {
          target: 'choose',
          actions: [
            assign({ enabledMethod: null, codeSent: false, codeResent: false }),
            { type: 'userChanged', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        onError: { target: 'disableCode', actions: assign(fail) },
      },
    },
  },
});

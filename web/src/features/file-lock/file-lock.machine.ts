import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { LockMethod } from './file-lock.api';

export type LockPurpose = 'lock' | 'unlock' | 'open';

export interface LockDialogContext {
  purpose: LockPurpose;
  method: LockMethod | null;
  error: NormalisedError | null;
}

export type LockDialogEvent = { type: 'SUBMIT'; code: string } | { type: 'RESEND' } | { type: 'CANCEL' };

/** A verification code is six digits (mailed, or from the authenticator app). */
export const isCode = (code: string) => /^\d{6}$/.test(code.trim());

/**
 * The verification-code dialog of the two-factor lock: asking (a mailed code is sent, or the
 * authenticator is named) -> entering -> submitting -> done; a wrong or expired code goes back to
 * entering with its error; RESEND mails a new code; CANCEL ends it unfinished.
 */
export const lockDialogMachine = setup({
  types: {
    context: {} as LockDialogContext,
    events: {} as LockDialogEvent,
    input: {} as { purpose: LockPurpose },
  },
  actors: {
    askCode: fromPromise<{ method: LockMethod }>(async () => {
      throw new Error('askCode actor not provided');
    }),
    submit: fromPromise<void, { code: string; purpose: LockPurpose }>(async () => {
      throw new Error('submit actor not provided');
    }),
  },
}).createMachine({
  id: 'lockDialog',
  context: ({ input }) => ({ purpose: input.purpose, method: null, error: null }),
  initial: 'asking',
  states: {
    asking: {
      invoke: {
        src: 'askCode',
        onDone: { target: 'entering', actions: assign(({ event }) => ({ method: event.output.method })) },
        onError: { target: 'entering', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
      },
      on: { CANCEL: 'cancelled' },
    },
    entering: {
      on: {
        SUBMIT: { guard: ({ event }) => isCode(event.code), target: 'submitting', actions: assign({ error: null }) },
        RESEND: { target: 'asking', actions: assign({ error: null }) },
        CANCEL: 'cancelled',
      },
    },
    submitting: {
      invoke: {
        src: 'submit',
        input: ({ context, event }) => ({ code: (event as { code: string }).code.trim(), purpose: context.purpose }),
        onDone: 'done',
        onError: { target: 'entering', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

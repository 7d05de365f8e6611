import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { asLinkError, isRejectedLinkToken, isUnusableLinkError } from '../../api/links';

export interface Reset2faConfirmContext {
  token: string;
  error: NormalisedError | null;
}

export type Reset2faConfirmEvent = { type: 'CONFIRM' };

/**
 * The mailed link that turns two-factor authentication off (/reset2fa/?token=...). The link is
 * checked first, so a used, expired or garbled link says so at once (with the way to request a new
 * one) instead of offering a button that cannot work: checking -> ready -> confirming -> done, or
 * invalid. A check that fails for another reason (network) still offers the button; the server
 * checks again when it is pressed.
 */
export const reset2faConfirmMachine = setup({
  types: {
    context: {} as Reset2faConfirmContext,
    events: {} as Reset2faConfirmEvent,
    input: {} as { token: string },
  },
  actors: {
    checkLink: fromPromise<void, { token: string }>(async () => {
      throw new Error('checkLink actor not provided');
    }),
    confirm: fromPromise<void, { token: string }>(async () => {
      throw new Error('confirm actor not provided');
    }),
  },
}).createMachine({
  id: 'reset2faConfirm',
  context: ({ input }) => ({ token: input.token, error: null }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'checkLink',
        input: ({ context }) => ({ token: context.token }),
        onDone: 'ready',
        onError: [
          { guard: ({ event }) => isRejectedLinkToken(event.error), target: 'invalid', actions: assign(({ event }) => ({ error: asLinkError(event.error) })) },
          { target: 'ready' },
        ],
      },
    },
    ready: {
      on: { CONFIRM: { target: 'confirming', actions: assign({ error: null }) } },
    },
    confirming: {
      invoke: {
        src: 'confirm',
        input: ({ context }) => ({ token: context.token }),
        onDone: 'done',
        onError: [
          { guard: ({ event }) => isUnusableLinkError(event.error), target: 'invalid', actions: assign(({ event }) => ({ error: asLinkError(event.error) })) },
          { target: 'ready', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
        ],
      },
    },
    invalid: { type: 'final' },
    done: { type: 'final' },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { EsignPackage } from './esign.api';

export type SendAnswer = EsignPackage & { password?: string };

export interface PackageSendContext {
  packageId: string;
  error: NormalisedError | null;
  /** The package as sending left it (awaiting signatures). */
  sent: EsignPackage | null;
  /** The password the server made when none was given: shown once, here only. */
  madePassword: string | null;
}

export type PackageSendEvent = { type: 'SEND'; password?: string } | { type: 'CONFIRM' } | { type: 'CANCEL' } | { type: 'RETRY' };

/**
 * Sending a prepared package (the last step): the owner confirms, the server mails each signer
 * whose turn it is, and a password the server made (none was chosen) is shown once. A refusal (an
 * incomplete package, a plan without eSign) is shown and the owner can go back or try again.
 */
export const packageSendMachine = setup({
  types: {
    context: {} as PackageSendContext & { password: string | undefined },
    events: {} as PackageSendEvent,
    input: {} as { packageId: string },
  },
  actors: {
    send: fromPromise<SendAnswer, { packageId: string; password: string | undefined }>(async () => {
      throw new Error('send not provided');
    }),
  },
}).createMachine({
  id: 'packageSend',
  context: ({ input }) => ({ packageId: input.packageId, password: undefined, error: null, sent: null, madePassword: null }),
  initial: 'review',
  states: {
    review: { on: { SEND: { target: 'confirming', actions: assign({ password: ({ event }) => event.password || undefined }) } } },
    confirming: { on: { CONFIRM: 'sending', CANCEL: 'review' } },
    sending: {
      entry: assign({ error: null }),
      invoke: {
        src: 'send',
        input: ({ context }) => ({ packageId: context.packageId, password: context.password }),
        onDone: {
          target: 'sent',
          actions: assign({
            sent: ({ event }) => {
              const { password: _made, ...pkg } = event.output;
              return pkg;
            },
            madePassword: ({ event }) => event.output.password ?? null,
          }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    failed: { on: { RETRY: 'sending', CANCEL: 'review' } },
    sent: { type: 'final' },
  },
});

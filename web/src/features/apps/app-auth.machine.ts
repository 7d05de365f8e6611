import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';

/**
 * The provider's callback (`/app/dropbox/auth`, `/app/clio/auth`): the provider sent the browser back
 * with a code (or an error). Without a signed-in user there is nothing to connect; otherwise the code
 * is posted once and the page says whether the app is connected.
 */
export interface AppAuthInput {
  code: string | null;
  /** The provider's own refusal (`error=access_denied` when the user said no). */
  providerError: string | null;
  signedIn: boolean;
}

interface Context extends AppAuthInput {
  error: NormalisedError | null;
}

export const appAuthMachine = setup({
  types: { input: {} as AppAuthInput, context: {} as Context },
  actors: {
    connect: fromPromise<void, { code: string }>(async () => {
      throw new Error('connect not provided');
    }),
  },
  guards: {
    refusedAtProvider: ({ context }) => context.providerError !== null || !context.code,
    signedOut: ({ context }) => !context.signedIn,
  },
}).createMachine({
  id: 'appAuth',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'signedOut', target: 'signedOut' }, { guard: 'refusedAtProvider', target: 'refused' }, { target: 'connecting' }],
    },
    connecting: {
      invoke: {
        src: 'connect',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: { target: 'connected' },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    connected: { type: 'final' },
    refused: { type: 'final' },
    failed: { type: 'final' },
    signedOut: { type: 'final' },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { Item } from './files.api';

/** Which items a storage task of the trash works on, for whom. */
export interface TrashRequest {
  userId: string;
  items: Item[];
}

export type TrashEvent =
  | ({ type: 'TRASH' } & TrashRequest)
  /** The Undo of the "moved to the trash" notice: the same items back. */
  | ({ type: 'UNDO' } & TrashRequest)
  /** Another action of the page started: its error replaces this one. */
  | { type: 'DISMISS' };

interface Context {
  request: TrashRequest | null;
  error: NormalisedError | null;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();
const requestOf = ({ event }: { event: TrashEvent }) => (event.type === 'DISMISS' ? null : { userId: event.userId, items: event.items });

/**
 * Moving the selection to the trash from the file browser: the storage task runs (asking to skip
 * two-factor when the server wants it), then a notice says how many moved and offers Undo, which
 * restores the same items; a failed Undo is a notice too. Either way the list and the storage's
 * usage are read again afterwards; a move clears the selection, done or not.
 */
export const trashMachine = setup({
  types: {
    context: {} as Context,
    events: {} as TrashEvent,
  },
  actors: {
    trash: fromPromise<unknown, TrashRequest>(async () => {
      throw new Error('trash not provided');
    }),
    restore: fromPromise<unknown, TrashRequest>(async () => {
      throw new Error('restore not provided');
    }),
  },
  actions: {
    /** The notice of the move, whose Undo sends UNDO with the same request. */
    moved: (_, _request: TrashRequest) => {},
    restored: (_, _request: TrashRequest) => {},
    restoreFailed: (_, _error: NormalisedError) => {},
    clearSelection: () => {},
    /** The list and the storage's usage are read again. */
    refresh: () => {},
  },
}).createMachine({
  id: 'trash',
  context: { request: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        TRASH: { target: 'trashing', guard: ({ event }) => event.items.length > 0, actions: assign({ request: requestOf, error: null }) },
        UNDO: { target: 'restoring', actions: assign({ request: requestOf, error: null }) },
        DISMISS: { actions: assign({ error: null }) },
      },
    },
    trashing: {
      invoke: {
        src: 'trash',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'idle',
          actions: [{ type: 'moved', params: ({ context }) => context.request! }, 'clearSelection', 'refresh'],
        },
        onError: { target: 'idle', actions: [assign({ error: ({ event }) => errorOf(event) }), 'clearSelection', 'refresh'] },
      },
    },
    restoring: {
      invoke: {
        src: 'restore',
        input: ({ context }) => context.request!,
        onDone: { target: 'idle', actions: [{ type: 'restored', params: ({ context }) => context.request! }, 'refresh'] },
        onError: { target: 'idle', actions: [{ type: 'restoreFailed', params: ({ event }) => errorOf(event) }, 'refresh'] },
      },
    },
  },
});

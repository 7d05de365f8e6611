import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';

export type MoveCopyMode = 'copy' | 'move';

/** The items, and the folder they go to (null: the storage's root). */
export interface MoveCopyTarget {
  userId: string;
  storageId: string;
  itemIds: string[];
  destinationId: string | null;
}

export type MoveCopyTask = MoveCopyTarget & { action: MoveCopyMode };

export type MoveCopyEvent = { type: 'OPEN'; mode: MoveCopyMode } | ({ type: 'SUBMIT' } & MoveCopyTarget) | { type: 'CLOSE' };

interface Context {
  /** Whether the dialog shows; closing it does not stop a task that runs. */
  open: boolean;
  mode: MoveCopyMode;
  task: MoveCopyTask | null;
  error: NormalisedError | null;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

/**
 * Copying or moving the selection from the file browser: the dialog opens in one mode, the user
 * picks the folder, the storage task runs (asking to skip two-factor when the server wants it).
 * Done, the dialog closes and the selection clears; refused, the dialog stays open with the
 * error. Either way the list and the storage's usage are read again.
 */
export const moveCopyMachine = setup({
  types: {
    context: {} as Context,
    events: {} as MoveCopyEvent,
  },
  actors: {
    run: fromPromise<unknown, MoveCopyTask>(async () => {
      throw new Error('run not provided');
    }),
  },
  actions: {
    clearSelection: () => {},
    /** The list and the storage's usage are read again. */
    refresh: () => {},
  },
}).createMachine({
  id: 'moveCopy',
  context: { open: false, mode: 'copy', task: null, error: null },
  initial: 'idle',
  on: {
    OPEN: { actions: assign(({ event }) => ({ open: true, mode: event.mode, error: null })) },
    CLOSE: { actions: assign({ open: false }) },
  },
  states: {
    idle: {
      on: {
        SUBMIT: {
          target: 'running',
          guard: ({ context }) => context.open,
          actions: assign(({ context, event }) => ({
            task: { action: context.mode, userId: event.userId, storageId: event.storageId, itemIds: event.itemIds, destinationId: event.destinationId },
            error: null,
          })),
        },
      },
    },
    running: {
      invoke: {
        src: 'run',
        input: ({ context }) => context.task!,
        onDone: { target: 'idle', actions: [assign({ open: false }), 'clearSelection', 'refresh'] },
        onError: { target: 'idle', actions: [assign({ error: ({ event }) => errorOf(event) }), 'refresh'] },
      },
    },
  },
});

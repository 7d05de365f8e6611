import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { Item } from './files.api';

/** What the name dialog names: a new folder in the folder on screen, or an item renamed. */
export type Naming = { mode: 'create' } | { mode: 'rename'; item: Item };

/** Where the name goes: the storage and folder on screen. */
export interface NamingPlace {
  userId: string;
  storageId: string;
  folderId: string | null;
}

export type NameRequest = NamingPlace & { naming: Naming; name: string };

export type NamingEvent = { type: 'CREATE_FOLDER' } | { type: 'RENAME'; item: Item } | ({ type: 'SUBMIT'; name: string } & NamingPlace) | { type: 'CLOSE' };

interface Context {
  /** The dialog on screen, or null when it is closed (a save that runs goes on). */
  naming: Naming | null;
  request: NameRequest | null;
  error: NormalisedError | null;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

/**
 * Naming in the file browser: a new folder, or a rename of the one item selected. The dialog
 * checks the name rules itself; the server's refusal (a name taken, a name it does not allow)
 * stays in the dialog. Saved, the dialog closes, the selection clears and the list is read again.
 */
export const namingMachine = setup({
  types: {
    context: {} as Context,
    events: {} as NamingEvent,
  },
  actors: {
    save: fromPromise<unknown, NameRequest>(async () => {
      throw new Error('save not provided');
    }),
  },
  actions: {
    clearSelection: () => {},
    /** The list is read again. */
    refresh: () => {},
  },
}).createMachine({
  id: 'naming',
  context: { naming: null, request: null, error: null },
  initial: 'idle',
  on: {
    CREATE_FOLDER: { actions: assign({ naming: { mode: 'create' }, error: null }) },
    RENAME: { actions: assign(({ event }) => ({ naming: { mode: 'rename', item: event.item } as const, error: null })) },
    CLOSE: { actions: assign({ naming: null }) },
  },
  states: {
    idle: {
      on: {
        SUBMIT: {
          target: 'saving',
          guard: ({ context }) => context.naming !== null,
          actions: assign(({ context, event }) => ({
            request: { naming: context.naming!, name: event.name, userId: event.userId, storageId: event.storageId, folderId: event.folderId },
            error: null,
          })),
        },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => context.request!,
        onDone: { target: 'idle', actions: [assign({ naming: null }), 'clearSelection', 'refresh'] },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
  },
});

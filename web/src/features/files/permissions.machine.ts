import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { GrantJson, ItemPermissions, PermissionLevel } from './permissions.api';
import { draftOf, grantsBody, withLevel, without, type DraftGrant, type PrincipalKey } from './permissions.draft';

/** The item whose grants are saved. */
export interface PermissionsPlace {
  userId: string;
  storageId: string;
  itemId: string;
}

export type SaveRequest = PermissionsPlace & { grants: GrantJson[] };

export type PermissionsEvent =
  | { type: 'LOADED'; answer: ItemPermissions }
  | { type: 'SET_LEVEL'; key: PrincipalKey; level: PermissionLevel }
  | { type: 'REMOVE'; key: PrincipalKey }
  | ({ type: 'SAVE' } & PermissionsPlace)
  | { type: 'CLOSE' };

interface Context {
  /** The last answer of the server: the grants as saved, those inherited, and everyone's access. */
  answer: ItemPermissions | null;
  /** The item's own grants as the dialog edits them, sent whole on save. */
  draft: DraftGrant[];
  error: NormalisedError | null;
  /** The last save went through and nothing was changed since. */
  saved: boolean;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();
const EMPTY: Context = { answer: null, draft: [], error: null, saved: false };

/**
 * The permissions dialog: the item's grants are edited as a draft (a level changed, a member or
 * group added, a grant removed) and saved as a whole; the server's answer replaces both the draft
 * and everyone's access. A refusal (an inherited level lowered) stays in the dialog with the draft
 * kept, so it can be corrected.
 */
export const permissionsMachine = setup({
  types: { context: {} as Context, events: {} as PermissionsEvent },
  actors: {
    save: fromPromise<ItemPermissions, SaveRequest>(async () => {
      throw new Error('save not provided');
    }),
  },
}).createMachine({
  id: 'permissions',
  context: EMPTY,
  initial: 'closed',
  on: { CLOSE: { target: '.closed', actions: assign(EMPTY) } },
  states: {
    closed: {
      on: { LOADED: { target: 'editing', actions: assign(({ event }) => ({ ...EMPTY, answer: event.answer, draft: draftOf(event.answer) })) } },
    },
    editing: {
      on: {
        SET_LEVEL: { actions: assign(({ context, event }) => ({ draft: withLevel(context.draft, event.key, event.level), saved: false })) },
        REMOVE: { actions: assign(({ context, event }) => ({ draft: without(context.draft, event.key), saved: false })) },
        SAVE: { target: 'saving', actions: assign({ error: null, saved: false }) },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context, event }) => {
          const { userId, storageId, itemId } = event as Extract<PermissionsEvent, { type: 'SAVE' }>;
          return { userId, storageId, itemId, grants: grantsBody(context.draft) };
        },
        onDone: { target: 'editing', actions: assign(({ event }) => ({ answer: event.output, draft: draftOf(event.output), saved: true })) },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
  },
});

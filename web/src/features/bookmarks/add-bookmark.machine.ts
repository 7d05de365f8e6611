import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { ShareCredentials } from '../sharing/share-link.api';
import type { Bookmark } from './bookmarks.api';
import { PASSWORD_ASKED } from './open-bookmark.machine';

/**
 * Bookmarking a share by its link: kept at once when the link lets the user in; a password share
 * asks its password first (checked by the share link itself, which hands this tab its access
 * token), then is kept with that token. A wrong password stays in the dialog with the message;
 * any other refusal (not the recipient, expired, already kept) ends with it.
 */
export interface AddBookmarkInput {
  linkId: string;
  bookmarkListId: string | null;
  viewerEmail: string | null;
}

interface Context extends AddBookmarkInput {
  kind: 'public' | 'private' | null;
  error: NormalisedError | null;
  bookmark: Bookmark | null;
}

export type AddBookmarkEvent = { type: 'SUBMIT_PASSWORD'; password: string } | { type: 'CANCEL' };

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

export const addBookmarkMachine = setup({
  types: {
    input: {} as AddBookmarkInput,
    context: {} as Context,
    events: {} as AddBookmarkEvent,
    output: {} as { bookmark: Bookmark | null; error: NormalisedError | null },
  },
  actors: {
    add: fromPromise<Bookmark, { linkId: string; bookmarkListId: string | null }>(async () => {
      throw new Error('add not provided');
    }),
    verify: fromPromise<void, { linkId: string; credentials: ShareCredentials }>(async () => {
      throw new Error('verify not provided');
    }),
  },
  guards: {
    asksPassword: ({ event }) => errorOf(event).code === PASSWORD_ASKED,
  },
}).createMachine({
  id: 'addBookmark',
  context: ({ input }) => ({ ...input, kind: null, error: null, bookmark: null }),
  initial: 'adding',
  states: {
    adding: {
      invoke: {
        src: 'add',
        input: ({ context }) => ({ linkId: context.linkId, bookmarkListId: context.bookmarkListId }),
        onDone: { target: 'added', actions: assign({ bookmark: ({ event }) => event.output, error: null }) },
        onError: [
          {
            guard: 'asksPassword',
            target: 'askingPassword',
            actions: assign({
              kind: ({ event }) => (errorOf(event).data as { kind?: 'public' | 'private' } | null)?.kind ?? null,
              error: null,
            }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    askingPassword: {
      on: {
        SUBMIT_PASSWORD: { target: 'verifying', guard: ({ event }) => event.password.length > 0 },
        CANCEL: 'cancelled',
      },
    },
    verifying: {
      invoke: {
        src: 'verify',
        input: ({ context, event }) => ({
          linkId: context.linkId,
          credentials: {
            password: (event as Extract<AddBookmarkEvent, { type: 'SUBMIT_PASSWORD' }>).password,
            ...(context.kind === 'private' && context.viewerEmail ? { email: context.viewerEmail } : {}),
          },
        }),
        onDone: 'adding',
        // a wrong password (5403) is asked again, with the message
        onError: [
          {
            guard: ({ event }) => ['5403', PASSWORD_ASKED].includes(errorOf(event).code),
            target: 'askingPassword',
            actions: assign({ error: ({ event }) => errorOf(event) }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    added: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({ bookmark: context.bookmark, error: context.error }),
});

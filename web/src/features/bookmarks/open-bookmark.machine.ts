import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { ShareCredentials } from '../sharing/share-link.api';
import type { ShareSummary } from '../sharing/sharing.types';

/**
 * Opening a bookmark (spec §4): the share's summary first (with the token this tab holds, if any);
 * a share that answers SHARE_PROTECTED asks for its password here, on the bookmarks page, and a
 * refusal (403 or 5403: wrong password, not the recipient, expired, revoked) returns to the list
 * with the server's message. A share that opens goes to its page, /shares/<linkId> or
 * /private-share/<linkId>, with the access token already kept for the tab.
 */
export interface OpenBookmarkInput {
  linkId: string;
  /** The signed-in user's e-mail: a private share's recipient need not type it. */
  viewerEmail: string | null;
}

/** The refusal that only asks for the share's password; its data says what kind of share it is. */
export const PASSWORD_ASKED = 'SHARE_PROTECTED';

export type OpenBookmarkOutput = { outcome: 'open'; path: string } | { outcome: 'back'; error: NormalisedError } | { outcome: 'cancelled' };

interface Context extends OpenBookmarkInput {
  kind: ShareSummary['kind'] | null;
  error: NormalisedError | null;
  output: OpenBookmarkOutput | null;
}

export type OpenBookmarkEvent = { type: 'SUBMIT'; password: string } | { type: 'CANCEL' };

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();
const pathOf = (linkId: string, kind: ShareSummary['kind'] | null) => `${kind === 'private' ? '/private-share' : '/shares'}/${encodeURIComponent(linkId)}`;
const kindOf = (error: NormalisedError): ShareSummary['kind'] | null => {
  const kind = (error.data as { kind?: unknown } | null)?.kind;
  return kind === 'private' || kind === 'public' ? kind : null;
};

export const openBookmarkMachine = setup({
  types: { input: {} as OpenBookmarkInput, context: {} as Context, events: {} as OpenBookmarkEvent, output: {} as OpenBookmarkOutput },
  actors: {
    summary: fromPromise<ShareSummary, { linkId: string }>(async () => {
      throw new Error('summary not provided');
    }),
    /** A credentialed call to the share link: resolves when the share lets the credentials in. */
    verify: fromPromise<void, { linkId: string; credentials: ShareCredentials }>(async () => {
      throw new Error('verify not provided');
    }),
  },
  guards: {
    asksPassword: ({ event }) => errorOf(event).code === PASSWORD_ASKED,
  },
}).createMachine({
  id: 'openBookmark',
  context: ({ input }) => ({ ...input, kind: null, error: null, output: null }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'summary',
        input: ({ context }) => ({ linkId: context.linkId }),
        onDone: { target: 'opening', actions: assign({ kind: ({ event }) => event.output.kind }) },
        onError: [
          { guard: 'asksPassword', target: 'askingPassword', actions: assign({ kind: ({ event }) => kindOf(errorOf(event)) }) },
          { target: 'back', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    askingPassword: {
      on: {
        SUBMIT: { target: 'verifying', guard: ({ event }) => event.password.length > 0 },
        CANCEL: 'cancelled',
      },
    },
    verifying: {
      invoke: {
        src: 'verify',
        input: ({ context, event }) => ({
          linkId: context.linkId,
          credentials: {
            password: (event as Extract<OpenBookmarkEvent, { type: 'SUBMIT' }>).password,
            ...(context.kind === 'private' && context.viewerEmail ? { email: context.viewerEmail } : {}),
          },
        }),
        onDone: 'opening',
        // wrong password (403 or 5403) and every other refusal: back to the list with the message
        onError: { target: 'back', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    opening: {
      type: 'final',
      entry: assign({ output: ({ context }) => ({ outcome: 'open' as const, path: pathOf(context.linkId, context.kind) }) }),
    },
    back: {
      type: 'final',
      entry: assign({ output: ({ context }) => ({ outcome: 'back' as const, error: context.error! }) }),
    },
    cancelled: {
      type: 'final',
      entry: assign({ output: () => ({ outcome: 'cancelled' as const }) }),
    },
  },
  output: ({ context }) => context.output!,
});

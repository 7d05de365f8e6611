import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { FieldErrors } from '../../forms/zodErrors';
import type { Page } from './sharing.api';
import type { ShareCredentials } from './share-link.api';
import type { ShareEntry, ShareKind, ShareSummary } from './sharing.types';

/** Refusals a visitor can cure in the password / e-mail dialog, and the field each belongs to. */
export const CREDENTIAL_CODES: Record<string, 'password' | 'email'> = {
  SHARE_PROTECTED: 'password',
  '5403': 'password',
  PRIVATE_SHARE_EMAIL_REQUIRED: 'email',
  PRIVATE_SHARE_RECIPIENT_ONLY: 'email',
};
/** Codes that only ask for the credential; they are not a mistake of the visitor. */
const ASKS_ONLY = new Set(['SHARE_PROTECTED', 'PRIVATE_SHARE_EMAIL_REQUIRED']);
export const LOGIN_REQUIRED_CODE = 'SHARE_LOGIN_REQUIRED';

export const isCredentialRefusal = (error: NormalisedError) => error.code in CREDENTIAL_CODES;
export const isLoginRefusal = (error: NormalisedError & { status?: number }) => error.code === LOGIN_REQUIRED_CODE;

export interface ShareAccessInput {
  linkId: string;
  /** The route the link came in on: /shares (public) or /private-share (private). */
  routeKind: ShareKind;
  /** The signed-in visitor's e-mail, if any: a private share's recipient need not type it. */
  viewerEmail: string | null;
}

export interface ShareAccessContext extends ShareAccessInput {
  summary: ShareSummary | null;
  credentials: ShareCredentials;
  /** The folders from the share's root down to the one on screen. */
  path: ShareEntry[];
  entries: ShareEntry[];
  totalCount: number;
  fieldErrors: FieldErrors;
  /** What the page shows above the list (a failed folder, a failed download). */
  error: NormalisedError | null;
  /** Why the share cannot be opened at all (expired, revoked, unknown, blocked). */
  refusal: NormalisedError | null;
}

export type ShareAccessEvent =
  | { type: 'SUBMIT'; credentials: ShareCredentials }
  | { type: 'OPEN_FOLDER'; entry: ShareEntry }
  | { type: 'GO_TO'; depth: number }
  | { type: 'RELOAD' }
  /** A call outside the machine (a download, a preview) was refused for its credential. */
  | { type: 'REFUSED'; error: NormalisedError }
  | { type: 'FAILED'; error: NormalisedError }
  | { type: 'DISMISS' };

export interface ListInput {
  linkId: string;
  folderId: string | null;
  credentials: ShareCredentials;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

const fieldErrorsFor = (error: NormalisedError, triedCredentials: boolean): FieldErrors => {
  const field = CREDENTIAL_CODES[error.code];
  if (!field) return {};
  // The first try (no password typed yet) only opens the dialog; a wrong answer says what was wrong.
  if (ASKS_ONLY.has(error.code) && !triedCredentials) return {};
  return { [field]: `errors.${error.code}` };
};

/** Private shares need the recipient's e-mail: the signed-in visitor's unless they typed another. */
const credentialsFor = (context: ShareAccessContext): ShareCredentials => {
  const kind = context.summary?.kind ?? context.routeKind;
  const email = context.credentials.email ?? (kind === 'private' ? (context.viewerEmail ?? undefined) : undefined);
  return { ...context.credentials, ...(email ? { email } : {}) };
};

/**
 * A share link opened by a visitor: its summary first (so the page knows which dialog to show
 * without seeing contents), then the root listing with whatever credential is at hand (a stored
 * token, none, the signed-in e-mail). A refusal for the password or e-mail opens the dialog, with
 * the reason under the field when the visitor's own answer was wrong; a sign-in requirement sends
 * the visitor to sign in; expired, revoked or unknown links end in `refused`. A wrong or expired
 * credential while browsing returns to the dialog at the share's root.
 */
export const shareAccessMachine = setup({
  types: {
    context: {} as ShareAccessContext,
    events: {} as ShareAccessEvent,
    input: {} as ShareAccessInput,
  },
  actors: {
    loadSummary: fromPromise<ShareSummary, { linkId: string }>(async () => {
      throw new Error('loadSummary actor not provided');
    }),
    listEntries: fromPromise<Page<ShareEntry>, ListInput>(async () => {
      throw new Error('listEntries actor not provided');
    }),
  },
  guards: {
    mustSignIn: ({ context }) => context.summary?.requireLogin === true && context.viewerEmail === null,
    loginRefusal: ({ event }) => isLoginRefusal(errorOf(event)),
    credentialRefusal: ({ event }) => isCredentialRefusal(errorOf(event)),
    atRoot: ({ context }) => context.path.length === 0,
  },
}).createMachine({
  id: 'shareAccess',
  context: ({ input }) => ({
    ...input,
    summary: null,
    credentials: {},
    path: [],
    entries: [],
    totalCount: 0,
    fieldErrors: {},
    error: null,
    refusal: null,
  }),
  initial: 'summary',
  states: {
    summary: {
      invoke: {
        src: 'loadSummary',
        input: ({ context }) => ({ linkId: context.linkId }),
        onDone: { target: 'decide', actions: assign({ summary: ({ event }) => event.output }) },
        onError: [
          { guard: 'loginRefusal', target: 'loginRequired' },
          { target: 'refused', actions: assign({ refusal: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    decide: {
      always: [{ guard: 'mustSignIn', target: 'loginRequired' }, { target: 'listing' }],
    },
    credentials: {
      on: {
        SUBMIT: {
          target: 'listing',
          actions: assign({ credentials: ({ event }) => event.credentials, path: [], fieldErrors: {}, error: null }),
        },
      },
    },
    listing: {
      invoke: {
        src: 'listEntries',
        input: ({ context }) => ({ linkId: context.linkId, folderId: context.path.at(-1)?.id ?? null, credentials: credentialsFor(context) }),
        onDone: {
          target: 'browsing',
          // The answer's token stands for the password from now on: it is not sent again.
          actions: assign(({ context, event }) => ({
            entries: event.output.data,
            totalCount: event.output.totalCount,
            credentials: context.credentials.email ? { email: context.credentials.email } : {},
            fieldErrors: {},
            error: null,
          })),
        },
        onError: [
          { guard: 'loginRefusal', target: 'loginRequired' },
          {
            guard: 'credentialRefusal',
            target: 'credentials',
            actions: assign(({ context, event }) => ({
              path: [],
              entries: [],
              fieldErrors: fieldErrorsFor(errorOf(event), Boolean(context.credentials.password || context.credentials.email)),
              credentials: context.credentials.email ? { email: context.credentials.email } : {},
            })),
          },
          { guard: 'atRoot', target: 'refused', actions: assign({ refusal: ({ event }) => errorOf(event) }) },
          {
            target: 'browsing',
            actions: assign(({ context, event }) => ({ error: errorOf(event), path: context.path.slice(0, -1) })),
          },
        ],
      },
    },
    browsing: {
      on: {
        OPEN_FOLDER: { target: 'listing', actions: assign({ path: ({ context, event }) => [...context.path, event.entry], error: null }) },
        GO_TO: { target: 'listing', actions: assign({ path: ({ context, event }) => context.path.slice(0, Math.max(0, event.depth)), error: null }) },
        RELOAD: 'listing',
        REFUSED: [
          {
            guard: ({ event }) => isLoginRefusal(event.error),
            target: 'loginRequired',
          },
          {
            guard: ({ event }) => isCredentialRefusal(event.error),
            target: 'credentials',
            actions: assign(({ context, event }) => ({
              path: [],
              entries: [],
              fieldErrors: fieldErrorsFor(event.error, true),
              credentials: context.credentials.email ? { email: context.credentials.email } : {},
            })),
          },
          { actions: assign({ error: ({ event }) => event.error }) },
        ],
        FAILED: { actions: assign({ error: ({ event }) => event.error }) },
        DISMISS: { actions: assign({ error: null }) },
      },
    },
    loginRequired: { type: 'final' },
    refused: { type: 'final' },
  },
});

/** Which fields the credentials dialog asks for. */
export const credentialNeeds = (context: Pick<ShareAccessContext, 'summary' | 'routeKind' | 'fieldErrors'>) => {
  const kind = context.summary?.kind ?? context.routeKind;
  return {
    password: context.summary?.hasPassword === true || Boolean(context.fieldErrors.password),
    email: kind === 'private' || Boolean(context.fieldErrors.email),
  };
};

import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { FieldErrors } from '../../forms/zodErrors';
import { isFolder } from '../files/labels';
import type { Page } from './sharing.api';
import type { ShareCredentials } from './share-link.api';
import type { LocatedEntry } from './share-location';
import type { ShareEntry, ShareGate, ShareKind, ShareSummary } from './sharing.types';

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
  /** A folder (or file) inside the share the address names: opened once the visitor is let in. */
  folderId?: string | null;
}

export interface ShareAccessContext extends ShareAccessInput {
  summary: ShareSummary | null;
  /** What a refusal told about the share before any credential: which dialog to show. */
  gate: ShareGate | null;
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
  /** The entry to open once let in (from the address), until it is located. */
  target: string | null;
  /** A file the address named: shown selected in its folder. */
  focusId: string | null;
}

export type ShareAccessEvent =
  | { type: 'SUBMIT'; credentials: ShareCredentials }
  | { type: 'OPEN_FOLDER'; entry: ShareEntry }
  | { type: 'GO_TO'; depth: number }
  | { type: 'RELOAD' }
  /** The address names another folder (back/forward, a pasted link): null is the share's root. */
  | { type: 'LOCATE'; folderId: string | null }
  /** A call outside the machine (a download, a preview) was refused for its credential. */
  | { type: 'REFUSED'; error: NormalisedError }
  | { type: 'FAILED'; error: NormalisedError }
  | { type: 'DISMISS' };

export interface SummaryInput {
  linkId: string;
  credentials: ShareCredentials;
}

export interface ListInput {
  linkId: string;
  folderId: string | null;
  credentials: ShareCredentials;
}

export interface LocateInput {
  linkId: string;
  entryId: string;
  credentials: ShareCredentials;
}

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

/** A refusal for a missing credential carries the share's gate in its data. */
const gateOf = (error: NormalisedError): ShareGate | null => {
  const d = error.data;
  if (!d || (d.kind !== 'public' && d.kind !== 'private')) return null;
  return {
    kind: d.kind,
    hasPassword: d.hasPassword === true,
    requireLogin: d.requireLogin === true,
    expiresAt: typeof d.expiresAt === 'string' ? d.expiresAt : null,
  };
};

/** After a call let the visitor in, its token stands for the password: the password is not sent again. */
const withoutPassword = (credentials: ShareCredentials): ShareCredentials => (credentials.email ? { email: credentials.email } : {});

const toCredentials = ({ context, event }: { context: ShareAccessContext; event: unknown }) => {
  const error = errorOf(event);
  return {
    path: [],
    entries: [],
    gate: gateOf(error) ?? context.gate,
    fieldErrors: fieldErrorsFor(error, Boolean(context.credentials.password || context.credentials.email)),
    credentials: withoutPassword(context.credentials),
  };
};

const fieldErrorsFor = (error: NormalisedError, triedCredentials: boolean): FieldErrors => {
  const field = CREDENTIAL_CODES[error.code];
  if (!field) return {};
  // The first try (no password typed yet) only opens the dialog; a wrong answer says what was wrong.
  if (ASKS_ONLY.has(error.code) && !triedCredentials) return {};
  return { [field]: `errors.${error.code}` };
};

/** Private shares need the recipient's e-mail: the signed-in visitor's unless they typed another. */
const credentialsFor = (context: ShareAccessContext): ShareCredentials => {
  const kind = context.summary?.kind ?? context.gate?.kind ?? context.routeKind;
  const email = context.credentials.email ?? (kind === 'private' ? (context.viewerEmail ?? undefined) : undefined);
  return { ...context.credentials, ...(email ? { email } : {}) };
};

/**
 * A share link opened by a visitor: its summary first, with whatever credential is at hand (a
 * stored token, none, the signed-in e-mail). A refusal for the password or e-mail carries the
 * share's gate (kind, password, login) and opens the dialog, with the reason under the field when
 * the visitor's own answer was wrong; the answer to the dialog asks for the summary again. A
 * sign-in requirement sends the visitor to sign in; expired, revoked or unknown links end in
 * `refused`. Then the root listing; a wrong or expired credential while browsing returns to the
 * dialog at the share's root.
 */
export const shareAccessMachine = setup({
  types: {
    context: {} as ShareAccessContext,
    events: {} as ShareAccessEvent,
    input: {} as ShareAccessInput,
  },
  actors: {
    loadSummary: fromPromise<ShareSummary, SummaryInput>(async () => {
      throw new Error('loadSummary actor not provided');
    }),
    listEntries: fromPromise<Page<ShareEntry>, ListInput>(async () => {
      throw new Error('listEntries actor not provided');
    }),
    locateEntry: fromPromise<LocatedEntry, LocateInput>(async () => {
      throw new Error('locateEntry actor not provided');
    }),
  },
  guards: {
    mustSignIn: ({ context }) => context.summary?.requireLogin === true && context.viewerEmail === null,
    loginRefusal: ({ event }) => isLoginRefusal(errorOf(event)),
    credentialRefusal: ({ event }) => isCredentialRefusal(errorOf(event)),
    atRoot: ({ context }) => context.path.length === 0,
    hasTarget: ({ context }) => context.target !== null,
  },
}).createMachine({
  id: 'shareAccess',
  context: ({ input }) => ({
    ...input,
    target: input.folderId ?? null,
    focusId: null,
    summary: null,
    gate: null,
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
        input: ({ context }) => ({ linkId: context.linkId, credentials: credentialsFor(context) }),
        onDone: {
          target: 'decide',
          actions: assign(({ context, event }) => ({ summary: event.output, credentials: withoutPassword(context.credentials), fieldErrors: {} })),
        },
        onError: [
          { guard: 'loginRefusal', target: 'loginRequired' },
          { guard: 'credentialRefusal', target: 'credentials', actions: assign(toCredentials) },
          { target: 'refused', actions: assign({ refusal: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    decide: {
      always: [{ guard: 'mustSignIn', target: 'loginRequired' }, { guard: 'hasTarget', target: 'locating' }, { target: 'listing' }],
    },
    /** The address named a place inside the share: its breadcrumbs first, then its listing. */
    locating: {
      invoke: {
        src: 'locateEntry',
        input: ({ context }) => ({ linkId: context.linkId, entryId: context.target ?? '', credentials: credentialsFor(context) }),
        onDone: {
          target: 'listing',
          actions: assign(({ context, event }) => ({
            path: event.output.path,
            focusId: event.output.focusId,
            target: null,
            credentials: withoutPassword(context.credentials),
          })),
        },
        onError: [
          { guard: 'loginRefusal', target: 'loginRequired' },
          { guard: 'credentialRefusal', target: 'credentials', actions: assign(toCredentials) },
          // a folder gone (or never in this share): the share's root, saying so
          { target: 'listing', actions: assign(({ event }) => ({ path: [], target: null, focusId: null, error: errorOf(event) })) },
        ],
      },
    },
    credentials: {
      on: {
        SUBMIT: {
          target: 'summary',
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
            credentials: withoutPassword(context.credentials),
            fieldErrors: {},
            // the event that started the listing cleared the old error; a folder the address named but not found stays said
          })),
        },
        onError: [
          { guard: 'loginRefusal', target: 'loginRequired' },
          { guard: 'credentialRefusal', target: 'credentials', actions: assign(toCredentials) },
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
        RELOAD: { target: 'listing', actions: assign({ error: null }) },
        LOCATE: [
          { guard: ({ event }) => event.folderId === null, target: 'listing', actions: assign({ path: [], focusId: null, error: null }) },
          {
            guard: ({ context, event }) => context.path.some((p) => p.id === event.folderId),
            target: 'listing',
            actions: assign({
              path: ({ context, event }) => context.path.slice(0, context.path.findIndex((p) => p.id === event.folderId) + 1),
              focusId: null,
              error: null,
            }),
          },
          {
            guard: ({ context, event }) => context.entries.some((e) => e.id === event.folderId && isFolder(e)),
            target: 'listing',
            actions: assign({
              path: ({ context, event }) => [...context.path, context.entries.find((e) => e.id === event.folderId)!],
              focusId: null,
              error: null,
            }),
          },
          { target: 'locating', actions: assign({ target: ({ event }) => event.folderId, focusId: null, error: null }) },
        ],
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
              credentials: withoutPassword(context.credentials),
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
export const credentialNeeds = (context: Pick<ShareAccessContext, 'summary' | 'gate' | 'routeKind' | 'fieldErrors'>) => {
  const known = context.summary ?? context.gate;
  const kind = known?.kind ?? context.routeKind;
  return {
    password: known?.hasPassword === true || Boolean(context.fieldErrors.password),
    email: kind === 'private' || Boolean(context.fieldErrors.email),
  };
};

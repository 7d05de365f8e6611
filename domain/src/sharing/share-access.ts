import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { defineErrors } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';

/*
 * What outsiders do with a share: every open (the first successful credentialed call of a visit)
 * and every download is an event. They live in a stream of their own, `share-access-<shareId>`, so
 * a crowd opening a link never contends with the owner's edits of the share. The owner's opened
 * count, delivered-on date, per-recipient first opens and access log all fold from these events.
 *
 * A visit is one access token (`X-Object-Access`): its calls count as one open, whatever their
 * number (the open is recorded when the token is minted). The access decision (`decideShareAccess`) is made before the command; a refused access is
 * never an open nor a download.
 */

/** Refusals of a visitor's reads beyond the access decision (`SharingErrors` has those). */
export const ShareAccessErrors = defineErrors({
  viewOnly: { code: 'SHARE_VIEW_ONLY', status: 403, message: 'This share is view-only: its files can be previewed but not downloaded' },
  notAFile: { code: 'NOT_A_FILE', status: 400, message: 'Only a file has a download URL: download a folder as an archive' },
});

export const shareAccessStreamName = (shareId: string): string => `share-access-${shareId}`;

/**
 * The actor of an anonymous visitor's events: one per share, so the ip and user agent of every
 * anonymous visit of a share are sealed under one data subject (`user-<actorId>`, as the event
 * store names an actor's subject) and are forgotten together with the share's access stream.
 */
export const shareVisitorsActorId = (shareId: string): string => `share-visitors-${shareId}`;

const SHARE_ACCESS_KINDS = ['public', 'private'] as const;
export type ShareAccessKind = (typeof SHARE_ACCESS_KINDS)[number];

export const ShareOpened = defineEvent(
  'ShareOpened',
  z.object({
    shareId: z.string(),
    ownerId: z.string(),
    /** The visit (access token) this open started. */
    visitId: z.string(),
    kind: z.enum(SHARE_ACCESS_KINDS),
    /** The recipient's e-mail (private shares, or a signed-in viewer's), when known. */
    recipientEmail: z.string().nullable(),
    /** The first open of the share by this recipient (private) or by anyone (public). */
    firstOpen: z.boolean(),
    at: z.iso.datetime(),
  }),
  { personal: ['recipientEmail'] },
);

export const ShareDownloaded = defineEvent(
  'ShareDownloaded',
  z.object({
    shareId: z.string(),
    ownerId: z.string(),
    visitId: z.string(),
    /** The file downloaded, or the archive task whose zip was downloaded. */
    entryId: z.string(),
    archive: z.boolean(),
    recipientEmail: z.string().nullable(),
    at: z.iso.datetime(),
  }),
  { personal: ['recipientEmail'] },
);

/**
 * The share's access history is forgotten (its owner was purged): the recipients' e-mails in the
 * stream and the anonymous visitors' addresses and user agents read as erased from then on.
 */
export const ShareAccessForgotten = defineEvent('ShareAccessForgotten', z.object({ shareId: z.string(), at: z.iso.datetime() }), {
  erases: (data, streamName) => [streamName, `user-${shareVisitorsActorId(data.shareId)}`],
});

export const shareAccessEventDefinitions = [ShareOpened, ShareDownloaded, ShareAccessForgotten];
export type ShareAccessEvent = EventOf<typeof ShareOpened> | EventOf<typeof ShareDownloaded> | EventOf<typeof ShareAccessForgotten>;

/** The verdict of `decideShareAccess` as this decider needs it. */
export type ShareAccessVerdict = { readonly ok: true } | { readonly ok: false; readonly error?: unknown };

interface Visit {
  readonly shareId: string;
  readonly ownerId: string;
  readonly kind: ShareAccessKind;
  readonly visitId: string;
  readonly recipientEmail: string | null;
  readonly access: ShareAccessVerdict;
}

export type ShareAccessCommand =
  | Command<'RecordShareOpen', Visit>
  | Command<'RecordShareDownload', Visit & { readonly entryId: string; readonly archive: boolean }>
  | Command<'ForgetShareAccess', { readonly shareId: string }>;

/**
 * Small whatever the traffic: counts, the first open, and which recipients of a private share have
 * opened it (at most 10), so folding a busy link's stream stays cheap. A visit is opened once by
 * construction: its open is recorded when its token is minted, never on the token's later calls.
 */
export interface ShareAccessState {
  readonly opens: number;
  readonly downloads: number;
  /** Lower-cased e-mails of the recipients of a private share who opened it. */
  readonly recipientsOpened: ReadonlySet<string>;
  readonly firstOpenAt: string | null;
  /** Forgotten for good: nothing more is recorded. */
  readonly forgotten: boolean;
}

const normalEmail = (email: string | null): string | null => (email ? email.trim().toLowerCase() : null);

export const shareAccessDecider: Decider<ShareAccessCommand, ShareAccessEvent, ShareAccessState> = {
  initialState: () => ({ opens: 0, downloads: 0, recipientsOpened: new Set(), firstOpenAt: null, forgotten: false }),
  decide(command, state) {
    const at = command.metadata.now.toISOString();
    if (state.forgotten) return [];
    if (command.type === 'ForgetShareAccess') return [{ type: 'ShareAccessForgotten', data: { shareId: command.data.shareId, at } }];
    const { data } = command;
    if (!data.access.ok) return [];
    const recipientEmail = normalEmail(data.recipientEmail);
    const base = { shareId: data.shareId, ownerId: data.ownerId, visitId: data.visitId, recipientEmail };
    switch (command.type) {
      case 'RecordShareOpen': {
        const firstOpen = data.kind === 'private' && recipientEmail ? !state.recipientsOpened.has(recipientEmail) : state.opens === 0;
        return [{ type: 'ShareOpened', data: { ...base, kind: data.kind, firstOpen, at } }];
      }
      case 'RecordShareDownload':
        return [{ type: 'ShareDownloaded', data: { ...base, entryId: command.data.entryId, archive: command.data.archive, at } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ShareOpened': {
        const email = event.data.kind === 'private' ? normalEmail(event.data.recipientEmail) : null;
        return {
          ...state,
          opens: state.opens + 1,
          recipientsOpened: email && !state.recipientsOpened.has(email) ? new Set([...state.recipientsOpened, email]) : state.recipientsOpened,
          firstOpenAt: state.firstOpenAt ?? event.data.at,
        };
      }
      case 'ShareDownloaded':
        return { ...state, downloads: state.downloads + 1 };
      case 'ShareAccessForgotten':
        return { ...state, forgotten: true };
      default:
        return state;
    }
  },
};

/** What the owner sees of a share's access: how often it was opened, and when first. */
export interface ShareAccessSummary {
  readonly openedCount: number;
  readonly deliveredOn: string | null;
  readonly downloadCount: number;
}

export const shareAccessSummaryOf = (state: ShareAccessState): ShareAccessSummary => ({
  openedCount: state.opens,
  deliveredOn: state.firstOpenAt,
  downloadCount: state.downloads,
});

import type { HashChoice, ReceivedFile, SecureFetchEvent, SecureFetchMetadata, SecureFetchType } from './secure-fetch.events';

export interface Submission {
  readonly storageId: string;
  readonly folderId: string;
  readonly itemIds: readonly string[];
  readonly totalSize: number;
  readonly files: readonly ReceivedFile[];
  readonly metadata: SecureFetchMetadata | null;
  readonly submittedAt: string;
}

/** A pay and pin under way (started, neither paid nor failed), or done (txId set). */
export interface Payment {
  readonly certificateId: string | null;
  readonly issuedAt: string;
  readonly lastOpened: Readonly<Record<string, string | null>>;
  readonly canonicalSha256: string;
  /** The IPFS root CID of each received file, by item id (payments begun before pinning had none). */
  readonly cids?: Readonly<Record<string, string>>;
  readonly txId: string | null;
  readonly amount: number | null;
  readonly paidAt: string | null;
}

/**
 * A fetch link. Status follows spec §4: pending (waiting for files) -> uploaded (files arrived,
 * unpaid) -> active (paid and pinned). Revocation and expiry end its validity, not its status.
 */
export interface SecureFetchLink {
  readonly status: 'pending' | 'uploaded' | 'active';
  readonly fetchId: string;
  readonly linkId: string;
  readonly ownerId: string;
  readonly type: SecureFetchType;
  readonly note: string;
  readonly expiresAt: string | null;
  readonly includeMetadata: boolean;
  readonly hashChoice: readonly HashChoice[];
  readonly certificated: boolean;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  readonly usedAt: string | null;
  readonly submission: Submission | null;
  readonly lastOpened: Readonly<Record<string, string>>;
  readonly payment: Payment | null;
  readonly collectedAt: string | null;
}

export type SecureFetchState = { readonly status: 'none' } | SecureFetchLink;

export const initialSecureFetchState = (): SecureFetchState => ({ status: 'none' });

export const isLink = (state: SecureFetchState): state is SecureFetchLink => state.status !== 'none';

export const evolveSecureFetch = (state: SecureFetchState, event: SecureFetchEvent): SecureFetchState => {
  if (event.type === 'SecureFetchCreated') {
    const d = event.data;
    return {
      status: 'pending',
      fetchId: d.fetchId,
      linkId: d.linkId,
      ownerId: d.ownerId,
      type: d.type,
      note: d.note,
      expiresAt: d.expiresAt,
      includeMetadata: d.includeMetadata,
      hashChoice: d.hashChoice,
      certificated: d.type === 'secure-certificate-fetch',
      createdAt: d.createdAt,
      revokedAt: null,
      usedAt: null,
      submission: null,
      lastOpened: {},
      payment: null,
      collectedAt: null,
    };
  }
  if (!isLink(state)) return state;
  switch (event.type) {
    case 'SecureFetchRevoked':
      return { ...state, revokedAt: event.data.revokedAt };
    case 'SecureFetchSubmitted':
      return { ...state, status: 'uploaded', usedAt: event.data.submittedAt, submission: { ...event.data } };
    case 'SecureFetchItemOpened':
      return { ...state, lastOpened: { ...state.lastOpened, [event.data.itemId]: event.data.at } };
    case 'SecureFetchPaymentStarted':
      return { ...state, payment: { ...event.data, txId: null, amount: null, paidAt: null } };
    case 'SecureFetchPaymentFailed':
      return { ...state, payment: null };
    case 'SecureFetchPaid':
      return state.payment
        ? { ...state, status: 'active', payment: { ...state.payment, txId: event.data.txId, amount: event.data.amount, paidAt: event.data.paidAt } }
        : state;
    case 'SecureFetchFilesCollected':
      return { ...state, collectedAt: event.data.collectedAt };
    case 'SecureFetchForgotten':
      return { status: 'none' };
    default:
      return state;
  }
};

export type LinkProblem = 'missing' | 'used' | 'revoked' | 'expired';

/** Why a link cannot take files now, or null: it is valid until used, revoked or expired. */
export const linkProblem = (state: SecureFetchState, now: Date): LinkProblem | null => {
  if (!isLink(state)) return 'missing';
  if (state.usedAt) return 'used';
  if (state.revokedAt) return 'revoked';
  if (state.expiresAt && new Date(state.expiresAt).getTime() <= now.getTime()) return 'expired';
  return null;
};

export const isPaid = (state: SecureFetchState): boolean => isLink(state) && !!state.payment?.txId;

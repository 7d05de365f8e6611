import type { ShareEvent, ShareItem, ShareKind } from './sharing.events';

export interface ShareRecipient {
  readonly email: string;
  readonly blocked: boolean;
}

export interface ShareRecord {
  readonly status: 'active' | 'revoked' | 'deleted';
  readonly id: string;
  readonly linkId: string;
  readonly ownerId: string;
  readonly storageId: string;
  readonly kind: ShareKind;
  readonly title: string;
  readonly description: string | null;
  readonly message: string | null;
  readonly expiresAt: string | null;
  readonly downloadable: boolean;
  readonly requireLogin: boolean;
  readonly esign: boolean;
  readonly passwordHash: string | null;
  readonly recipients: readonly ShareRecipient[];
  readonly items: readonly ShareItem[];
  readonly totalSize: number;
  readonly createdAt: string;
  readonly modifiedAt: string;
  readonly revokedAt: string | null;
  readonly deletedAt: string | null;
  /** Its owner's account was purged: the share is gone and its personal fields are erased. */
  readonly forgotten?: boolean;
}

/** No share yet, or the share in one of its states (expiry is a time fact, read with {@link isExpired}). */
export type ShareState = { readonly status: 'none' } | ShareRecord;

export const initialShareState = (): ShareState => ({ status: 'none' });

export const isExpired = (share: Pick<ShareRecord, 'expiresAt'>, now: Date): boolean =>
  share.expiresAt !== null && Date.parse(share.expiresAt) <= now.getTime();

const setBlocked = (recipients: readonly ShareRecipient[], email: string, blocked: boolean) =>
  recipients.map((r) => (r.email === email ? { ...r, blocked } : r));

export const evolveShare = (state: ShareState, event: ShareEvent): ShareState => {
  if (event.type === 'ShareCreated') {
    const d = event.data;
    return {
      status: 'active',
      id: d.shareId,
      linkId: d.linkId,
      ownerId: d.ownerId,
      storageId: d.storageId,
      kind: d.kind,
      title: d.title,
      description: d.description,
      message: d.message,
      expiresAt: d.expiresAt,
      downloadable: d.downloadable,
      requireLogin: d.requireLogin,
      esign: d.esign,
      passwordHash: d.passwordHash,
      recipients: d.recipients.map((email) => ({ email, blocked: false })),
      items: d.items,
      totalSize: d.totalSize,
      createdAt: d.createdAt,
      modifiedAt: d.createdAt,
      revokedAt: null,
      deletedAt: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ShareEdited': {
      const { editedAt, ...changes } = event.data;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      return { ...state, ...defined, modifiedAt: editedAt };
    }
    case 'ShareRevoked':
      return { ...state, status: 'revoked', revokedAt: event.data.revokedAt, modifiedAt: event.data.revokedAt };
    case 'ShareDeleted':
      return { ...state, status: 'deleted', deletedAt: event.data.deletedAt, modifiedAt: event.data.deletedAt };
    case 'ShareForgotten':
      return { ...state, status: 'deleted', deletedAt: state.deletedAt ?? event.data.at, forgotten: true };
    case 'ShareRecipientBlocked':
      return { ...state, recipients: setBlocked(state.recipients, event.data.email, true), modifiedAt: event.data.at };
    case 'ShareRecipientUnblocked':
      return { ...state, recipients: setBlocked(state.recipients, event.data.email, false), modifiedAt: event.data.at };
    default:
      return state;
  }
};

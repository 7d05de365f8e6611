import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { BlockRecipient, CreateShare, EditShare, ShareCommand, UnblockRecipient } from './sharing.commands';
import { SharingErrors } from './sharing.errors';
import type { ShareEvent } from './sharing.events';
import { checkRecipients, checkShareNote, checkShareTitle, MAX_SHARE_ITEMS, normalizeShareEmail, SHARED_FILE_MAX_BYTES } from './sharing.rules';
import { evolveShare, initialShareState, isExpired, type ShareRecord, type ShareState } from './sharing.state';

const checkExpiry = (expiresAt: string | null | undefined, now: Date): string | null => {
  if (expiresAt === null || expiresAt === undefined) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at) || at <= now.getTime()) throw new DomainError(SharingErrors.invalidExpiry);
  return new Date(at).toISOString();
};

const create = (command: CreateShare, state: ShareState): ShareEvent[] => {
  // a retried create of the same share (same id) is already done
  if (state.status !== 'none') return [];
  const d = command.data;
  const now = command.metadata.now;
  if (d.items.length === 0) throw new DomainError(SharingErrors.shareEntryEmpty);
  if (d.items.length > MAX_SHARE_ITEMS) throw new DomainError(SharingErrors.tooManyItems, { max: MAX_SHARE_ITEMS });
  for (const item of d.items) {
    if (item.kind === 'folder' && item.fileCount === 0) throw new DomainError(SharingErrors.emptyFolder, { itemId: item.id });
    if (!d.unlimitedFileSize && item.largestFileSize > SHARED_FILE_MAX_BYTES) {
      throw new DomainError(SharingErrors.fileTooLarge, { itemId: item.id, maxSize: SHARED_FILE_MAX_BYTES });
    }
  }
  if (d.esign && !d.esignAllowed) throw new DomainError(SharingErrors.esignNotInPlan);
  const isPrivate = d.recipients !== undefined;
  const message = checkShareNote(d.message);
  const passwordHash = d.passwordHash ?? null;
  let recipients: string[] = [];
  if (isPrivate) {
    if (!d.title.trim() || !message || !passwordHash) throw new DomainError(SharingErrors.privateFieldsRequired);
    if (d.recipients!.length === 0) throw new DomainError(SharingErrors.invalidRecipient);
    recipients = checkRecipients(d.recipients!, d.ownerEmail);
  }
  const items = d.items.map(({ id, kind, name, size }) => ({ id, kind, name, size }));
  return [
    {
      type: 'ShareCreated',
      data: {
        shareId: d.shareId,
        linkId: d.linkId,
        ownerId: d.ownerId,
        storageId: d.storageId,
        kind: isPrivate ? 'private' : 'public',
        title: checkShareTitle(d.title),
        description: checkShareNote(d.description),
        message: isPrivate ? message : null,
        expiresAt: checkExpiry(d.expiresAt, now),
        downloadable: d.downloadable,
        requireLogin: d.requireLogin ?? false,
        esign: d.esign ?? false,
        passwordHash,
        recipients,
        items,
        totalSize: items.reduce((sum, i) => sum + i.size, 0),
        createdAt: now.toISOString(),
      },
    },
  ];
};

/** The owner's live share: anyone else, and a deleted share, get not-found (never "someone else's"). */
const ownShare = (state: ShareState, actorId: string): ShareRecord => {
  if (state.status === 'none' || state.status === 'deleted' || state.ownerId !== actorId) throw new DomainError(SharingErrors.shareNotFound);
  return state;
};

const notRevoked = (share: ShareRecord): ShareRecord => {
  if (share.status === 'revoked') throw new DomainError(SharingErrors.alreadyRevoked);
  return share;
};

const privateShare = (share: ShareRecord): ShareRecord => {
  if (share.kind !== 'private') throw new DomainError(SharingErrors.notPrivate);
  return share;
};

const edit = (command: EditShare, state: ShareState): ShareEvent[] => {
  const share = notRevoked(ownShare(state, command.data.actorId));
  const c = command.data.changes;
  const changed: Record<string, unknown> = {};
  if (c.title !== undefined) {
    const title = checkShareTitle(c.title);
    if (title !== share.title) changed.title = title;
  }
  if (c.description !== undefined) {
    const description = checkShareNote(c.description);
    if (description !== share.description) changed.description = description;
  }
  if (c.expiresAt !== undefined) {
    const expiresAt = checkExpiry(c.expiresAt, command.metadata.now);
    if (expiresAt !== share.expiresAt) changed.expiresAt = expiresAt;
  }
  if (c.downloadable !== undefined && c.downloadable !== share.downloadable) changed.downloadable = c.downloadable;
  if (c.requireLogin !== undefined && c.requireLogin !== share.requireLogin) changed.requireLogin = c.requireLogin;
  if (c.passwordHash !== undefined) {
    if (c.passwordHash === null && share.kind === 'private') throw new DomainError(SharingErrors.privateFieldsRequired);
    if (c.passwordHash !== share.passwordHash) changed.passwordHash = c.passwordHash;
  }
  if (Object.keys(changed).length === 0) return [];
  return [{ type: 'ShareEdited', data: { ...changed, editedAt: command.metadata.now.toISOString() } }];
};

const recipientOf = (share: ShareRecord, email: string) => {
  const recipient = share.recipients.find((r) => r.email === normalizeShareEmail(email));
  if (!recipient) throw new DomainError(SharingErrors.recipientNotFound);
  return recipient;
};

const block = (command: BlockRecipient | UnblockRecipient, state: ShareState): ShareEvent[] => {
  const share = privateShare(notRevoked(ownShare(state, command.data.actorId)));
  const recipient = recipientOf(share, command.data.email);
  const blocking = command.type === 'BlockRecipient';
  if (recipient.blocked === blocking) return [];
  const data = { email: recipient.email, at: command.metadata.now.toISOString() };
  return [blocking ? { type: 'ShareRecipientBlocked', data } : { type: 'ShareRecipientUnblocked', data }];
};

export const decideShare = (command: ShareCommand, state: ShareState): ShareEvent[] => {
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'CreateShare':
      return create(command, state);
    case 'EditShare':
      return edit(command, state);
    case 'RevokeShare': {
      const share = ownShare(state, command.data.actorId);
      return share.status === 'revoked' ? [] : [{ type: 'ShareRevoked', data: { revokedAt: at } }];
    }
    case 'DeleteShare':
      ownShare(state, command.data.actorId);
      return [{ type: 'ShareDeleted', data: { deletedAt: at } }];
    case 'ResendShare': {
      const share = privateShare(notRevoked(ownShare(state, command.data.actorId)));
      if (isExpired(share, command.metadata.now)) throw new DomainError(SharingErrors.linkExpired);
      const recipients = share.recipients.filter((r) => !r.blocked).map((r) => r.email);
      return recipients.length === 0 ? [] : [{ type: 'ShareRecipientsResent', data: { recipients, resentAt: at } }];
    }
    case 'BlockRecipient':
    case 'UnblockRecipient':
      return block(command, state);
    case 'ForgetShare':
      return state.status === 'none' || state.forgotten ? [] : [{ type: 'ShareForgotten', data: { ownerId: state.ownerId, at } }];
    case 'RemindShareExpiry': {
      // a reminder that no longer holds (revoked, deleted, expiry moved or passed) is dropped
      const { daysLeft, expiresAt } = command.data;
      if (state.status !== 'active' || state.expiresAt !== expiresAt || isExpired(state, command.metadata.now)) return [];
      return [{ type: 'ShareExpiryReminded', data: { ownerId: state.ownerId, daysLeft, expiresAt, remindedAt: at } }];
    }
    default:
      return assertNever(command);
  }
};

export const shareDecider: Decider<ShareCommand, ShareEvent, ShareState> = {
  decide: decideShare,
  evolve: evolveShare,
  initialState: initialShareState,
};

import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';
import { shareAccessStreamName, shareVisitorsActorId } from './share-access';

/*
 * One stream per share (`share-<id>`): the owner's writes. Opens and downloads go to a stream of
 * their own (`share-access-<id>`), so recipients never contend with the owner.
 *
 * Titles, descriptions, messages, item names, recipients and the password hash are personal data:
 * they are sealed under the share stream's key.
 */

export const SHARE_KINDS = ['public', 'private'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

const timestamp = z.iso.datetime();
const id = z.string().min(1);

export const ShareItemSchema = z.object({
  id,
  kind: z.enum(['file', 'folder']),
  name: z.string(),
  size: z.number().int().nonnegative(),
});
export type ShareItem = z.infer<typeof ShareItemSchema>;

export const ShareCreated = defineEvent(
  'ShareCreated',
  z.object({
    shareId: id,
    linkId: id,
    ownerId: id,
    storageId: id,
    kind: z.enum(SHARE_KINDS),
    title: z.string(),
    description: z.string().nullable(),
    message: z.string().nullable(),
    expiresAt: timestamp.nullable(),
    downloadable: z.boolean(),
    requireLogin: z.boolean(),
    esign: z.boolean(),
    passwordHash: z.string().nullable(),
    recipients: z.array(z.string()),
    items: z.array(ShareItemSchema),
    totalSize: z.number().int().nonnegative(),
    createdAt: timestamp,
  }),
  // the link id alone opens the share
  { personal: ['title', 'description', 'message', 'passwordHash', 'recipients', 'items'], secret: ['linkId'] },
);

/** Only the fields given changed; `passwordHash: null` removes the password. */
export const ShareEdited = defineEvent(
  'ShareEdited',
  z.object({
    title: z.string().optional(),
    description: z.string().nullable().optional(),
    expiresAt: timestamp.nullable().optional(),
    downloadable: z.boolean().optional(),
    requireLogin: z.boolean().optional(),
    passwordHash: z.string().nullable().optional(),
    editedAt: timestamp,
  }),
  { personal: ['title', 'description', 'passwordHash'] },
);

export const ShareRevoked = defineEvent('ShareRevoked', z.object({ revokedAt: timestamp }));

/**
 * The data subjects a deleted share leaves behind, all forgotten with it: its own stream (title,
 * message, recipients, item names, password hash), its access stream (the recipients' e-mails of
 * every open and download) and its anonymous visitors (their addresses and user agents).
 */
export const shareSubjects = (shareId: string): readonly string[] => [
  shareStreamName(shareId),
  shareAccessStreamName(shareId),
  `user-${shareVisitorsActorId(shareId)}`,
];

/** Deleting is for good: nothing can be done to a deleted share, so its personal data is forgotten at once. */
export const ShareDeleted = defineEvent('ShareDeleted', z.object({ deletedAt: timestamp }), {
  erases: (_data, streamName) => shareSubjects(streamName.slice('share-'.length)),
});

/** The share mail went again to these (unblocked) recipients. */
export const ShareRecipientsResent = defineEvent('ShareRecipientsResent', z.object({ recipients: z.array(z.string()), resentAt: timestamp }), {
  personal: ['recipients'],
});

export const ShareRecipientBlocked = defineEvent('ShareRecipientBlocked', z.object({ email: z.string(), at: timestamp }), { personal: ['email'] });

export const ShareRecipientUnblocked = defineEvent('ShareRecipientUnblocked', z.object({ email: z.string(), at: timestamp }), { personal: ['email'] });

/** The owner was reminded (mail and notification) that the share expires in `daysLeft` days. */
export const ShareExpiryReminded = defineEvent(
  'ShareExpiryReminded',
  z.object({ ownerId: id, daysLeft: z.number().int().positive(), expiresAt: timestamp, remindedAt: timestamp }),
);

/** The owner's account was purged: the share's key is destroyed, its personal fields read as erased. */
export const ShareForgotten = defineEvent('ShareForgotten', z.object({ ownerId: id, at: timestamp }), { erases: erasesOwnStream });

export const shareEventDefinitions = [
  ShareCreated,
  ShareEdited,
  ShareRevoked,
  ShareDeleted,
  ShareRecipientsResent,
  ShareRecipientBlocked,
  ShareRecipientUnblocked,
  ShareExpiryReminded,
  ShareForgotten,
];

export type ShareEvent =
  | EventOf<typeof ShareCreated>
  | EventOf<typeof ShareEdited>
  | EventOf<typeof ShareRevoked>
  | EventOf<typeof ShareDeleted>
  | EventOf<typeof ShareRecipientsResent>
  | EventOf<typeof ShareRecipientBlocked>
  | EventOf<typeof ShareRecipientUnblocked>
  | EventOf<typeof ShareExpiryReminded>
  | EventOf<typeof ShareForgotten>;

export const shareStreamName = (shareId: string): string => `share-${shareId}`;

import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventDefinition, type EventOf } from '../shared/events';

/*
 * One stream per fetch link (`secure-fetch-<id>`): its creation, revocation, the one submission that
 * uses it, the pay and pin, and the collection of unpaid files. The note, the file names and the
 * uploader's metadata are personal data, sealed under the link stream's key; ids, sizes, hashes of
 * the certificate and times are not, so the collection process can read what it needs.
 */

export const SECURE_FETCH_TYPES = ['secure-certificate-fetch', 'upload-link'] as const;
export type SecureFetchType = (typeof SECURE_FETCH_TYPES)[number];

/** The hashes a certificate can show (spec §9: MD5, SHA1, SHA3-512). */
export const HASH_CHOICES = ['md5', 'sha1', 'sha3-512'] as const;
export type HashChoice = (typeof HASH_CHOICES)[number];

/** Copyright types of spec §3, by id. */
export const COPYRIGHT_TYPES = { 1: 'No Copyright', 2: 'US Copyright', 3: 'Public Domain', 4: 'Open-Source', 5: 'Open Copyright' } as const;
export type CopyrightTypeId = keyof typeof COPYRIGHT_TYPES;

const timestamp = z.iso.datetime();
const id = z.string().min(1);
const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

export const SecureFetchMetadataSchema = z.object({
  contactEmail: z.string().max(254).nullable(),
  copyrightTypeId: z.number().int().min(1).max(5).nullable(),
  isbn: z.string().max(32).nullable(),
  keywords: z.string().max(500).nullable(),
  publisher: z.string().max(255).nullable(),
  website: z.string().max(2048).nullable(),
  author: z.string().max(255).nullable(),
});
export type SecureFetchMetadata = z.infer<typeof SecureFetchMetadataSchema>;

export const FileHashesSchema = z.object({ md5: hex(32), sha1: hex(40), sha3_512: hex(128) });
export type FileHashes = z.infer<typeof FileHashesSchema>;

export const ReceivedFileSchema = z.object({
  itemId: id,
  uploadId: id,
  name: z.string(),
  size: z.number().int().nonnegative(),
  mime: z.string(),
  relpath: z.string().nullable(),
  /** The file's own modification time, as the uploader's browser knew it. */
  modified: timestamp.nullable(),
  hashes: FileHashesSchema,
});
export type ReceivedFile = z.infer<typeof ReceivedFileSchema>;

export const SecureFetchCreated = defineEvent(
  'SecureFetchCreated',
  z.object({
    fetchId: id,
    linkId: id,
    ownerId: id,
    type: z.enum(SECURE_FETCH_TYPES),
    note: z.string(),
    expiresAt: timestamp.nullable(),
    includeMetadata: z.boolean(),
    hashChoice: z.array(z.enum(HASH_CHOICES)),
    createdAt: timestamp,
  }),
  // the link id alone lets anyone upload to the owner
  { personal: ['note'], secret: ['linkId'] },
);

export const SecureFetchRevoked = defineEvent('SecureFetchRevoked', z.object({ revokedAt: timestamp }));

/** The link is used: the files arrived in a folder of the owner's storage, with their hashes. */
export const SecureFetchSubmitted = defineEvent(
  'SecureFetchSubmitted',
  z.object({
    ownerId: id,
    storageId: id,
    folderId: id,
    itemIds: z.array(id),
    totalSize: z.number().int().nonnegative(),
    files: z.array(ReceivedFileSchema),
    metadata: SecureFetchMetadataSchema.nullable(),
    submittedAt: timestamp,
  }),
  // an upload id alone authorises HEAD, PATCH and DELETE on that upload
  { personal: ['files', 'metadata'], secret: ['files.*.uploadId'] },
);

export const SecureFetchItemOpened = defineEvent('SecureFetchItemOpened', z.object({ itemId: id, at: timestamp }));

/**
 * Pay and pin begins: the certificate is fixed here (its id, its time, the files' last opening) so a
 * retried payment pays for the same canonical certificate, whose SHA-256 the transaction carries.
 */
export const SecureFetchPaymentStarted = defineEvent(
  'SecureFetchPaymentStarted',
  z.object({
    certificateId: id.nullable(),
    issuedAt: timestamp,
    lastOpened: z.record(z.string(), timestamp.nullable()),
    canonicalSha256: hex(64),
    /** The IPFS root CID of each received file (by item id), certified with the files' hashes. */
    cids: z.record(z.string(), z.string()).optional(),
  }),
);

export const SecureFetchPaymentFailed = defineEvent('SecureFetchPaymentFailed', z.object({ refusedWith: z.string(), at: timestamp }));

export const SecureFetchPaid = defineEvent('SecureFetchPaid', z.object({ txId: z.string().min(1), amount: z.number().int().positive(), paidAt: timestamp }));

/** Unpaid received files were deleted (2 hours after they arrived). */
export const SecureFetchFilesCollected = defineEvent(
  'SecureFetchFilesCollected',
  z.object({ storageId: id, folderId: id, itemIds: z.array(id), collectedAt: timestamp }),
);

/** The owner's account was purged: the link's personal data (note, file names, metadata) is forgotten for ever. */
export const SecureFetchForgotten = defineEvent('SecureFetchForgotten', z.object({ at: timestamp }), { erases: erasesOwnStream });

/** One Secure Fetch counted against its owner's plan, on the counter stream of a user and UTC month. */
export const SecureFetchCounted = defineEvent('SecureFetchCounted', z.object({ fetchId: id, countedAt: timestamp }));

export const secureFetchEventDefinitions = [
  SecureFetchCreated,
  SecureFetchRevoked,
  SecureFetchSubmitted,
  SecureFetchItemOpened,
  SecureFetchPaymentStarted,
  SecureFetchPaymentFailed,
  SecureFetchPaid,
  SecureFetchFilesCollected,
  SecureFetchForgotten,
  SecureFetchCounted,
] as const satisfies readonly EventDefinition[];

type EventsOf<D> = D extends EventDefinition ? EventOf<D> : never;
export type SecureFetchEvent = EventsOf<Exclude<(typeof secureFetchEventDefinitions)[number], typeof SecureFetchCounted>>;
export type SecureFetchCounterEvent = EventOf<typeof SecureFetchCounted>;

export const secureFetchStreamName = (fetchId: string): string => `secure-fetch-${fetchId}`;
export const SECURE_FETCH_STREAM_PREFIX = 'secure-fetch-';

/** The counter stream of a user's UTC month: `secure-fetch-counter-<userId>-<YYYY-MM>`. */
export const secureFetchCounterStreamName = (userId: string, now: Date): string => `secure-fetch-counter-${userId}-${now.toISOString().slice(0, 7)}`;

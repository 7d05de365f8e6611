import { z } from 'zod';
import { STORAGE_REGIONS } from '../residency/residency';
import { defineEvent, erasesOwnStream, type EventDefinition, type EventOf } from '../shared/events';

/*
 * One stream per storage (`storage-<id>`): its quota, its reservations and its items. Keeping the
 * quota decision and the names of a folder in one stream makes both exact under concurrency: two
 * uploads cannot together pass the quota, two folders cannot take one name.
 *
 * Names and the owner's metadata are personal data (a file name can say anything about a person);
 * they are sealed under the storage stream's key.
 */

export const STORAGE_TYPES = ['online', 'group', 'cloudlocker', 'personal', 'business_personal'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

const timestamp = z.iso.datetime();
const id = z.string().min(1);

export const ManifestSchema = z.object({
  keyId: z.string().min(1),
  chunkPlainSize: z.number().int().nonnegative(),
  chunks: z.array(z.object({ cid: z.string().min(1), size: z.number().int().nonnegative() })),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
  /** The region its chunks were put in (spec §9): absent on files stored before regions, kept on the home shards. */
  region: z.enum(STORAGE_REGIONS).optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** The File details (spec §3) that are the owner's own metadata; the rest is derived. */
export const DETAIL_FIELDS = ['title', 'keywords', 'website', 'contactEmail', 'description', 'author', 'publisher', 'copyrightTypeId', 'isbn', 'ttl'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
export const DetailsSchema = z.partialRecord(z.enum(DETAIL_FIELDS), z.string().nullable());
export type ItemDetails = z.infer<typeof DetailsSchema>;

export const StorageOpened = defineEvent(
  'StorageOpened',
  z.object({ storageId: id, ownerId: id, type: z.enum(STORAGE_TYPES), sizeTotal: z.number().int().nonnegative(), openedAt: timestamp }),
);

export const StorageQuotaChanged = defineEvent('StorageQuotaChanged', z.object({ sizeTotal: z.number().int().nonnegative() }));

export const QuotaReserved = defineEvent('QuotaReserved', z.object({ uploadId: id, size: z.number().int().nonnegative() }), { secret: ['uploadId'] });

export const QuotaReleased = defineEvent('QuotaReleased', z.object({ uploadId: id }), { secret: ['uploadId'] });

export const FolderCreated = defineEvent(
  'FolderCreated',
  z.object({ itemId: id, parentId: id.nullable(), name: z.string(), copiedFrom: id.nullable(), createdAt: timestamp }),
  { personal: ['name'] },
);

export const FileAdded = defineEvent(
  'FileAdded',
  z.object({
    itemId: id,
    parentId: id.nullable(),
    name: z.string(),
    size: z.number().int().nonnegative(),
    hash: z.string(),
    mime: z.string(),
    manifest: ManifestSchema,
    uploadId: id.nullable(),
    copiedFrom: id.nullable(),
    encrypted: z.boolean(),
    e2eeEnabled: z.boolean(),
    /**
     * An end-to-end file's key packets (an armored OpenPGP message of its session-key packets only),
     * kept apart from its content: granting another reader adds a packet and never re-encrypts.
     */
    pgpmessage: z.string().nullable().optional(),
    createdAt: timestamp,
  }),
  { personal: ['name'], secret: ['uploadId'] },
);

export const ItemRenamed = defineEvent('ItemRenamed', z.object({ itemId: id, name: z.string(), modifiedAt: timestamp }), { personal: ['name'] });

export const ItemDetailsChanged = defineEvent('ItemDetailsChanged', z.object({ itemId: id, details: DetailsSchema, modifiedAt: timestamp }), {
  personal: ['details'],
});

/**
 * When a file's TTL (File details) runs out, or null when it no longer has one. Kept apart from
 * the details, which are personal, so the process that trashes the file on time can read it.
 */
export const ItemExpirySet = defineEvent('ItemExpirySet', z.object({ itemId: id, expiresAt: timestamp.nullable() }));

export const ItemMoved = defineEvent('ItemMoved', z.object({ itemId: id, parentId: id.nullable(), modifiedAt: timestamp }));

/** `descendantIds` travel with the event so read models need no tree walk to hide a trashed folder's contents. */
export const ItemTrashed = defineEvent(
  'ItemTrashed',
  z.object({ itemId: id, descendantIds: z.array(id), size: z.number().int().nonnegative(), trashedAt: timestamp }),
);

/** Back to its folder, or to the root when that folder is gone; renamed when its name was taken meanwhile. */
export const ItemRestored = defineEvent(
  'ItemRestored',
  z.object({
    itemId: id,
    descendantIds: z.array(id),
    parentId: id.nullable(),
    name: z.string(),
    size: z.number().int().nonnegative(),
    restoredAt: timestamp,
  }),
  { personal: ['name'] },
);

/** Gone for ever; `destroyed` are the file versions no other file still uses, whose content is to be destroyed. */
export const ItemDeleted = defineEvent(
  'ItemDeleted',
  z.object({
    itemId: id,
    descendantIds: z.array(id),
    size: z.number().int().nonnegative(),
    /** The part of `size` that was in the trash. */
    trashedSize: z.number().int().nonnegative(),
    destroyed: z.array(ManifestSchema),
    deletedAt: timestamp,
  }),
);

/**
 * The owner's account was purged: the storage is closed, the content of its files destroyed, and
 * its stream's personal data (names, details) forgotten for ever.
 */
export const StoragePurged = defineEvent('StoragePurged', z.object({ destroyed: z.array(ManifestSchema), at: timestamp }), {
  erases: erasesOwnStream,
});

export const storageEventDefinitions = [
  StorageOpened,
  StorageQuotaChanged,
  QuotaReserved,
  QuotaReleased,
  FolderCreated,
  FileAdded,
  ItemRenamed,
  ItemDetailsChanged,
  ItemExpirySet,
  ItemMoved,
  ItemTrashed,
  ItemRestored,
  ItemDeleted,
  StoragePurged,
] as const satisfies readonly EventDefinition[];

type EventsOf<D> = D extends EventDefinition ? EventOf<D> : never;
export type StorageEvent = EventsOf<(typeof storageEventDefinitions)[number]>;
export type StorageEventOf<T extends StorageEvent['type']> = Extract<StorageEvent, { type: T }>;

export const storageStreamName = (storageId: string): string => `storage-${storageId}`;

import { type DETAIL_FIELDS, STORAGE_PAGE_SIZE } from '@axel/domain';

/** Key packets for a few hundred readers fit (one is about 100 bytes, armored a little more). */
export const PGP_MESSAGE_MAX_LENGTH = 65_536;
import { STORAGE_SORT_COLUMNS } from '@axel/projections/storage/storage.queries';
import { z } from 'zod';

export const tags = ['storage'];
const id = z.string().min(1).max(64);

export const UserParams = z.object({ id });
export const StorageParams = z.object({ id, storageId: id });
export const FolderParams = z.object({ id, storageId: id, folderId: id });
export const FileParams = z.object({ id, storageId: id, fileId: id });
export const ItemParams = z.object({ id, storageId: id, itemId: id });

const page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const perPage = z.coerce.number().int().min(1).max(STORAGE_PAGE_SIZE).default(STORAGE_PAGE_SIZE);
const sortBy = z.enum(Object.keys(STORAGE_SORT_COLUMNS) as [keyof typeof STORAGE_SORT_COLUMNS, ...(keyof typeof STORAGE_SORT_COLUMNS)[]]).default('name');
const sortOrder = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['ASC', 'DESC']))
  .default('ASC');

/**
 * `label`: `file` or `folder` keeps the items of that kind (a Secure Fetch link's folder and files
 * too); `sfFile` or `sfFolder` keeps only those a Secure Fetch link received.
 */
export const ListQuery = z.object({ perPage, page, sortBy, sortOrder, label: z.enum(['file', 'folder', 'sfFile', 'sfFolder']).optional() });
export const SearchQuery = z.object({ search: z.string().max(255).default(''), perPage, page, sortBy, sortOrder, t: z.string().max(64).optional() });
export const TrashQuery = z.object({
  storageId: id.optional(),
  perPage,
  page,
  sort: z.enum(['name', '-name', 'size', '-size', 'trashedAt', '-trashedAt']).default('-trashedAt'),
});

const name = z.string().min(1).max(1024);
export const CreateItemBody = z.discriminatedUnion('label', [
  z.object({ label: z.literal('folder'), name, parent: id.nullable().optional(), rename: z.boolean().optional() }),
  z.object({
    label: z.literal('file'),
    name,
    uploadId: id,
    nodeId: z.string().max(100).optional(),
    encrypt: z.boolean().optional(),
    rename: z.boolean().optional(),
    e2eeEnabled: z.boolean().optional(),
    /** An end-to-end file's key packets: an armored OpenPGP message of session-key packets only. */
    pgpmessage: z.string().min(1).max(PGP_MESSAGE_MAX_LENGTH).optional(),
  }),
]);

export const RenameBody = z.object({ name });

const detailValue = z.string().max(2000).nullable();
export const DetailsBody = z
  .object({
    title: z.string().max(255).nullable(),
    keywords: detailValue,
    website: z.union([z.url({ protocol: /^https?$/ }).max(2000), z.literal('')]).nullable(),
    contactEmail: z.union([z.email().max(254), z.literal('')]).nullable(),
    description: detailValue,
    author: z.string().max(255).nullable(),
    publisher: z.string().max(255).nullable(),
    copyrightTypeId: z.string().max(64).nullable(),
    isbn: z
      .string()
      .regex(/^[\d-]{10,17}X?$/i)
      .or(z.literal(''))
      .nullable(),
    ttl: z.iso.datetime().nullable(),
  } satisfies Record<(typeof DETAIL_FIELDS)[number], z.ZodType>)
  .partial()
  .strict();

export const DownloadQuery = z.object({
  contentType: z
    .string()
    .max(100)
    .regex(/^[\w.+-]+\/[\w.+-]+$/)
    .optional(),
  fileName: z.string().max(1024).optional(),
});

export const SignedUrlQuery = z.object({ userId: id, storageId: id, fileId: id, fileName: z.string().max(1024).optional() });

export const SignedDownloadQuery = z.object({
  expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  fileName: z.string().max(1024).optional(),
  signature: z.string().max(200),
});

export const TASK_ACTIONS = ['trash', 'restore', 'delete', 'copy', 'move', 'archive'] as const;
export const TaskBody = z.object({
  action: z.enum(TASK_ACTIONS),
  itemIds: z.array(id).min(1).max(10_000),
  archiveName: z.string().max(1024).optional(),
  skip2fa: z.boolean().optional(),
  /** With `skip2fa`: a verification code that opens the locked items among them for this session. */
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/)
    .optional(),
  /** Where copy and move put the items: a folder, or the root of `storageId` (the items' own storage by default). */
  destinationId: id.nullable().optional(),
  storageId: id.optional(),
});
export const TaskParams = z.object({ id, taskId: id });

import { HASH_CHOICES } from '@axel/domain';
import { SECURE_FETCH_SORT_COLUMNS } from '@axel/projections/secure-fetch/secure-fetches.queries';
import { z } from 'zod';

export const tags = ['secure-fetch'];
const id = z.string().min(1).max(64);

export const UserParams = z.object({ id });
export const FetchParams = z.object({ id, fetchId: id });
export const ItemParams = z.object({ id, fetchId: id, itemId: id });
/** Any string: a malformed handle is answered SECURE_FETCH_INVALID, never VALIDATION_FAILED. */
export const LinkParams = z.object({ linkId: z.string() });
export const ShareLinkParams = z.object({ id: z.string() });

/** The note's rules (required, forbidden characters) are the domain's, so it answers their codes. */
export const CreateBody = z.object({
  note: z.string().max(5000),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  includeMetadata: z.boolean().default(false),
  hashChoice: z.array(z.enum(HASH_CHOICES)).max(3).optional(),
  certificate: z.boolean().default(false),
});

const booleanish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

export const ListQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(500).default(500),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  sortBy: z
    .enum(Object.keys(SECURE_FETCH_SORT_COLUMNS) as [keyof typeof SECURE_FETCH_SORT_COLUMNS, ...(keyof typeof SECURE_FETCH_SORT_COLUMNS)[]])
    .default('createdAt'),
  sortOrder: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['ASC', 'DESC']))
    .default('DESC'),
  personal: booleanish.optional(),
  expiresFrom: z.iso.datetime({ offset: true }).optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  q: z.string().max(255).optional(),
});

export const CertificateQuery = z.object({ format: z.enum(['json', 'pdf']).default('json') });

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim() || null)
    .nullish();

export const MetadataBody = z.object({
  contactEmail: z.union([z.email().max(254), z.literal('')]).nullish(),
  copyrightTypeId: z.coerce.number().int().min(1).max(5).nullish(),
  isbn: z
    .string()
    .regex(/^[0-9Xx -]{0,32}$/)
    .nullish(),
  keywords: text(500),
  publisher: text(255),
  website: z.union([z.url({ protocol: /^https?$/ }).max(2048), z.literal('')]).nullish(),
  author: text(255),
});

const SubmittedFile = z.object({
  id: z.string().max(64).optional(),
  name: z.string().min(1).max(1024),
  nodeId: z.string().max(128).optional(),
  uploadId: id,
  mime: z.string().max(255).optional(),
  size: z.number().int().nonnegative(),
  relpath: z.string().max(4096).nullish(),
  modified: z.iso.datetime({ offset: true }).nullish(),
});

export const SubmitBody = z
  .object({
    file: SubmittedFile.optional(),
    files: z.array(SubmittedFile).max(500).optional(),
    metadata: MetadataBody.nullish(),
    blockKey: z.unknown().optional(),
  })
  .refine((b) => !!b.file || !!b.files?.length, { message: 'SECURE_FETCH_NO_FILES', path: ['files'] });

import { MAX_SHARE_ITEMS, MAX_SHARE_RECIPIENTS, SHARE_NOTE_MAX_LENGTH, SHARE_PASSWORD_MAX_LENGTH } from '@axel/domain';
import { SHARE_SORT_COLUMNS } from '@axel/projections/sharing/shares.queries';
import { z } from 'zod';

export const tags = ['sharing'];
const id = z.string().min(1).max(64);
const isoDate = z.iso.datetime({ offset: true });
const note = z.string().max(SHARE_NOTE_MAX_LENGTH);
const title = z.string().max(1024);
const password = z.string().max(SHARE_PASSWORD_MAX_LENGTH);

export const ShareParams = z.object({ id });
export const RecipientParams = z.object({ id, email: z.string().min(3).max(254) });
export const UserParams = z.object({ id });

export const CreateShareBody = z.object({
  itemIds: z.array(id).min(1).max(MAX_SHARE_ITEMS),
  title,
  description: note.nullable().optional(),
  expiresAt: isoDate.nullable().optional(),
  downloadable: z.boolean(),
  password: password.optional(),
  requireLogin: z.boolean().optional(),
  esign: z.boolean().optional(),
  // one more than allowed reaches the domain, which answers the spec's own error
  recipients: z
    .array(z.string().max(254))
    .min(1)
    .max(MAX_SHARE_RECIPIENTS + 1)
    .optional(),
  message: note.optional(),
});

export const EditShareBody = z
  .object({
    title: title.optional(),
    description: note.nullable().optional(),
    expiresAt: isoDate.nullable().optional(),
    downloadable: z.boolean().optional(),
    password: password.nullable().optional(),
    requireLogin: z.boolean().optional(),
  })
  .strict();

const page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const perPage = z.coerce.number().int().min(1).max(500).default(500);
const sortBy = z.enum(Object.keys(SHARE_SORT_COLUMNS) as [keyof typeof SHARE_SORT_COLUMNS, ...(keyof typeof SHARE_SORT_COLUMNS)[]]).default('createdAt');
const sortOrder = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['ASC', 'DESC']))
  .default('DESC');
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const ListSharesQuery = z.object({
  perPage,
  page,
  sortBy,
  sortOrder,
  personal: flag.optional(),
  expiresFrom: isoDate.optional(),
  expiresAt: isoDate.optional(),
  q: z.string().max(255).optional(),
  email: z.string().max(254).optional(),
});

export const SearchSharesQuery = z.object({ q: z.string().max(255).default(''), perPage, page, sortBy, sortOrder });

/** The private shares sent to the signed-in user: newest first by default. */
export const SharedWithMeQuery = z.object({ perPage, page, sortBy, sortOrder });

export const SinceQuery = z.object({ sinceDate: isoDate.or(z.iso.date()).optional() });

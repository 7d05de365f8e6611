import { BOOKMARK_LISTS_PAGE_SIZE, BOOKMARKS_PAGE_SIZE } from '@axel/domain';
import { z } from 'zod';

export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });

/** A share's public handle: 22 base64url characters. */
const LinkId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a share link id');
const Title = z.string().max(1000);
const page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const sortOrder = z
  .enum(['ASC', 'DESC', 'asc', 'desc'])
  .default('DESC')
  .transform((o) => o.toUpperCase() as 'ASC' | 'DESC');

export const BookmarkParams = z.object({ bookmarkId: z.uuid() });
export const ListParams = z.object({ listId: z.uuid() });

export const BookmarkQuery = z.object({
  /** A list's id; `none` for the bookmarks in no list; absent for all of them. */
  bookmarkListId: z.union([z.uuid(), z.literal('none')]).optional(),
  shareLinkId: LinkId.optional(),
  shareId: z.string().min(1).max(64).optional(),
  q: z.string().max(255).optional(),
  perPage: z.coerce.number().int().min(1).max(BOOKMARK_LISTS_PAGE_SIZE).default(BOOKMARKS_PAGE_SIZE),
  page,
  sortBy: z.enum(['description', 'createdAt', 'modifiedAt']).default('description'),
  sortOrder,
});
export const ListQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(BOOKMARK_LISTS_PAGE_SIZE).default(BOOKMARK_LISTS_PAGE_SIZE),
  page,
});

export const AddBookmarkBody = z.object({
  shareLinkId: LinkId,
  description: Title.nullable().optional(),
  bookmarkListId: z.uuid().nullable().optional(),
});
/** Rename (description), move (bookmarkListId, null for no list), or both. */
export const ChangeBookmarkBody = z
  .object({ description: Title.optional(), bookmarkListId: z.uuid().nullable().optional() })
  .refine((b) => b.description !== undefined || b.bookmarkListId !== undefined, { message: 'description or bookmarkListId' });
export const ListBody = z.object({ name: Title });

export const BookmarkSchema = z.object({
  id: z.string(),
  shareId: z.string(),
  shareLinkId: z.string(),
  bookmarkListId: z.string().nullable(),
  description: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  /** What the share is now: still open, expired, revoked ("link blocked"), or deleted by its owner; null when not known yet. */
  shareStatus: z.enum(['active', 'expired', 'revoked', 'deleted']).nullable(),
  shareKind: z.enum(['public', 'private']).nullable(),
});
export type BookmarkJson = z.infer<typeof BookmarkSchema>;
export const BookmarkListSchema = z.object({
  id: z.string(),
  name: z.string(),
  bookmarksCount: z.number(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type BookmarkListJson = z.infer<typeof BookmarkListSchema>;
export const page$ = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), totalCount: z.number(), page: z.number(), perPage: z.number() });

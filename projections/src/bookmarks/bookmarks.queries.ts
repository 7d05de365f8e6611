import type { Queryable } from '@axel/platform';
import { conditions, pageWindow, queryPage } from '../shared/paging';

/** A bookmark with what its share is now (from the shares read model; no share row: deleted by its owner). */
export interface BookmarkRow {
  id: string;
  share_id: string;
  share_link_id: string;
  bookmark_list_id: string | null;
  description: string;
  created_at: Date;
  modified_at: Date;
  share_status: string | null;
  share_expires_at: Date | null;
  share_kind: 'public' | 'private' | null;
}

/** A bookmark list with its number of bookmarks. */
export interface BookmarkListRow {
  id: string;
  name: string;
  bookmarks_count: number;
  created_at: Date;
  modified_at: Date;
}

const WITH_SHARE = {
  select: 'b.*, s.status as share_status, s.expires_at as share_expires_at, s.kind as share_kind',
  from: 'bookmarks b left join shares s on s.id = b.share_id',
};
const LIST_WITH_COUNT = {
  select: 'l.*, (select count(*)::int from bookmarks b where b.user_id = l.user_id and b.bookmark_list_id = l.id) as bookmarks_count',
  from: 'bookmark_lists l',
};

const BOOKMARK_SORT_COLUMNS = { description: 'lower(b.description)', createdAt: 'b.created_at', modifiedAt: 'b.modified_at' } as const;

export const findBookmark = async (db: Queryable, userId: string, bookmarkId: string): Promise<BookmarkRow | undefined> =>
  (await db.query<BookmarkRow>(`select ${WITH_SHARE.select} from ${WITH_SHARE.from} where b.user_id = $1 and b.id = $2`, [userId, bookmarkId])).rows[0];

export const findBookmarkList = async (db: Queryable, userId: string, listId: string): Promise<BookmarkListRow | undefined> =>
  (await db.query<BookmarkListRow>(`select ${LIST_WITH_COUNT.select} from ${LIST_WITH_COUNT.from} where l.user_id = $1 and l.id = $2`, [userId, listId]))
    .rows[0];

export interface BookmarksFilter {
  /** A list's id; `none` for the bookmarks in no list; absent for all of them. */
  readonly bookmarkListId?: string;
  readonly shareLinkId?: string;
  readonly shareId?: string;
  /** Text the description contains, in any case. */
  readonly text?: string;
}

export interface BookmarksPageRequest {
  readonly sortBy: keyof typeof BOOKMARK_SORT_COLUMNS;
  readonly sortOrder: 'ASC' | 'DESC';
  readonly page: number;
  readonly perPage: number;
}

/** A page of a user's bookmarks, each with its share's state. */
export const listBookmarks = (db: Queryable, userId: string, filter: BookmarksFilter, q: BookmarksPageRequest) => {
  const where = conditions('b.user_id = $1', [userId]);
  if (filter.bookmarkListId === 'none') where.add(() => 'b.bookmark_list_id is null');
  else if (filter.bookmarkListId) where.add((p) => `b.bookmark_list_id = ${p}`, filter.bookmarkListId);
  if (filter.shareLinkId) where.add((p) => `b.share_link_id = ${p}`, filter.shareLinkId);
  if (filter.shareId) where.add((p) => `b.share_id = ${p}`, filter.shareId);
  if (filter.text) where.add((p) => `strpos(lower(b.description), ${p}) > 0`, filter.text.toLowerCase());
  return queryPage<BookmarkRow>(db, {
    ...WITH_SHARE,
    where: where.sql,
    params: where.params,
    orderBy: `${BOOKMARK_SORT_COLUMNS[q.sortBy]} ${q.sortOrder}, b.id ${q.sortOrder}`,
    ...pageWindow(q.page, q.perPage),
  });
};

/** A page of a user's bookmark lists by name. */
export const listBookmarkLists = (db: Queryable, userId: string, page: number, perPage: number) =>
  queryPage<BookmarkListRow>(db, {
    ...LIST_WITH_COUNT,
    where: 'l.user_id = $1',
    params: [userId],
    orderBy: 'lower(l.name), l.id',
    ...pageWindow(page, perPage),
  });

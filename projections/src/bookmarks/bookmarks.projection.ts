import { userIdOfBookmarksStream, type BookmarkEvent } from '@axel/domain/bookmarks/bookmarks.events';
import { defineProjection } from '../runner/projection';

/**
 * Each user's bookmarks and lists, for paging and sorting (`GET /bookmarks`, `/bookmarks/lists/`).
 * A row's list is the one its last `BookmarkAdded`/`BookmarkMoved` named: one column, so a bookmark
 * is in at most one list here too. Descriptions and names are the user's words: a forgotten account
 * takes its rows with it.
 */
export const bookmarksProjection = defineProjection<'bookmarks' | 'bookmark_lists', BookmarkEvent>({
  name: 'bookmarks',
  handles: [
    'BookmarkAdded',
    'BookmarkRenamed',
    'BookmarkMoved',
    'BookmarkRemoved',
    'BookmarkListCreated',
    'BookmarkListRenamed',
    'BookmarkListDeleted',
    'BookmarksForgotten',
  ],
  tables: {
    bookmarks: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      share_id text not null,
      share_link_id text not null,
      bookmark_list_id text,
      description text not null,
      created_at timestamptz not null,
      modified_at timestamptz not null
    );
    create index on "${t}" (user_id, bookmark_list_id);`,
    bookmark_lists: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      name text not null,
      created_at timestamptz not null,
      modified_at timestamptz not null
    );
    create index on "${t}" (user_id);`,
  },
  async apply(tx, events, t) {
    const B = `"${t.bookmarks}"`;
    const L = `"${t.bookmark_lists}"`;
    for (const e of events) {
      const userId = userIdOfBookmarksStream(e.streamName);
      const at = e.recordedAt;
      switch (e.type) {
        case 'BookmarkAdded':
          await tx.query(
            `insert into ${B} (id, user_id, share_id, share_link_id, bookmark_list_id, description, created_at, modified_at)
             values ($1, $2, $3, $4, $5, $6, $7, $7) on conflict (id) do nothing`,
            [e.data.bookmarkId, userId, e.data.shareId, e.data.shareLinkId, e.data.bookmarkListId, e.data.description, at],
          );
          break;
        case 'BookmarkRenamed':
          await tx.query(`update ${B} set description = $3, modified_at = $4 where id = $1 and user_id = $2`, [
            e.data.bookmarkId,
            userId,
            e.data.description,
            at,
          ]);
          break;
        case 'BookmarkMoved':
          await tx.query(`update ${B} set bookmark_list_id = $3, modified_at = $4 where id = $1 and user_id = $2`, [
            e.data.bookmarkId,
            userId,
            e.data.bookmarkListId,
            at,
          ]);
          break;
        case 'BookmarkRemoved':
          await tx.query(`delete from ${B} where id = $1 and user_id = $2`, [e.data.bookmarkId, userId]);
          break;
        case 'BookmarkListCreated':
          await tx.query(`insert into ${L} (id, user_id, name, created_at, modified_at) values ($1, $2, $3, $4, $4) on conflict (id) do nothing`, [
            e.data.listId,
            userId,
            e.data.name,
            at,
          ]);
          break;
        case 'BookmarkListRenamed':
          await tx.query(`update ${L} set name = $3, modified_at = $4 where id = $1 and user_id = $2`, [e.data.listId, userId, e.data.name, at]);
          break;
        case 'BookmarkListDeleted':
          await tx.query(`delete from ${L} where id = $1 and user_id = $2`, [e.data.listId, userId]);
          break;
        case 'BookmarksForgotten':
          await tx.query(`delete from ${B} where user_id = $1`, [userId]);
          await tx.query(`delete from ${L} where user_id = $1`, [userId]);
          break;
        default:
          break;
      }
    }
  },
});

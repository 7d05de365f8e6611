import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per user holds their bookmarks and lists, so moving one between lists is one decision. */
export const bookmarksStreamName = (userId: string) => `bookmarks-${userId}`;
export const userIdOfBookmarksStream = (streamName: string) => streamName.slice('bookmarks-'.length);

/** A share the user opened by its link, kept under a description of their own (the share's title at first). */
export const BookmarkAdded = defineEvent(
  'BookmarkAdded',
  z.object({ bookmarkId: z.string(), shareId: z.string(), shareLinkId: z.string(), bookmarkListId: z.string().nullable(), description: z.string() }),
  { personal: ['description'] },
);
export const BookmarkRenamed = defineEvent('BookmarkRenamed', z.object({ bookmarkId: z.string(), description: z.string() }), { personal: ['description'] });
/** Into a list, or out of every list (`bookmarkListId` null). */
export const BookmarkMoved = defineEvent('BookmarkMoved', z.object({ bookmarkId: z.string(), bookmarkListId: z.string().nullable() }));
export const BookmarkRemoved = defineEvent('BookmarkRemoved', z.object({ bookmarkId: z.string() }));
export const BookmarkListCreated = defineEvent('BookmarkListCreated', z.object({ listId: z.string(), name: z.string() }), { personal: ['name'] });
export const BookmarkListRenamed = defineEvent('BookmarkListRenamed', z.object({ listId: z.string(), name: z.string() }), { personal: ['name'] });
/** Follows a `BookmarkMoved` to no list for each of its bookmarks: a list's end never ends a bookmark. */
export const BookmarkListDeleted = defineEvent('BookmarkListDeleted', z.object({ listId: z.string() }));
/** The owner's account was purged: their bookmarks and lists are forgotten with it. */
export const BookmarksForgotten = defineEvent('BookmarksForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const bookmarkEventDefinitions = [
  BookmarkAdded,
  BookmarkRenamed,
  BookmarkMoved,
  BookmarkRemoved,
  BookmarkListCreated,
  BookmarkListRenamed,
  BookmarkListDeleted,
  BookmarksForgotten,
];

export type BookmarkEvent =
  | EventOf<typeof BookmarkAdded>
  | EventOf<typeof BookmarkRenamed>
  | EventOf<typeof BookmarkMoved>
  | EventOf<typeof BookmarkRemoved>
  | EventOf<typeof BookmarkListCreated>
  | EventOf<typeof BookmarkListRenamed>
  | EventOf<typeof BookmarkListDeleted>
  | EventOf<typeof BookmarksForgotten>;

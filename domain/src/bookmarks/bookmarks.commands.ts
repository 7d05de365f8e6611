import type { Command } from '../shared/decider';

/** What the caller knows of the share being bookmarked (looked up by its link before deciding). */
export interface BookmarkedShare {
  readonly id: string;
  readonly linkId: string;
  readonly title: string;
}

export type BookmarkCommand =
  | Command<'AddBookmark', { bookmarkId: string; share: BookmarkedShare; description?: string | null; bookmarkListId?: string | null }>
  | Command<'RenameBookmark', { bookmarkId: string; description: string }>
  | Command<'MoveBookmark', { bookmarkId: string; bookmarkListId: string | null }>
  | Command<'RemoveBookmark', { bookmarkId: string }>
  | Command<'CreateBookmarkList', { listId: string; name: string }>
  | Command<'RenameBookmarkList', { listId: string; name: string }>
  | Command<'DeleteBookmarkList', { listId: string }>
  | Command<'ForgetBookmarks', Record<string, never>>;

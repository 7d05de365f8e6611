import type { BookmarkEvent } from './bookmarks.events';

export interface Bookmark {
  readonly id: string;
  readonly shareId: string;
  readonly shareLinkId: string;
  readonly bookmarkListId: string | null;
  readonly description: string;
}

export interface BookmarkList {
  readonly id: string;
  readonly name: string;
}

export interface BookmarksState {
  readonly bookmarks: Readonly<Record<string, Bookmark>>;
  readonly lists: Readonly<Record<string, BookmarkList>>;
  readonly forgotten: boolean;
}

export const initialBookmarksState = (): BookmarksState => ({ bookmarks: {}, lists: {}, forgotten: false });

const withBookmark = (state: BookmarksState, id: string, change: (b: Bookmark) => Bookmark): BookmarksState => {
  const current = state.bookmarks[id];
  return current ? { ...state, bookmarks: { ...state.bookmarks, [id]: change(current) } } : state;
};

export const evolveBookmarks = (state: BookmarksState, event: BookmarkEvent): BookmarksState => {
  switch (event.type) {
    case 'BookmarkAdded': {
      const { bookmarkId, shareId, shareLinkId, bookmarkListId, description } = event.data;
      return { ...state, bookmarks: { ...state.bookmarks, [bookmarkId]: { id: bookmarkId, shareId, shareLinkId, bookmarkListId, description } } };
    }
    case 'BookmarkRenamed':
      return withBookmark(state, event.data.bookmarkId, (b) => ({ ...b, description: event.data.description }));
    case 'BookmarkMoved':
      return withBookmark(state, event.data.bookmarkId, (b) => ({ ...b, bookmarkListId: event.data.bookmarkListId }));
    case 'BookmarkRemoved': {
      const { [event.data.bookmarkId]: _removed, ...rest } = state.bookmarks;
      return { ...state, bookmarks: rest };
    }
    case 'BookmarkListCreated':
    case 'BookmarkListRenamed':
      return { ...state, lists: { ...state.lists, [event.data.listId]: { id: event.data.listId, name: event.data.name } } };
    case 'BookmarkListDeleted': {
      const { [event.data.listId]: _deleted, ...rest } = state.lists;
      return { ...state, lists: rest };
    }
    case 'BookmarksForgotten':
      return { bookmarks: {}, lists: {}, forgotten: true };
    default:
      return state;
  }
};

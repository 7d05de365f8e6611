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

interface View {
  bookmarks: Record<string, Bookmark>;
  lists: Record<string, BookmarkList>;
  forgotten: boolean;
}

const applyInPlace = (view: View, event: BookmarkEvent): void => {
  switch (event.type) {
    case 'BookmarkAdded': {
      const { bookmarkId, shareId, shareLinkId, bookmarkListId, description } = event.data;
      view.bookmarks[bookmarkId] = { id: bookmarkId, shareId, shareLinkId, bookmarkListId, description };
      return;
    }
    case 'BookmarkRenamed': {
      const b = view.bookmarks[event.data.bookmarkId];
      if (b) view.bookmarks[b.id] = { ...b, description: event.data.description };
      return;
    }
    case 'BookmarkMoved': {
      const b = view.bookmarks[event.data.bookmarkId];
      if (b) view.bookmarks[b.id] = { ...b, bookmarkListId: event.data.bookmarkListId };
      return;
    }
    case 'BookmarkRemoved':
      delete view.bookmarks[event.data.bookmarkId];
      return;
    case 'BookmarkListCreated':
    case 'BookmarkListRenamed':
      view.lists[event.data.listId] = { id: event.data.listId, name: event.data.name };
      return;
    case 'BookmarkListDeleted':
      delete view.lists[event.data.listId];
      return;
    case 'BookmarksForgotten':
      view.bookmarks = {};
      view.lists = {};
      view.forgotten = true;
      return;
    default:
      return;
  }
};

/**
 * A user's bookmarks and lists after some events. Folding is O(1) per event (the state keeps the
 * event and the state before it); the bookmarks and lists are built when first read, once, from
 * the nearest state already built. A stream of thousands of bookmarks then folds in linear time,
 * where copying the whole record on every event would take quadratic time (seconds at 5000).
 * Every state is immutable as seen from outside: a built view is never changed again.
 */
export class BookmarksState {
  #previous: BookmarksState | null;
  readonly #event: BookmarkEvent | null;
  #view: Readonly<View> | null;

  private constructor(previous: BookmarksState | null, event: BookmarkEvent | null, view: View | null) {
    this.#previous = previous;
    this.#event = event;
    this.#view = view;
  }

  static initial(): BookmarksState {
    return new BookmarksState(null, null, { bookmarks: {}, lists: {}, forgotten: false });
  }

  /** The state after one more event. */
  with(event: BookmarkEvent): BookmarksState {
    return new BookmarksState(this, event, null);
  }

  get bookmarks(): Readonly<Record<string, Bookmark>> {
    return this.view().bookmarks;
  }

  get lists(): Readonly<Record<string, BookmarkList>> {
    return this.view().lists;
  }

  get forgotten(): boolean {
    return this.view().forgotten;
  }

  private view(): Readonly<View> {
    if (this.#view) return this.#view;
    const pending: BookmarkEvent[] = [];
    let node: BookmarksState = this;
    while (!node.#view) {
      pending.push(node.#event!);
      node = node.#previous!;
    }
    const base = node.#view;
    const view: View = { bookmarks: { ...base.bookmarks }, lists: { ...base.lists }, forgotten: base.forgotten };
    for (let i = pending.length - 1; i >= 0; i--) applyInPlace(view, pending[i]!);
    this.#view = view;
    // built: the events before it are no longer needed
    this.#previous = null;
    return view;
  }
}

export const initialBookmarksState = (): BookmarksState => BookmarksState.initial();

export const evolveBookmarks = (state: BookmarksState, event: BookmarkEvent): BookmarksState => state.with(event);

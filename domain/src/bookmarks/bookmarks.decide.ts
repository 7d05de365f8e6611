import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import { StorageErrors } from '../storage/storage.errors';
import { nameKey } from '../storage/storage.names';
import type { BookmarkCommand } from './bookmarks.commands';
import { BookmarkErrors } from './bookmarks.errors';
import type { BookmarkEvent } from './bookmarks.events';
import { evolveBookmarks, initialBookmarksState, type BookmarksState } from './bookmarks.state';
import { normaliseTitle, titleProblem } from './bookmarks.titles';

/** The spec lists bookmark lists 1000 a page: one page holds them all. */
export const MAX_BOOKMARK_LISTS = 1000;
export const MAX_BOOKMARKS = 5000;
export const BOOKMARK_LISTS_PAGE_SIZE = 1000;
export const BOOKMARKS_PAGE_SIZE = 500;

/** A checked title, or the refusal naming the field and the rule it breaks. */
export const checkedTitle = (raw: string, field: 'description' | 'name'): string => {
  const title = normaliseTitle(raw);
  const problem = titleProblem(title);
  if (problem === 'profanity') throw new DomainError(StorageErrors.profanity, { field });
  if (problem) throw new DomainError(BookmarkErrors.invalidTitle, { field, problem });
  return title;
};

const bookmarkOf = (state: BookmarksState, bookmarkId: string) => {
  const bookmark = state.bookmarks[bookmarkId];
  if (!bookmark) throw new DomainError(BookmarkErrors.notFound);
  return bookmark;
};

const existingList = (state: BookmarksState, listId: string | null | undefined): string | null => {
  if (listId === null || listId === undefined) return null;
  if (!state.lists[listId]) throw new DomainError(BookmarkErrors.listNotFound);
  return listId;
};

const assertFreeListName = (state: BookmarksState, listId: string, name: string) => {
  const key = nameKey(name);
  if (Object.values(state.lists).some((l) => l.id !== listId && nameKey(l.name) === key)) throw new DomainError(BookmarkErrors.listNameExists);
};

/** The share's own title, else its link id: a bookmark always has something to show. */
const defaultDescription = (title: string, linkId: string) => {
  const t = normaliseTitle(title);
  return titleProblem(t) === null ? t : linkId;
};

const decide = (command: BookmarkCommand, state: BookmarksState): BookmarkEvent[] => {
  switch (command.type) {
    case 'AddBookmark': {
      const { bookmarkId, share } = command.data;
      const existing = state.bookmarks[bookmarkId];
      if (existing) {
        if (existing.shareId === share.id) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      const same = Object.values(state.bookmarks).find((b) => b.shareId === share.id);
      if (same) throw new DomainError(BookmarkErrors.alreadyBookmarked, { bookmarkId: same.id });
      if (Object.keys(state.bookmarks).length >= MAX_BOOKMARKS) throw new DomainError(BookmarkErrors.tooMany, { max: MAX_BOOKMARKS });
      const description =
        command.data.description === undefined || command.data.description === null
          ? defaultDescription(share.title, share.linkId)
          : checkedTitle(command.data.description, 'description');
      const bookmarkListId = existingList(state, command.data.bookmarkListId);
      return [{ type: 'BookmarkAdded', data: { bookmarkId, shareId: share.id, shareLinkId: share.linkId, bookmarkListId, description } }];
    }
    case 'RenameBookmark': {
      const bookmark = bookmarkOf(state, command.data.bookmarkId);
      const description = checkedTitle(command.data.description, 'description');
      return description === bookmark.description ? [] : [{ type: 'BookmarkRenamed', data: { bookmarkId: bookmark.id, description } }];
    }
    case 'MoveBookmark': {
      const bookmark = bookmarkOf(state, command.data.bookmarkId);
      const bookmarkListId = existingList(state, command.data.bookmarkListId);
      return bookmarkListId === bookmark.bookmarkListId ? [] : [{ type: 'BookmarkMoved', data: { bookmarkId: bookmark.id, bookmarkListId } }];
    }
    case 'RemoveBookmark':
      return [{ type: 'BookmarkRemoved', data: { bookmarkId: bookmarkOf(state, command.data.bookmarkId).id } }];
    case 'CreateBookmarkList': {
      const { listId } = command.data;
      const name = checkedTitle(command.data.name, 'name');
      const existing = state.lists[listId];
      if (existing) {
        if (existing.name === name) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      if (Object.keys(state.lists).length >= MAX_BOOKMARK_LISTS) throw new DomainError(BookmarkErrors.tooMany, { max: MAX_BOOKMARK_LISTS });
      assertFreeListName(state, listId, name);
      return [{ type: 'BookmarkListCreated', data: { listId, name } }];
    }
    case 'RenameBookmarkList': {
      const listId = existingList(state, command.data.listId)!;
      const name = checkedTitle(command.data.name, 'name');
      if (state.lists[listId]!.name === name) return [];
      assertFreeListName(state, listId, name);
      return [{ type: 'BookmarkListRenamed', data: { listId, name } }];
    }
    case 'DeleteBookmarkList': {
      const listId = existingList(state, command.data.listId)!;
      const members = Object.values(state.bookmarks).filter((b) => b.bookmarkListId === listId);
      return [
        ...members.map((b): BookmarkEvent => ({ type: 'BookmarkMoved', data: { bookmarkId: b.id, bookmarkListId: null } })),
        { type: 'BookmarkListDeleted', data: { listId } },
      ];
    }
    case 'ForgetBookmarks':
      return state.forgotten ? [] : [{ type: 'BookmarksForgotten', data: { at: command.metadata.now.toISOString() } }];
    default:
      return assertNever(command);
  }
};

export const bookmarksDecider: Decider<BookmarkCommand, BookmarkEvent, BookmarksState> = {
  initialState: initialBookmarksState,
  decide,
  evolve: evolveBookmarks,
};

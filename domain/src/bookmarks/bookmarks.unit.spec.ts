import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { BookmarkCommand } from './bookmarks.commands';
import { bookmarksDecider } from './bookmarks.decide';
import type { BookmarkEvent } from './bookmarks.events';
import type { BookmarksState } from './bookmarks.state';

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const cmd = <T extends BookmarkCommand['type']>(type: T, data: Extract<BookmarkCommand, { type: T }>['data']) => ({ type, data, metadata }) as BookmarkCommand;
const share = (n: number, title = `Share ${n}`) => ({ id: `share-${n}`, linkId: `link${n}`.padEnd(22, 'x'), title });

/** given these commands, when this one, then these events (or this refusal). */
const given = (commands: BookmarkCommand[]): BookmarksState =>
  commands.reduce((s, c) => bookmarksDecider.decide(c, s).reduce(bookmarksDecider.evolve, s), bookmarksDecider.initialState());
const when = (state: BookmarksState, command: BookmarkCommand): BookmarkEvent[] => bookmarksDecider.decide(command, state);
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, status: error.status, data: error.data };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('bookmarks', () => {
  it('keeps the share and its link, described by the share title unless another description is given', () => {
    expect(when(given([]), cmd('AddBookmark', { bookmarkId: 'b1', share: share(1, '  Holiday photos ') }))).toEqual([
      {
        type: 'BookmarkAdded',
        data: { bookmarkId: 'b1', shareId: 'share-1', shareLinkId: share(1).linkId, bookmarkListId: null, description: 'Holiday photos' },
      },
    ]);
    expect(when(given([]), cmd('AddBookmark', { bookmarkId: 'b1', share: share(1), description: 'Mine' }))[0]!.data).toMatchObject({ description: 'Mine' });
    // a share whose title cannot be a title is shown by its link
    expect(when(given([]), cmd('AddBookmark', { bookmarkId: 'b1', share: share(1, '') }))[0]!.data).toMatchObject({ description: share(1).linkId });
  });

  it('bookmarks a share once; repeating the same add changes nothing', () => {
    const state = given([cmd('AddBookmark', { bookmarkId: 'b1', share: share(1) })]);
    expect(when(state, cmd('AddBookmark', { bookmarkId: 'b1', share: share(1) }))).toEqual([]);
    expect(refusal(() => when(state, cmd('AddBookmark', { bookmarkId: 'b2', share: share(1) })))).toEqual({
      code: 'BOOKMARK_EXISTS',
      status: 409,
      data: { bookmarkId: 'b1' },
    });
    expect(refusal(() => when(state, cmd('AddBookmark', { bookmarkId: 'b1', share: share(2) }))).code).toBe('CONFLICT');
  });

  it('renames with the title rules: no emoji, no profanity, not empty, at most 255 bytes', () => {
    const state = given([cmd('AddBookmark', { bookmarkId: 'b1', share: share(1) })]);
    expect(when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: ' Contracts ' }))).toEqual([
      { type: 'BookmarkRenamed', data: { bookmarkId: 'b1', description: 'Contracts' } },
    ]);
    expect(when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: 'Share 1' }))).toEqual([]);
    expect(refusal(() => when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: 'Party 🎉' }))).data).toEqual({
      field: 'description',
      problem: 'emoji',
    });
    expect(refusal(() => when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: 'what the shit' }))).code).toBe('PROFANITY');
    expect(refusal(() => when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: '   ' }))).data).toEqual({
      field: 'description',
      problem: 'empty',
    });
    expect(refusal(() => when(state, cmd('RenameBookmark', { bookmarkId: 'b1', description: 'a'.repeat(256) }))).data).toEqual({
      field: 'description',
      problem: 'tooLong',
    });
    expect(refusal(() => when(state, cmd('RenameBookmark', { bookmarkId: 'nope', description: 'x' }))).code).toBe('BOOKMARK_NOT_FOUND');
  });

  it('moves between lists and out of them; a list must exist', () => {
    const state = given([
      cmd('CreateBookmarkList', { listId: 'l1', name: 'Work' }),
      cmd('CreateBookmarkList', { listId: 'l2', name: 'Home' }),
      cmd('AddBookmark', { bookmarkId: 'b1', share: share(1), bookmarkListId: 'l1' }),
    ]);
    expect(state.bookmarks.b1!.bookmarkListId).toBe('l1');
    expect(when(state, cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l2' }))).toEqual([
      { type: 'BookmarkMoved', data: { bookmarkId: 'b1', bookmarkListId: 'l2' } },
    ]);
    expect(when(state, cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l1' }))).toEqual([]);
    expect(when(state, cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: null }))[0]!.data).toEqual({ bookmarkId: 'b1', bookmarkListId: null });
    expect(refusal(() => when(state, cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l9' }))).code).toBe('BOOKMARK_LIST_NOT_FOUND');
    expect(refusal(() => when(state, cmd('AddBookmark', { bookmarkId: 'b2', share: share(2), bookmarkListId: 'l9' }))).code).toBe('BOOKMARK_LIST_NOT_FOUND');
  });

  it('deletes a list by sending its bookmarks back to no list first', () => {
    const state = given([
      cmd('CreateBookmarkList', { listId: 'l1', name: 'Work' }),
      cmd('AddBookmark', { bookmarkId: 'b1', share: share(1), bookmarkListId: 'l1' }),
      cmd('AddBookmark', { bookmarkId: 'b2', share: share(2), bookmarkListId: 'l1' }),
      cmd('AddBookmark', { bookmarkId: 'b3', share: share(3) }),
    ]);
    expect(when(state, cmd('DeleteBookmarkList', { listId: 'l1' }))).toEqual([
      { type: 'BookmarkMoved', data: { bookmarkId: 'b1', bookmarkListId: null } },
      { type: 'BookmarkMoved', data: { bookmarkId: 'b2', bookmarkListId: null } },
      { type: 'BookmarkListDeleted', data: { listId: 'l1' } },
    ]);
    expect(refusal(() => when(state, cmd('DeleteBookmarkList', { listId: 'l2' }))).code).toBe('BOOKMARK_LIST_NOT_FOUND');
  });

  it('names lists uniquely whatever the case, with the title rules', () => {
    const state = given([cmd('CreateBookmarkList', { listId: 'l1', name: 'Work' }), cmd('CreateBookmarkList', { listId: 'l2', name: 'Home' })]);
    expect(refusal(() => when(state, cmd('CreateBookmarkList', { listId: 'l3', name: 'WORK' })))).toMatchObject({
      code: 'BOOKMARK_LIST_NAME_EXISTS',
      status: 409,
    });
    expect(refusal(() => when(state, cmd('RenameBookmarkList', { listId: 'l2', name: 'work' }))).code).toBe('BOOKMARK_LIST_NAME_EXISTS');
    expect(when(state, cmd('RenameBookmarkList', { listId: 'l1', name: 'WORK' }))).toEqual([
      { type: 'BookmarkListRenamed', data: { listId: 'l1', name: 'WORK' } },
    ]);
    expect(when(state, cmd('CreateBookmarkList', { listId: 'l1', name: 'Work' }))).toEqual([]);
    expect(refusal(() => when(state, cmd('CreateBookmarkList', { listId: 'l4', name: '📚' }))).code).toBe('INVALID_TITLE');
  });

  it('folds a long stream in linear time, and a state read once never changes', () => {
    const events: BookmarkEvent[] = Array.from({ length: 5000 }, (_, i) => ({
      type: 'BookmarkAdded',
      data: { bookmarkId: `b${i}`, shareId: `share-${i}`, shareLinkId: share(i).linkId, bookmarkListId: null, description: `Share ${i}` },
    }));
    // what loading the stream does: fold every event, then decide once
    const started = performance.now();
    const state = events.reduce(bookmarksDecider.evolve, bookmarksDecider.initialState());
    expect(when(state, cmd('RenameBookmark', { bookmarkId: 'b4999', description: 'Last' }))).toHaveLength(1);
    // copying the whole record on every event took over ten seconds here
    expect(performance.now() - started).toBeLessThan(1000);
    expect(Object.keys(state.bookmarks)).toHaveLength(5000);
    const before = state.bookmarks;
    const after = bookmarksDecider.evolve(state, { type: 'BookmarkRemoved', data: { bookmarkId: 'b0' } });
    expect(after.bookmarks.b0).toBeUndefined();
    expect(state.bookmarks).toBe(before);
    expect(state.bookmarks.b0).toBeDefined();
  });

  it('forgets everything once', () => {
    const state = given([cmd('AddBookmark', { bookmarkId: 'b1', share: share(1) }), cmd('ForgetBookmarks', {})]);
    expect({ bookmarks: state.bookmarks, lists: state.lists, forgotten: state.forgotten }).toEqual({ bookmarks: {}, lists: {}, forgotten: true });
    expect(when(state, cmd('ForgetBookmarks', {}))).toEqual([]);
  });
});

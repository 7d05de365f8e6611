import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { CommonErrors } from '../shared/errors';
import { StorageErrors } from '../storage/storage.errors';
import type { BookmarkCommand } from './bookmarks.commands';
import { bookmarksDecider } from './bookmarks.decide';
import { BookmarkErrors } from './bookmarks.errors';
import type { BookmarkEvent } from './bookmarks.events';

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const cmd = <T extends BookmarkCommand['type']>(type: T, data: Extract<BookmarkCommand, { type: T }>['data']) => ({ type, data, metadata }) as BookmarkCommand;
const share = (n: number, title = `Share ${n}`) => ({ id: `share-${n}`, linkId: `link${n}`.padEnd(22, 'x'), title });
const added = (n: number, bookmarkListId: string | null = null): BookmarkEvent => ({
  type: 'BookmarkAdded',
  data: { bookmarkId: `b${n}`, shareId: `share-${n}`, shareLinkId: share(n).linkId, bookmarkListId, description: `Share ${n}` },
});
const listCreated = (listId: string, name: string): BookmarkEvent => ({ type: 'BookmarkListCreated', data: { listId, name } });

const given = DeciderSpecification.for(bookmarksDecider);

describe('bookmarks', () => {
  it('keeps the share and its link, described by the share title unless another description is given', () => {
    given([])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(1, '  Holiday photos ') }))
      .then([
        {
          type: 'BookmarkAdded',
          data: { bookmarkId: 'b1', shareId: 'share-1', shareLinkId: share(1).linkId, bookmarkListId: null, description: 'Holiday photos' },
        },
      ]);
    given([])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(1), description: 'Mine' }))
      .then((events) => expect(events[0]!.data).toMatchObject({ description: 'Mine' }));
    // a share whose title cannot be a title is shown by its link
    given([])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(1, '') }))
      .then((events) => expect(events[0]!.data).toMatchObject({ description: share(1).linkId }));
  });

  it('bookmarks a share once; repeating the same add changes nothing', () => {
    given([added(1)])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(1) }))
      .thenNothingHappened();
    given([added(1)])
      .when(cmd('AddBookmark', { bookmarkId: 'b2', share: share(1) }))
      .thenThrows(BookmarkErrors.alreadyBookmarked, { bookmarkId: 'b1' });
    given([added(1)])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(2) }))
      .thenThrows(CommonErrors.conflict);
  });

  it('renames with the title rules: no emoji, no profanity, not empty, at most 255 bytes', () => {
    const rename = (description: string, bookmarkId = 'b1') => given([added(1)]).when(cmd('RenameBookmark', { bookmarkId, description }));
    rename(' Contracts ').then([{ type: 'BookmarkRenamed', data: { bookmarkId: 'b1', description: 'Contracts' } }]);
    rename('Share 1').thenNothingHappened();
    rename('Party 🎉').thenThrows(BookmarkErrors.invalidTitle, { field: 'description', problem: 'emoji' });
    rename('what the shit').thenThrows(StorageErrors.profanity);
    rename('   ').thenThrows(BookmarkErrors.invalidTitle, { field: 'description', problem: 'empty' });
    rename('a'.repeat(256)).thenThrows(BookmarkErrors.invalidTitle, { field: 'description', problem: 'tooLong' });
    rename('x', 'nope').thenThrows(BookmarkErrors.notFound);
  });

  it('moves between lists and out of them; a list must exist', () => {
    given([listCreated('l1', 'Work'), listCreated('l2', 'Home')])
      .when(cmd('AddBookmark', { bookmarkId: 'b1', share: share(1), bookmarkListId: 'l1' }))
      .thenState((state) => expect(state.bookmarks.b1!.bookmarkListId).toBe('l1'));
    const history = [listCreated('l1', 'Work'), listCreated('l2', 'Home'), added(1, 'l1')];
    given(history)
      .when(cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l2' }))
      .then([{ type: 'BookmarkMoved', data: { bookmarkId: 'b1', bookmarkListId: 'l2' } }]);
    given(history)
      .when(cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l1' }))
      .thenNothingHappened();
    given(history)
      .when(cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: null }))
      .then((events) => expect(events[0]!.data).toEqual({ bookmarkId: 'b1', bookmarkListId: null }));
    given(history)
      .when(cmd('MoveBookmark', { bookmarkId: 'b1', bookmarkListId: 'l9' }))
      .thenThrows(BookmarkErrors.listNotFound);
    given(history)
      .when(cmd('AddBookmark', { bookmarkId: 'b2', share: share(2), bookmarkListId: 'l9' }))
      .thenThrows(BookmarkErrors.listNotFound);
  });

  it('deletes a list by sending its bookmarks back to no list first', () => {
    const history = [listCreated('l1', 'Work'), added(1, 'l1'), added(2, 'l1'), added(3)];
    given(history)
      .when(cmd('DeleteBookmarkList', { listId: 'l1' }))
      .then([
        { type: 'BookmarkMoved', data: { bookmarkId: 'b1', bookmarkListId: null } },
        { type: 'BookmarkMoved', data: { bookmarkId: 'b2', bookmarkListId: null } },
        { type: 'BookmarkListDeleted', data: { listId: 'l1' } },
      ]);
    given(history)
      .when(cmd('DeleteBookmarkList', { listId: 'l2' }))
      .thenThrows(BookmarkErrors.listNotFound);
  });

  it('names lists uniquely whatever the case, with the title rules', () => {
    const lists = given([listCreated('l1', 'Work'), listCreated('l2', 'Home')]);
    lists.when(cmd('CreateBookmarkList', { listId: 'l3', name: 'WORK' })).thenThrows(BookmarkErrors.listNameExists);
    lists.when(cmd('RenameBookmarkList', { listId: 'l2', name: 'work' })).thenThrows(BookmarkErrors.listNameExists);
    lists.when(cmd('RenameBookmarkList', { listId: 'l1', name: 'WORK' })).then([{ type: 'BookmarkListRenamed', data: { listId: 'l1', name: 'WORK' } }]);
    lists.when(cmd('CreateBookmarkList', { listId: 'l1', name: 'Work' })).thenNothingHappened();
    lists.when(cmd('CreateBookmarkList', { listId: 'l4', name: '📚' })).thenThrows(BookmarkErrors.invalidTitle);
  });

  it('folds a long stream in linear time, and a state read once never changes', () => {
    const events: BookmarkEvent[] = Array.from({ length: 5000 }, (_, i) => added(i));
    // what loading the stream does: fold every event, then decide once
    const started = performance.now();
    given(events)
      .when(cmd('RenameBookmark', { bookmarkId: 'b4999', description: 'Last' }))
      .then((decided) => expect(decided).toHaveLength(1));
    // copying the whole record on every event took over ten seconds here
    expect(performance.now() - started).toBeLessThan(1000);
    const state = events.reduce(bookmarksDecider.evolve, bookmarksDecider.initialState());
    expect(Object.keys(state.bookmarks)).toHaveLength(5000);
    const before = state.bookmarks;
    const after = bookmarksDecider.evolve(state, { type: 'BookmarkRemoved', data: { bookmarkId: 'b0' } });
    expect(after.bookmarks.b0).toBeUndefined();
    expect(state.bookmarks).toBe(before);
    expect(state.bookmarks.b0).toBeDefined();
  });

  it('forgets everything once', () => {
    given([added(1)])
      .when(cmd('ForgetBookmarks', {}))
      .thenState((state) =>
        expect({ bookmarks: state.bookmarks, lists: state.lists, forgotten: state.forgotten }).toEqual({ bookmarks: {}, lists: {}, forgotten: true }),
      );
    given([added(1), { type: 'BookmarksForgotten', data: { at: metadata.now.toISOString() } }])
      .when(cmd('ForgetBookmarks', {}))
      .thenNothingHappened();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { BookmarkCommand } from './bookmarks.commands';
import { bookmarksDecider } from './bookmarks.decide';
import type { BookmarkEvent } from './bookmarks.events';
import type { BookmarksState } from './bookmarks.state';

/*
 * Whatever a user does to their bookmarks and lists, in any order:
 * - a bookmark is in at most one list, and that list exists;
 * - deleting a list never deletes a bookmark: the bookmarks are exactly those added and not removed;
 * - the events alone say the same: reading them as "list -> member set" moves (what the read model
 *   does) puts each bookmark in at most one set, the set of the list the state names.
 */

const bookmarkIds = ['b1', 'b2', 'b3', 'b4', 'b5'];
const listIds = ['l1', 'l2', 'l3'];
const metadata = { now: new Date('2026-11-01T00:00:00Z') };

const command: fc.Arbitrary<BookmarkCommand> = fc.oneof(
  fc.record({
    type: fc.constant('AddBookmark' as const),
    data: fc.record({
      bookmarkId: fc.constantFrom(...bookmarkIds),
      share: fc.constantFrom(1, 2, 3, 4, 5, 6).map((n) => ({ id: `s${n}`, linkId: `link-${n}`, title: `Share ${n}` })),
      bookmarkListId: fc.option(fc.constantFrom(...listIds), { nil: null }),
    }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('MoveBookmark' as const),
    data: fc.record({ bookmarkId: fc.constantFrom(...bookmarkIds), bookmarkListId: fc.option(fc.constantFrom(...listIds), { nil: null }) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RemoveBookmark' as const),
    data: fc.record({ bookmarkId: fc.constantFrom(...bookmarkIds) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RenameBookmark' as const),
    data: fc.record({ bookmarkId: fc.constantFrom(...bookmarkIds), description: fc.constantFrom('A', 'B') }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('CreateBookmarkList' as const),
    data: fc.record({ listId: fc.constantFrom(...listIds), name: fc.constantFrom('Work', 'Home', 'work') }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RenameBookmarkList' as const),
    data: fc.record({ listId: fc.constantFrom(...listIds), name: fc.constantFrom('Work', 'Old') }),
    metadata: fc.constant(metadata),
  }),
  fc.record({ type: fc.constant('DeleteBookmarkList' as const), data: fc.record({ listId: fc.constantFrom(...listIds) }), metadata: fc.constant(metadata) }),
);

const run = (commands: BookmarkCommand[]) => {
  let state: BookmarksState = bookmarksDecider.initialState();
  const events: BookmarkEvent[] = [];
  for (const c of commands) {
    try {
      const produced = bookmarksDecider.decide(c, state);
      events.push(...produced);
      state = produced.reduce(bookmarksDecider.evolve, state);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { state, events };
};

/** The events read as set operations on list memberships, without the decider's state. */
const membershipsFrom = (events: BookmarkEvent[]) => {
  const members = new Map<string | null, Set<string>>();
  const setOf = (list: string | null) => members.get(list) ?? members.set(list, new Set()).get(list)!;
  const leaveAll = (id: string) => {
    for (const s of members.values()) s.delete(id);
  };
  for (const e of events) {
    if (e.type === 'BookmarkAdded') setOf(e.data.bookmarkListId).add(e.data.bookmarkId);
    if (e.type === 'BookmarkMoved') {
      leaveAll(e.data.bookmarkId);
      setOf(e.data.bookmarkListId).add(e.data.bookmarkId);
    }
    if (e.type === 'BookmarkRemoved') leaveAll(e.data.bookmarkId);
    if (e.type === 'BookmarkListDeleted') members.delete(e.data.listId);
  }
  return members;
};

describe('bookmarks and lists', () => {
  it('a bookmark is in at most one existing list; deleting a list never deletes a bookmark', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        const { state, events } = run(commands);
        for (const b of Object.values(state.bookmarks)) if (b.bookmarkListId !== null) expect(state.lists[b.bookmarkListId]).toBeDefined();

        const added = new Set<string>();
        for (const e of events) {
          if (e.type === 'BookmarkAdded') added.add(e.data.bookmarkId);
          if (e.type === 'BookmarkRemoved') added.delete(e.data.bookmarkId);
        }
        expect(new Set(Object.keys(state.bookmarks))).toEqual(added);

        const members = membershipsFrom(events);
        for (const id of Object.keys(state.bookmarks)) {
          const holding = [...members.entries()].filter(([, s]) => s.has(id)).map(([list]) => list);
          expect(holding).toEqual([state.bookmarks[id]!.bookmarkListId]);
        }
        const memberCount = [...members.values()].reduce((n, s) => n + s.size, 0);
        expect(memberCount).toBe(Object.keys(state.bookmarks).length);
      }),
      { numRuns: 500 },
    );
  });

  it('list names stay unique whatever the case', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        const names = Object.values(run(commands).state.lists).map((l) => l.name.toLowerCase());
        expect(new Set(names).size).toBe(names.length);
      }),
    );
  });
});

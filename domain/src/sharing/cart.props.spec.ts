import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { CART_CLAIM_TIMEOUT_MS, cartDecider, type CartCommand, type CartEvent, type CartState } from './cart';

/*
 * Whatever requests reach a cart, in any order and at any times (claims taken over, attempts
 * finishing late):
 * - a cart becomes at most one share, and once shared its files never change;
 * - a share is only started from a cart with files in it;
 * - the files of a cart are the ones added and not removed, each once.
 */

const files = ['f1', 'f2', 'f3'];
const attempts = ['a1', 'a2', 'a3'];
const T0 = Date.parse('2026-11-01T00:00:00Z');

const step = fc.record({
  minutes: fc.integer({ min: 0, max: 3 }),
  command: fc.oneof(
    fc.record({ type: fc.constant('AddCartEntries' as const), data: fc.record({ fileIds: fc.subarray(files) }) }),
    fc.record({ type: fc.constant('RemoveCartEntry' as const), data: fc.record({ fileId: fc.constantFrom(...files) }) }),
    fc.record({ type: fc.constant('StartCartShare' as const), data: fc.record({ attemptId: fc.constantFrom(...attempts) }) }),
    fc.record({ type: fc.constant('AbandonCartShare' as const), data: fc.record({ attemptId: fc.constantFrom(...attempts) }) }),
    fc.record({
      type: fc.constant('FinishCartShare' as const),
      data: fc.record({ attemptId: fc.constantFrom(...attempts), shareId: fc.constantFrom('sh1', 'sh2') }),
    }),
  ),
});

describe('cart', () => {
  it('becomes at most one share, only with files, and is frozen once shared', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 50 }), (steps) => {
        let now = T0;
        let state: CartState = cartDecider.evolve(cartDecider.initialState(), { type: 'CartOpened', data: { cartId: 'c', ownerId: 'u', storageId: 's' } });
        const events: CartEvent[] = [];
        let filesWhenShared: readonly string[] | null = null;
        for (const s of steps) {
          now += (s.minutes * CART_CLAIM_TIMEOUT_MS) / 2;
          const before = state;
          let produced: CartEvent[] = [];
          try {
            produced = cartDecider.decide({ ...s.command, metadata: { now: new Date(now) } } as CartCommand, state);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
          for (const e of produced) {
            if (e.type === 'CartShareStarted') expect(before.status !== 'none' && before.fileIds.length).toBeGreaterThan(0);
          }
          events.push(...produced);
          state = produced.reduce(cartDecider.evolve, state);
          if (state.status === 'shared') {
            filesWhenShared ??= state.fileIds;
            expect(state.fileIds).toEqual(filesWhenShared);
          }
        }
        expect(events.filter((e) => e.type === 'CartShared').length).toBeLessThanOrEqual(1);
        const expected: string[] = [];
        for (const e of events) {
          if (e.type === 'CartEntriesAdded') expected.push(...e.data.fileIds.filter((f) => !expected.includes(f)));
          if (e.type === 'CartEntryRemoved') expected.splice(expected.indexOf(e.data.fileId), 1);
        }
        expect(state.status !== 'none' && state.fileIds).toEqual(expected);
        expect(new Set(expected).size).toBe(expected.length);
      }),
      { numRuns: 500 },
    );
  });
});

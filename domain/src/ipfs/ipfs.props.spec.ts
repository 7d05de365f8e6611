import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { IpfsPinCommand } from './ipfs.commands';
import { ipfsPinDecider } from './ipfs.decide';
import type { IpfsPinEvent } from './ipfs.events';
import { isPin, type IpfsPinState } from './ipfs.state';

/*
 * Whatever the pinning process and staff do to a pin, in any order:
 * - a pin is pinned only after a start, with the CID the completion gave;
 * - once unpinned it stays unpinned (no retry, start or completion brings it back);
 * - attempts only grow, and only a start adds one;
 * - the state folded from the events equals the state tracked step by step.
 */
const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const source = { kind: 'secure-fetch' as const, fetchId: 'f1', itemId: 'i1', storageId: 's1' };
const command: fc.Arbitrary<IpfsPinCommand> = fc.oneof(
  fc.constant({ type: 'RequestPin', data: { pinId: 'p1', ownerId: 'u1', source, size: 5, txId: 'tx', service: 'embedded' }, metadata } as const),
  fc.constant({ type: 'StartPin', data: {}, metadata } as const),
  fc.constantFrom('bafkreia', 'bafkreib').map((cid) => ({ type: 'CompletePin', data: { cid, blocks: 1, dagSize: 5 }, metadata }) as const),
  fc.string({ maxLength: 5 }).map((reason) => ({ type: 'FailPin', data: { reason }, metadata }) as const),
  fc.constant({ type: 'RetryPin', data: {}, metadata } as const),
  fc.constantFrom('', 'legal', ' ').map((reason) => ({ type: 'RemovePin', data: { reason }, metadata }) as const),
);

describe('IPFS pin invariants', () => {
  it('holds for any sequence of commands', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
        let state: IpfsPinState = ipfsPinDecider.initialState();
        const events: IpfsPinEvent[] = [];
        for (const c of commands) {
          const before = state;
          let produced: IpfsPinEvent[];
          try {
            produced = ipfsPinDecider.decide(c, state);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            continue;
          }
          for (const e of produced) state = ipfsPinDecider.evolve(state, e);
          events.push(...produced);
          if (isPin(before) && isPin(state)) {
            if (before.status === 'unpinned') expect(state.status).toBe('unpinned');
            expect(state.attempts).toBe(before.attempts + produced.filter((e) => e.type === 'IpfsPinStarted').length);
            if (state.status === 'pinned' && before.status !== 'pinned') {
              expect(before.status).toBe('pinning');
              expect(state.cid).toBe((c.data as { cid: string }).cid);
            }
          }
        }
        expect(events.reduce(ipfsPinDecider.evolve, ipfsPinDecider.initialState())).toEqual(state);
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { FileLockCommand } from './file-lock.commands';
import { fileLockDecider } from './file-lock.decide';
import type { FileLockEvent } from './file-lock.events';
import { LOCK_GRANT_IDLE_MS } from './file-lock.rules';

/*
 * Whatever is locked, unlocked, granted and opened, by whichever sessions, as time goes by:
 * - a locked item (or one under a locked folder) is served only to a session that proved a code
 *   for every lock over it, after that lock was put on, and used it less than 20 minutes ago;
 * - a grant left unused for 20 minutes is over: the next opening asks for a code again.
 * The check reads only the events written, independently of the decider's own state.
 */

// d1 > d2 > f1, and f2 at the root
const chains: Record<string, string[]> = { f1: ['f1', 'd2', 'd1'], d2: ['d2', 'd1'], d1: ['d1'], f2: ['f2'] };
const items = Object.keys(chains);
const sessions = ['s1', 's2'];

type Step = { readonly advance: number; readonly command: Omit<FileLockCommand, 'metadata'> };

const step: fc.Arbitrary<Step> = fc.record({
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: LOCK_GRANT_IDLE_MS * 1.5 }), fc.constant(LOCK_GRANT_IDLE_MS)),
  command: fc.oneof(
    fc.record({
      type: fc.constant('LockItem' as const),
      data: fc.record({ itemId: fc.constantFrom(...items), userId: fc.constant('u1'), proof: fc.constant({ method: 'totp' as const, totpStep: 0 }) }),
    }),
    fc.record({
      type: fc.constant('UnlockItem' as const),
      data: fc.record({ itemId: fc.constantFrom(...items), userId: fc.constant('u1'), proof: fc.constant({ method: 'totp' as const, totpStep: 0 }) }),
    }),
    fc.record({
      type: fc.constant('GrantLockAccess' as const),
      data: fc
        .record({ itemId: fc.constantFrom(...items), sessionKey: fc.constantFrom(...sessions), valid: fc.boolean() })
        .map(({ itemId, sessionKey, valid }) => ({
          itemId,
          chain: chains[itemId]!,
          userId: 'u1',
          sessionKey,
          proof: { method: 'totp' as const, totpStep: valid ? 0 : null },
        })),
    }),
    fc.record({
      type: fc.constant('OpenItem' as const),
      data: fc
        .record({ itemId: fc.constantFrom(...items), sessionKey: fc.constantFrom(...sessions) })
        .map(({ itemId, sessionKey }) => ({ itemId, chain: chains[itemId]!, userId: 'u1', sessionKey, action: 'download' })),
    }),
  ),
});

/** Runs the steps; each code gets a fresh authenticator step. Answers every event with its time. */
const run = (steps: readonly Step[]) => {
  let state = fileLockDecider.initialState();
  let now = new Date('2026-11-01T00:00:00Z').getTime();
  let totpStep = 0;
  const log: { at: number; event: FileLockEvent }[] = [];
  const refusals: { at: number; index: number; itemId: string; sessionKey: string }[] = [];
  for (const s of steps) {
    now += s.advance;
    const data = { ...(s.command.data as object) } as Record<string, unknown>;
    const proof = data.proof as { method: 'totp'; totpStep: number | null } | undefined;
    if (proof && proof.totpStep !== null) data.proof = { method: 'totp', totpStep: ++totpStep };
    const command = { ...s.command, data, metadata: { now: new Date(now) } } as FileLockCommand;
    try {
      const events = fileLockDecider.decide(command, state);
      for (const e of events) {
        state = fileLockDecider.evolve(state, e);
        log.push({ at: now, event: e });
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (command.type === 'OpenItem') refusals.push({ at: now, index: log.length, itemId: command.data.itemId, sessionKey: command.data.sessionKey });
    }
  }
  return { log, refusals };
};

/** From the events before `index` alone: is `lockedId` locked, and when did `sessionKey` last prove or use a code for it? */
const history = (log: ReturnType<typeof run>['log'], index: number, lockedId: string, sessionKey: string) => {
  let locked = false;
  let lastUse: number | null = null;
  for (const { at, event } of log.slice(0, index)) {
    if (event.type === 'ItemTwoFactorLocked' && event.data.itemId === lockedId) {
      locked = true;
      lastUse = null;
    } else if (event.type === 'ItemTwoFactorUnlocked' && event.data.itemId === lockedId) {
      locked = false;
      lastUse = null;
    } else if (
      (event.type === 'LockAccessGranted' || event.type === 'LockedItemOpened') &&
      event.data.sessionKey === sessionKey &&
      event.data.lockedItemIds.includes(lockedId)
    ) {
      lastUse = at;
    }
  }
  return { locked, lastUse };
};

describe('the two-factor lock, whatever happens', () => {
  it('a locked item is never served without a live grant of that session for every lock over it', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { log } = run(steps);
        log.forEach(({ at, event }, index) => {
          if (event.type !== 'LockedItemOpened') return;
          const covering = chains[event.data.itemId]!.filter((id) => history(log, index, id, event.data.sessionKey).locked);
          expect(event.data.lockedItemIds).toEqual(covering);
          for (const id of covering) {
            const { lastUse } = history(log, index, id, event.data.sessionKey);
            expect(lastUse).not.toBeNull();
            expect(at - lastUse!).toBeLessThan(LOCK_GRANT_IDLE_MS);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('an opening is refused exactly when some lock over the item has no grant of that session used in the last 20 minutes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { log, refusals } = run(steps);
        for (const r of refusals) {
          const stale = chains[r.itemId]!.some((id) => {
            const h = history(log, r.index, id, r.sessionKey);
            return h.locked && (h.lastUse === null || r.at - h.lastUse >= LOCK_GRANT_IDLE_MS);
          });
          expect(stale).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

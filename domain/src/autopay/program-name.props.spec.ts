import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { ABANDONED_NAME_AFTER_MS, programNameDecider, type ProgramNameCommand, type ProgramNameEvent, type ProgramNameState } from './program-name';

const programs = fc.constantFrom('p1', 'p2', 'p3');
const step = fc.record({
  kind: fc.constantFrom('reserve', 'release', 'takeover'),
  programId: programs,
  waitMs: fc.integer({ min: 0, max: 3 * ABANDONED_NAME_AFTER_MS }),
});

describe('program name reservations', () => {
  it('a name has at most one holder; a held name is refused to others unless its reservation is older than the grace and named as abandoned', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let state: ProgramNameState = programNameDecider.initialState();
        let now = Date.UTC(2026, 0, 1);
        for (const s of steps) {
          now += s.waitMs;
          const before = state;
          const command: ProgramNameCommand =
            s.kind === 'release'
              ? { type: 'ReleaseProgramName', data: { programId: s.programId }, metadata: { now: new Date(now) } }
              : {
                  type: 'ReserveProgramName',
                  data: { programId: s.programId, ...(s.kind === 'takeover' && before.holder ? { abandonedHolderId: before.holder } : {}) },
                  metadata: { now: new Date(now) },
                };
          let events: ProgramNameEvent[];
          try {
            events = programNameDecider.decide(command, state);
          } catch (error) {
            // refused only a reservation of a name another program holds, within the grace or not named abandoned
            expect(error).toBeInstanceOf(DomainError);
            expect(command.type).toBe('ReserveProgramName');
            expect(before.holder).not.toBeNull();
            expect(before.holder).not.toBe(s.programId);
            if (s.kind === 'takeover' && before.holder) expect(now - before.since).toBeLessThan(ABANDONED_NAME_AFTER_MS);
            continue;
          }
          state = events.reduce(programNameDecider.evolve, state);
          if (command.type === 'ReserveProgramName') expect(state.holder).toBe(s.programId);
          if (command.type === 'ReleaseProgramName') expect(state.holder).toBe(before.holder === s.programId ? null : before.holder);
          // a reservation changes hands only by a release of the old holder in the same append
          if (before.holder && state.holder && before.holder !== state.holder)
            expect(events.map((e) => e.type)).toEqual(['AutoPayNameReleased', 'AutoPayNameReserved']);
          // deciding again on the new state appends nothing (a retried command is a no-op)
          if (command.type === 'ReserveProgramName') expect(programNameDecider.decide({ ...command, data: { programId: s.programId } }, state)).toEqual([]);
        }
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { teamMembershipDecider, type TeamMembershipCommand } from './teams.membership';

/*
 * Whatever teams take and give back a person's membership, in any order: the person belongs to at
 * most one team at a time, the one that took it last and has not given it back; a team that does
 * not hold it cannot give it back for another.
 */
describe('one team per person', () => {
  const metadata = { now: new Date('2026-11-01T00:00:00Z') };
  const command: fc.Arbitrary<TeamMembershipCommand> = fc.record({
    type: fc.constantFrom('TakeTeamMembership' as const, 'ReleaseTeamMembership' as const),
    data: fc.record({ teamId: fc.constantFrom('t1', 't2', 't3') }),
    metadata: fc.constant(metadata),
  });
  it('holds at most one team, the one a model of the rule says', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
        let state = teamMembershipDecider.initialState();
        let model: string | null = null;
        for (const c of commands) {
          let refused = false;
          try {
            state = teamMembershipDecider.decide(c, state).reduce(teamMembershipDecider.evolve, state);
          } catch (e) {
            if (!(e instanceof DomainError)) throw e;
            refused = true;
          }
          if (c.type === 'TakeTeamMembership') {
            expect(refused).toBe(model !== null && model !== c.data.teamId);
            if (model === null) model = c.data.teamId;
          } else if (model === c.data.teamId) model = null;
          expect(state.teamId).toBe(model);
        }
      }),
    );
  });
});

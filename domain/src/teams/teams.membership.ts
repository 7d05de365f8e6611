import type { Command, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { TeamErrors } from './teams.errors';
import type { TeamMembershipEvent } from './teams.events';

/**
 * A person's one team (spec §6: a user can be in only one team), in a stream of its own
 * (`team-membership-<userId>`): joining takes it at the stream's revision before the team records
 * the member, so of two teams racing for one person only one wins; leaving gives it back.
 */
export type TeamMembershipCommand = Command<'TakeTeamMembership', { teamId: string }> | Command<'ReleaseTeamMembership', { teamId: string }>;

export type TeamMembershipState = { readonly teamId: string | null };

const decide = (command: TeamMembershipCommand, state: TeamMembershipState): TeamMembershipEvent[] => {
  const { teamId } = command.data;
  if (command.type === 'TakeTeamMembership') {
    if (state.teamId === teamId) return [];
    if (state.teamId !== null) throw new DomainError(TeamErrors.otherTeam);
    return [{ type: 'TeamMembershipTaken', data: { teamId } }];
  }
  return state.teamId === teamId ? [{ type: 'TeamMembershipReleased', data: { teamId } }] : [];
};

const evolve = (state: TeamMembershipState, event: TeamMembershipEvent): TeamMembershipState => {
  switch (event.type) {
    case 'TeamMembershipTaken':
      return { teamId: event.data.teamId };
    case 'TeamMembershipReleased':
      return state.teamId === event.data.teamId ? { teamId: null } : state;
    default:
      return state;
  }
};

export const teamMembershipDecider: Decider<TeamMembershipCommand, TeamMembershipEvent, TeamMembershipState> = {
  decide,
  evolve,
  initialState: () => ({ teamId: null }),
};

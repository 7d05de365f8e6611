import { teamStreamName } from '@axel/domain';
import type { ErasureActor } from '../../module';
import type { AppContext } from '../../context';
import { loadTeam, runMembershipCommand, runTeamCommand, teamIdOfOwner } from './teams.commands';
import { forgetTeamActivityOf } from '@axel/projections/teams/team-activity.queries';
import { teamJoinedBy } from '@axel/projections/teams/teams.queries';

/**
 * A purged account leaves its teams: the team it owned closes and forgets its group names (the
 * stream's key is destroyed); as a member it is removed from the team it belonged to, and its
 * membership given back; what it did in any team leaves the teams' activity logs. Repeating it does
 * nothing more.
 */
export const forgetTeams = async (ctx: AppContext, userId: string, actor: ErasureActor): Promise<void> => {
  const owned = teamIdOfOwner(userId);
  if ((await ctx.store.readStream(teamStreamName(owned))).revision >= 0) {
    const team = await loadTeam(ctx, owned);
    if (team.status !== 'none' && team.ownerId === userId) {
      await runTeamCommand(ctx, owned, { type: 'CloseTeam', data: { reason: 'owner-deleted' } }, actor);
      await runTeamCommand(ctx, owned, { type: 'ForgetTeam', data: {} }, actor);
    }
  }
  const joined = await teamJoinedBy(ctx.pool, userId);
  if (joined) {
    await runTeamCommand(ctx, joined.team_id, { type: 'DropPurgedMember', data: { userId } }, actor);
    await runMembershipCommand(ctx, userId, { type: 'ReleaseTeamMembership', data: { teamId: joined.team_id } }, actor);
  }
  await forgetTeamActivityOf(ctx.pool, userId);
};

import { teamEventDefinitions } from '@axel/domain';
import { teamActivityProjection } from '@axel/projections/teams/team-activity.projection';
import { teamsProjection } from '@axel/projections/teams/teams.projection';
import type { Module } from '../../module';
import type { TeamPlanOf } from './teams.commands';
import { forgetTeams } from './teams.forget';
import { teamActivityRoutes } from './teams.activity.routes';
import { teamMembersRoutes } from './teams.members.routes';
import { teamPermissionsRoutes } from './teams.permissions';
import { teamsRoutes } from './teams.routes';
import { teamStoragesRoutes } from './teams.storages.routes';

/** Teams of the plans that carry members: members, invites, groups, folder permissions and the activity log (spec §6). */
export const createTeamsModule = (deps: { readonly planOf: TeamPlanOf }): Module => ({
  name: 'teams',
  events: teamEventDefinitions,
  projections: [teamsProjection, teamActivityProjection],
  personalData: {
    team_invites: ['email'],
    team_groups: ['name'],
    team_activity: ['source_path', 'destination_path'],
    team_activity_items: ['name'],
  },
  routes: (ctx) => async (app) => {
    await app.register(teamsRoutes(ctx, deps.planOf));
    await app.register(teamMembersRoutes(ctx, deps.planOf));
    await app.register(teamPermissionsRoutes(ctx, deps.planOf));
    await app.register(teamStoragesRoutes(ctx));
    await app.register(teamActivityRoutes(ctx, deps.planOf));
  },
  forget: forgetTeams,
});

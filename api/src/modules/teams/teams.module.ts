import { teamEventDefinitions } from '@axel/domain';
import { teamsProjection } from '@axel/projections/teams/teams.projection';
import type { Module } from '../../module';
import type { TeamPlanOf } from './teams.commands';
import { forgetTeams } from './teams.forget';
import { teamMembersRoutes } from './teams.members.routes';
import { teamPermissionsRoutes } from './teams.permissions';
import { teamsRoutes } from './teams.routes';
import { teamStoragesRoutes } from './teams.storages.routes';

/** Teams of the plans that carry members: members, invites, groups and folder permissions (spec §6). */
export const createTeamsModule = (deps: { readonly planOf: TeamPlanOf }): Module => ({
  name: 'teams',
  events: teamEventDefinitions,
  projections: [teamsProjection],
  personalData: { team_invites: ['email'], team_groups: ['name'] },
  routes: (ctx) => async (app) => {
    await app.register(teamsRoutes(ctx, deps.planOf));
    await app.register(teamMembersRoutes(ctx, deps.planOf));
    await app.register(teamPermissionsRoutes(ctx, deps.planOf));
    await app.register(teamStoragesRoutes(ctx));
  },
  forget: forgetTeams,
});

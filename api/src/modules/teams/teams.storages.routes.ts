import { storagesOf } from '@axel/projections/storage/storage.queries';
import { activeTeamMember, teamJoinedBy } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { storageJson } from '../files/storage.service';
import { ErrorSchema, TeamStoragesSchema, UserParams } from './teams.schema';

const tags = ['teams'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };
/** The storage types a team shares with its members (spec §3: online and group storage carry permissions). */
const TEAM_STORAGE_TYPES = new Set(['online', 'group']);

/**
 * The team storages a joined member reaches through their own paths (docs/teams.md, Team storage):
 * the owner's online and group storages, marked as the team's, with what the member's role allows
 * at their root. Nothing for the team's owner (their storages are their own list) nor outside a team.
 */
export const teamStoragesRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const path of ['/api/users/:id/team-storages', '/api/users/:id/team-storages/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "The storages of the team you joined (its owner's), with your role's rights at their root; none outside a team",
          params: UserParams,
          response: { 200: TeamStoragesSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const joined = await teamJoinedBy(ctx.pool, user.id);
        const member = joined && (await activeTeamMember(ctx.pool, joined.team_id, user.id));
        if (!joined || !member) return { data: [] };
        const manages = member.role === 'co_admin_member';
        const storages = (await storagesOf(ctx.pool, joined.owner_id)).filter((s) => TEAM_STORAGE_TYPES.has(s.type));
        return {
          data: storages.map((s) => ({
            ...storageJson(s),
            isOwner: false,
            isCoAdmin: manages,
            isTeamFolder: true,
            permissions: { edit: manages, download: manages, view: manages, setPermission: manages },
          })),
        };
      },
    );
  }
};

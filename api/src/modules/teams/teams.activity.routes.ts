import { teamActivityPage } from '@axel/projections/teams/team-activity.queries';
import { teamMember } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { userActor } from '../../http/request-meta';
import { ensureOwnTeam, teamForManager, teamIdOfOwner, type TeamPlanOf } from './teams.commands';
import { ActivityPage, ActivityQuery, ErrorSchema, TeamParams } from './teams.schema';

const tags = ['teams'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };
/** Members page size (rules-calls-errors §9). */
const PAGE_SIZE = 50;

/** The team's activity log for its admin and co-admins (spec §6): 50 a page, newest first. */
export const teamActivityRoutes = (ctx: AppContext, planOf: TeamPlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const path of ['/api/teams/:teamId/activity', '/api/teams/:teamId/activity/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "What the team's admin and members did in its storages, and what happened to its members, with the paths of the time (50 a page)",
          params: TeamParams,
          querystring: ActivityQuery,
          response: { 200: ActivityPage, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        const { teamId } = request.params;
        if (teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, userActor(request, user.id));
        await teamForManager(ctx, teamId, user.id);
        const { page, type, memberId, from, to } = request.query;
        // a member who is not (or no longer) in the team did nothing the filter can show
        const actorId = memberId ? ((await teamMember(ctx.pool, teamId, { memberId }))?.user_id ?? '') : undefined;
        const { rows, total } = await teamActivityPage(ctx.pool, teamId, {
          type,
          actorId: actorId ?? undefined,
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
          limit: PAGE_SIZE,
          offset: (page - 1) * PAGE_SIZE,
        });
        return {
          data: rows.map((r) => ({
            id: r.id,
            type: r.type,
            sourcePath: r.source_path,
            destinationPath: r.destination_path,
            actorId: r.actor_id,
            actorEmail: r.actor_email,
            memberId: r.subject_member_id,
            at: r.at.toISOString(),
          })),
          total,
          page,
          pageSize: PAGE_SIZE,
        };
      },
    );
  }
};

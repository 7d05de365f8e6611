import { randomUUID } from 'node:crypto';
import { DomainError, GB, TeamErrors, type ExistingTeam } from '@axel/domain';
import { teamGroups, teamMember, teamsOf } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf, requireUser } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { ensureOwnTeam, runInviteCommand, runMembershipCommand, runTeamCommand, teamForManager, teamIdOfOwner, type TeamPlanOf } from './teams.commands';
import {
  ChangeMemberBody,
  ErrorSchema,
  GroupBody,
  GroupMembersBody,
  GroupParams,
  GroupSchema,
  MemberParams,
  MemberRoleSchema,
  MemberSchema,
  TeamParams,
  UserParams,
} from './teams.schema';
import { memberJson } from './teams.routes';

const tags = ['teams'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };
type Change = Parameters<typeof runTeamCommand>[2];

/**
 * What the team's admin and co-admins do with members and groups (spec §6): role (co-admin by the
 * admin only), quota, forbidden actions, suspension, removal; groups with unique names.
 */
export const teamMembersRoutes = (ctx: AppContext, planOf: TeamPlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120 });

  /** The signed-in manager of the team, and a runner of their commands on it. */
  const managing = async (request: FastifyRequest, teamId: string) => {
    const { user } = await requireUser(ctx, request);
    const actor = userActor(request, user.id);
    if (teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, actor);
    const team = await teamForManager(ctx, teamId, user.id);
    const run = async (command: Change) => (await runTeamCommand(ctx, teamId, command, actor)).state as ExistingTeam;
    return { user, actor, team, run, me: { userId: user.id } };
  };

  const memberAnswer = async (teamId: string, memberId: string) => {
    const row = await teamMember(ctx.pool, teamId, { memberId });
    if (!row) throw new DomainError(TeamErrors.memberNotFound);
    return memberJson(row);
  };

  for (const path of ['/api/users/:id/member-role', '/api/users/:id/member-role/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "Your team, its owner, your role and status in it (nulls outside any team) and the team plan's seats",
          params: UserParams,
          response: { 200: MemberRoleSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ensureOwnTeam(ctx, planOf, user.id, userActor(request, user.id));
        const mine = (await teamsOf(ctx.pool, user.id))[0];
        const freeSeats = (await planOf(ctx, mine?.owner_id ?? user.id)).entitlements.freeSeats;
        if (!mine) return { teamId: null, ownerId: null, role: null, status: null, isCoAdmin: false, freeSeats };
        const me = await teamMember(ctx.pool, mine.id, { userId: user.id });
        return { teamId: mine.id, ownerId: mine.owner_id, role: mine.role, status: me?.status ?? null, isCoAdmin: mine.role === 'co_admin_member', freeSeats };
      },
    );
  }

  for (const path of ['/api/teams/:teamId/members/:memberId', '/api/teams/:teamId/members/:memberId/']) {
    app.patch(
      path,
      {
        config: writes,
        schema: {
          tags,
          summary: 'Change a member: role (co-admin, by the admin only), quota in GB, forbidden actions, or status (suspended, joined)',
          params: MemberParams,
          body: ChangeMemberBody,
          response: { 200: MemberSchema, ...errors },
        },
      },
      async (request) => {
        const { teamId, memberId } = request.params;
        const { run, me } = await managing(request, teamId);
        const { role, quota, forbiddenActions, status } = request.body;
        if (status === 'suspended') await run({ type: 'SuspendMember', data: { actor: me, memberId } });
        if (status === 'joined') await run({ type: 'UnsuspendMember', data: { actor: me, memberId } });
        if (role !== undefined) await run({ type: 'SetMemberRole', data: { actor: me, memberId, role } });
        if (quota !== undefined) await run({ type: 'SetMemberQuota', data: { actor: me, memberId, quotaBytes: quota * GB } });
        if (forbiddenActions !== undefined) await run({ type: 'SetForbiddenActions', data: { actor: me, memberId, actions: forbiddenActions } });
        return memberAnswer(teamId, memberId);
      },
    );
    app.delete(
      path,
      {
        config: writes,
        schema: { tags, summary: 'Remove a member, or withdraw a pending invite', params: MemberParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        const { teamId, memberId } = request.params;
        const { team, run, me, actor } = await managing(request, teamId);
        const member = team.members[memberId];
        await run({ type: 'RemoveMember', data: { actor: me, memberId } });
        if (member?.inviteId && member.status === 'pending')
          await runInviteCommand(ctx, member.inviteId, { type: 'CloseTeamInvite', data: { outcome: 'withdrawn' } }, actor);
        if (member?.userId) await runMembershipCommand(ctx, member.userId, { type: 'ReleaseTeamMembership', data: { teamId } }, actor);
        return reply.status(204).send(null);
      },
    );
  }

  for (const path of ['/api/teams/:teamId/groups', '/api/teams/:teamId/groups/']) {
    app.get(
      path,
      { schema: { tags, summary: "A team's groups by name, with their members", params: TeamParams, response: { 200: GroupSchema.array(), ...errors } } },
      async (request) => {
        await managing(request, request.params.teamId);
        return (await teamGroups(ctx.pool, request.params.teamId)).map((g) => ({
          id: g.group_id,
          name: g.name,
          memberIds: g.member_ids,
          createdAt: g.created_at.toISOString(),
        }));
      },
    );
    app.post(
      path,
      {
        config: writes,
        schema: {
          tags,
          summary: 'Create a group (name required and unique in the team)',
          params: TeamParams,
          body: GroupBody,
          response: { 201: GroupSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { run, me } = await managing(request, request.params.teamId);
        const groupId = randomUUID();
        const state = await run({ type: 'CreateGroup', data: { actor: me, groupId, name: request.body.name } });
        const g = state.groups[groupId]!;
        return reply.status(201).send({ id: groupId, name: g.name, memberIds: [...g.memberIds], createdAt: ctx.now().toISOString() });
      },
    );
  }

  for (const path of ['/api/teams/:teamId/groups/:groupId', '/api/teams/:teamId/groups/:groupId/']) {
    app.patch(
      path,
      { config: writes, schema: { tags, summary: 'Rename a group', params: GroupParams, body: GroupBody, response: { 200: GroupSchema, ...errors } } },
      async (request) => {
        const { run, me } = await managing(request, request.params.teamId);
        const state = await run({ type: 'RenameGroup', data: { actor: me, groupId: request.params.groupId, name: request.body.name } });
        const g = state.groups[request.params.groupId]!;
        return { id: g.groupId, name: g.name, memberIds: [...g.memberIds], createdAt: ctx.now().toISOString() };
      },
    );
    app.delete(
      path,
      {
        config: writes,
        schema: { tags, summary: 'Delete a group (its grants go with it)', params: GroupParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        const { run, me } = await managing(request, request.params.teamId);
        await run({ type: 'DeleteGroup', data: { actor: me, groupId: request.params.groupId } });
        return reply.status(204).send(null);
      },
    );
  }

  for (const path of ['/api/teams/:teamId/groups/:groupId/members', '/api/teams/:teamId/groups/:groupId/members/']) {
    app.put(
      path,
      {
        config: writes,
        schema: { tags, summary: "Set a group's members (member ids)", params: GroupParams, body: GroupMembersBody, response: { 200: GroupSchema, ...errors } },
      },
      async (request) => {
        const { run, me } = await managing(request, request.params.teamId);
        const state = await run({ type: 'SetGroupMembers', data: { actor: me, groupId: request.params.groupId, memberIds: request.body.memberIds } });
        const g = state.groups[request.params.groupId]!;
        return { id: g.groupId, name: g.name, memberIds: [...g.memberIds], createdAt: ctx.now().toISOString() };
      },
    );
  }
};

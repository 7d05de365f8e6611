import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, GB, parseInviteEmails, TeamErrors, type ExistingTeam } from '@axel/domain';
import { findUserByEmail, findUser } from '@axel/projections/users/users.queries';
import { inviteByTokenHash, teamMembersPage, teamsOf, type TeamMemberRow } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf, requireUser } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import {
  emailKeyOf,
  ensureOwnTeam,
  inviteeAccountOf,
  loadTeam,
  newInviteToken,
  runInviteCommand,
  runMembershipCommand,
  runTeamCommand,
  teamForManager,
  teamIdOfOwner,
  tokenHashOf,
  type TeamPlanOf,
} from './teams.commands';
import {
  ErrorSchema,
  InviteBody,
  InvitedSchema,
  InviteLinkBody,
  InviteLinkSchema,
  JoinedSchema,
  LinkParams,
  MembersPage,
  MembersQuery,
  TeamParams,
  TeamSchema,
  TokenParams,
  UserParams,
  type MemberJson,
  type TeamJson,
} from './teams.schema';

const tags = ['teams'];

/** An invite link's token: the team, the link and its secret (only the secret's hash is kept). */
const linkToken = (teamId: string, linkId: string, secret: string) => `l.${teamId}.${linkId}.${secret}`;
const parseLinkToken = (token: string): { teamId: string; linkId: string; secret: string } | null => {
  const [kind, teamId, linkId, secret, ...rest] = token.split('.');
  return kind === 'l' && teamId && linkId && secret && rest.length === 0 ? { teamId, linkId, secret } : null;
};
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };

export const memberJson = (r: TeamMemberRow): MemberJson => ({
  memberId: r.member_id,
  userId: r.user_id,
  email: r.email,
  role: r.role,
  status: r.status,
  quota: Number(r.quota_bytes) / GB,
  quotaBytes: Number(r.quota_bytes),
  forbiddenActions: r.forbidden_actions as MemberJson['forbiddenActions'],
  groupIds: r.group_ids,
  createdAt: r.created_at.toISOString(),
});

/**
 * Teams and their members (spec §6, rules §5 and §7 Billing and members): the teams a person owns
 * or belongs to, the member list in the spec's order, e-mail invites and joining through one.
 */
export const teamsRoutes = (ctx: AppContext, planOf: TeamPlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  // invites send mail: limited per address and per team
  const invites = limit({
    perIp: 30,
    perAccount: 20,
    account: (request) => `team:${(request.params as { teamId?: string }).teamId ?? ''}`,
  });
  const accepts = limit({ perIp: 30 });

  for (const path of ['/api/users/:id/teams', '/api/users/:id/teams/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'The teams you own or belong to, with your role in each (your own team opens with a plan that carries members)',
          params: UserParams,
          response: { 200: TeamSchema.array(), ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ensureOwnTeam(ctx, planOf, user.id, userActor(request, user.id));
        const rows = await teamsOf(ctx.pool, user.id);
        return rows.map(
          (r): TeamJson => ({ id: r.id, ownerId: r.owner_id, plan: r.plan_kind, status: r.status, role: r.role, createdAt: r.created_at.toISOString() }),
        );
      },
    );
  }

  for (const path of ['/api/teams/:teamId/members', '/api/teams/:teamId/members/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'The members of a team you manage: admin, co-admins, joined members, then pending and suspended ones (50 a page)',
          params: TeamParams,
          querystring: MembersQuery,
          response: { 200: MembersPage, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        if (request.params.teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, userActor(request, user.id));
        await teamForManager(ctx, request.params.teamId, user.id);
        const { page, pageSize } = request.query;
        const { rows, total } = await teamMembersPage(ctx.pool, request.params.teamId, { limit: pageSize, offset: (page - 1) * pageSize });
        return { data: rows.map(memberJson), total, page, pageSize };
      },
    );
  }

  for (const path of ['/api/teams/:teamId/invites', '/api/teams/:teamId/invites/']) {
    app.post(
      path,
      {
        config: invites,
        schema: {
          tags,
          summary: 'Invite people by e-mail (up to 10 addresses split by spaces, commas or semicolons): each gets a mail with a link to join',
          params: TeamParams,
          body: InviteBody,
          response: { 201: InvitedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireUser(ctx, request);
        const actor = userActor(request, user.id);
        const { teamId } = request.params;
        if (teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, actor);
        const team = (await teamForManager(ctx, teamId, user.id)) as ExistingTeam;
        const emails = parseInviteEmails(request.body.emails);
        const owner = await findUser(ctx.pool, team.ownerId);
        const invitees = await Promise.all(
          emails.map(async (email) => {
            const account = await findUserByEmail(ctx.pool, email);
            return {
              email,
              token: newInviteToken(),
              memberId: randomUUID(),
              inviteId: randomUUID(),
              emailKey: emailKeyOf(ctx, email),
              account: account ? await inviteeAccountOf(ctx, planOf, account) : null,
            };
          }),
        );
        const seatLimit = (await planOf(ctx, team.ownerId)).entitlements.freeSeats;
        // each address and its link's hash first, in the invite's own stream: a pending member never lacks its invite
        for (const i of invitees) {
          await runInviteCommand(ctx, i.inviteId, { type: 'IssueTeamInvite', data: { teamId, email: i.email, tokenHash: tokenHashOf(i.token) } }, actor);
        }
        try {
          await runTeamCommand(
            ctx,
            teamId,
            {
              type: 'InviteMembers',
              data: {
                actor: { userId: user.id },
                invitees: invitees.map(({ memberId, inviteId, emailKey, account }) => ({ memberId, inviteId, emailKey, account })),
                quotaBytes: (request.body.quota ?? 0) * GB,
                seatLimit,
              },
            },
            actor,
          );
        } catch (error) {
          for (const i of invitees) await runInviteCommand(ctx, i.inviteId, { type: 'CloseTeamInvite', data: { outcome: 'withdrawn' } }, actor);
          if (error instanceof DomainError && typeof error.data === 'object' && error.data && 'memberId' in error.data) {
            const refused = invitees.find((i) => i.memberId === (error.data as { memberId: string }).memberId);
            throw new DomainError({ code: error.code, status: error.status, message: error.message }, { email: refused?.email });
          }
          throw error;
        }
        for (const i of invitees) {
          const page = i.account ? 'signin' : 'signup';
          const link = `${ctx.config.publicUrl}/${page}?invite=${encodeURIComponent(i.token)}&email=${encodeURIComponent(i.email)}`;
          await ctx.mailer.request(
            {
              to: i.email,
              template: 'team-invite',
              locale: owner?.locale ?? 'en_us',
              params: { link, email: user.email ?? undefined, title: owner?.username ?? owner?.email ?? undefined },
              userId: i.account?.userId ?? null,
            },
            actor,
          );
        }
        reply.code(201);
        return { data: invitees.map((i) => ({ memberId: i.memberId, email: i.email, status: 'pending' as const })) };
      },
    );
  }

  for (const path of ['/api/teams/:teamId/invite-links', '/api/teams/:teamId/invite-links/']) {
    app.post(
      path,
      {
        config: invites,
        schema: {
          tags,
          summary: 'Make an invite link anyone may join the team through (until it is revoked or the seats run out)',
          params: TeamParams,
          body: InviteLinkBody,
          response: { 201: InviteLinkSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireUser(ctx, request);
        const actor = userActor(request, user.id);
        const { teamId } = request.params;
        if (teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, actor);
        await teamForManager(ctx, teamId, user.id);
        // short enough that the whole token fits a path segment (team id, link id, secret)
        const linkId = randomBytes(12).toString('base64url');
        const secret = randomBytes(24).toString('base64url');
        await runTeamCommand(
          ctx,
          teamId,
          {
            type: 'CreateInviteLink',
            data: { actor: { userId: user.id }, linkId, tokenHash: tokenHashOf(secret), quotaBytes: (request.body.quota ?? 0) * GB },
          },
          actor,
        );
        const token = linkToken(teamId, linkId, secret);
        reply.code(201);
        return { linkId, url: `${ctx.config.publicUrl}/signup?invite=${encodeURIComponent(token)}` };
      },
    );
  }

  for (const path of ['/api/teams/:teamId/invite-links/:linkId', '/api/teams/:teamId/invite-links/:linkId/']) {
    app.delete(
      path,
      {
        config: invites,
        schema: {
          tags,
          summary: 'Revoke an invite link: joining through it answers "invite link revoked"',
          params: LinkParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireUser(ctx, request);
        await teamForManager(ctx, request.params.teamId, user.id);
        await runTeamCommand(
          ctx,
          request.params.teamId,
          { type: 'RevokeInviteLink', data: { actor: { userId: user.id }, linkId: request.params.linkId } },
          userActor(request, user.id),
        );
        return reply.status(204).send(null);
      },
    );
  }

  for (const path of ['/api/team-invites/:token/accept', '/api/team-invites/:token/accept/']) {
    app.post(
      path,
      {
        config: accepts,
        schema: {
          tags,
          summary: "Join the team an e-mail invite's link names (signed in with the invited address)",
          params: TokenParams,
          response: { 200: JoinedSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        const actor = userActor(request, user.id);
        const link = parseLinkToken(request.params.token);
        const invite = link ? undefined : await inviteByTokenHash(ctx.pool, tokenHashOf(request.params.token));
        if (!link && !invite) throw new DomainError(TeamErrors.inviteInvalid);
        const teamId = link?.teamId ?? invite!.team_id;
        if (link) {
          // the team's link: its secret must be the one the link was made with (the id alone is not enough)
          const team = await loadTeam(ctx, teamId);
          const made = team.status === 'none' ? undefined : team.links[link.linkId];
          if (!made || made.tokenHash !== tokenHashOf(link.secret)) throw new DomainError(TeamErrors.inviteInvalid);
        }
        const account = await inviteeAccountOf(ctx, planOf, user);
        const seatLimit = (await planOf(ctx, teamId)).entitlements.freeSeats;
        // the person's one team is taken first, so of two teams racing for them only one wins
        await runMembershipCommand(ctx, user.id, { type: 'TakeTeamMembership', data: { teamId } }, actor);
        let state: ExistingTeam;
        try {
          const result = await runTeamCommand(
            ctx,
            teamId,
            {
              type: 'JoinTeam',
              data: {
                account: { ...account, teamId: null },
                emailKey: emailKeyOf(ctx, user.email ?? ''),
                via: link ? { kind: 'link', linkId: link.linkId, memberId: randomUUID() } : { kind: 'invite', inviteId: invite!.invite_id },
                seatLimit,
              },
            },
            actor,
          );
          state = result.state as ExistingTeam;
        } catch (error) {
          await runMembershipCommand(ctx, user.id, { type: 'ReleaseTeamMembership', data: { teamId } }, actor);
          throw error;
        }
        if (invite) await runInviteCommand(ctx, invite.invite_id, { type: 'CloseTeamInvite', data: { outcome: 'accepted' } }, actor);
        const me = Object.values(state.members).find((m) => m.userId === user.id);
        if (!me) throw new DomainError(TeamErrors.inviteInvalid);
        return { teamId, memberId: me.memberId, role: me.role, status: me.status };
      },
    );
  }
};

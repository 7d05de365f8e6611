import { createHash, randomBytes } from 'node:crypto';
import {
  DomainError,
  isTeamPlan,
  TeamErrors,
  teamDecider,
  teamInviteDecider,
  teamInviteStreamName,
  teamMembershipDecider,
  teamMembershipStreamName,
  teamStreamName,
  type InviteeAccount,
  type TeamCommand,
  type TeamInviteCommand,
  type TeamMembershipCommand,
  type TeamState,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { UserRow } from '@axel/projections/users/users.queries';
import type { AppContext } from '../../context';
import type { UserPlanView } from '../billing/billing.module';

/** Where the teams find a person's plan: billing answers it (`app.ts` wires the one to the other). */
export type TeamPlanOf = (ctx: AppContext, userId: string) => Promise<UserPlanView>;

/** A team belongs to its plan owner and has the owner's id: one team per plan, found without a lookup. */
export const teamIdOfOwner = (ownerId: string): string => ownerId;

type Without<C> = C extends { metadata: unknown } ? Omit<C, 'metadata'> : never;
const at = (ctx: AppContext) => ({ now: ctx.now() });

/** Runs a command on a team's stream; the team's next read already shows its outcome. */
export const runTeamCommand = async (ctx: AppContext, teamId: string, command: Without<TeamCommand>, actor: CommandContext) => {
  const result = await handleCommand(ctx.commands, teamDecider, teamStreamName(teamId), { ...command, metadata: at(ctx) } as TeamCommand, actor);
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};
export const runInviteCommand = async (ctx: AppContext, inviteId: string, command: Without<TeamInviteCommand>, actor: CommandContext) => {
  const result = await handleCommand(
    ctx.commands,
    teamInviteDecider,
    teamInviteStreamName(inviteId),
    { ...command, metadata: at(ctx) } as TeamInviteCommand,
    actor,
  );
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};
export const runMembershipCommand = (ctx: AppContext, userId: string, command: Without<TeamMembershipCommand>, actor: CommandContext) =>
  handleCommand(ctx.commands, teamMembershipDecider, teamMembershipStreamName(userId), { ...command, metadata: at(ctx) } as TeamMembershipCommand, actor);

export const loadTeam = async (ctx: AppContext, teamId: string): Promise<TeamState> =>
  (await loadState(ctx.commands, teamDecider, teamStreamName(teamId))).state;

/**
 * The owner's team, opened on first use when their plan carries members, its plan kept in line
 * with the plan in effect (plans change at a date without an event of their own, as storages read
 * their quota). Undefined when the person's plan has no members.
 */
export const ensureOwnTeam = async (ctx: AppContext, planOf: TeamPlanOf, ownerId: string, actor: CommandContext): Promise<TeamState | undefined> => {
  const kind = (await planOf(ctx, ownerId)).entitlements.plan.kind;
  const teamId = teamIdOfOwner(ownerId);
  const team = await loadTeam(ctx, teamId);
  if (!isTeamPlan(kind)) return team.status === 'open' ? team : undefined;
  if (team.status === 'none') {
    await runMembershipCommand(ctx, ownerId, { type: 'TakeTeamMembership', data: { teamId } }, actor).catch((error: unknown) => {
      // the owner belonged to another team before buying their own plan: their own team still opens
      if (!(error instanceof DomainError)) throw error;
    });
    return (await runTeamCommand(ctx, teamId, { type: 'CreateTeam', data: { teamId, ownerId, planKind: kind } }, actor)).state;
  }
  if (team.status === 'open' && team.planKind !== kind)
    return (await runTeamCommand(ctx, teamId, { type: 'ChangeTeamPlan', data: { planKind: kind } }, actor)).state;
  return team;
};

/** How the team stream names a person by address, without holding the address: a keyed hash of it. */
export const emailKeyOf = (ctx: AppContext, email: string): string => ctx.secrets.mac(`email:${email.trim().toLowerCase()}`);

export const newInviteToken = (): string => randomBytes(32).toString('base64url');
export const tokenHashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** What the invite rules need to know of a person with an account (spec §6), read before the decision. */
export const inviteeAccountOf = async (ctx: AppContext, planOf: TeamPlanOf, user: UserRow): Promise<InviteeAccount> => {
  const [plan, membership] = await Promise.all([planOf(ctx, user.id), loadState(ctx.commands, teamMembershipDecider, teamMembershipStreamName(user.id))]);
  const kind = plan.entitlements.plan.kind;
  const ownsTeam = isTeamPlan(kind) && plan.entitlements.plan.type !== 'child-plan';
  const teamId = membership.state.teamId;
  return {
    userId: user.id,
    active: user.status === 'active' && user.deleted_at === null,
    planKind: kind,
    onTrial: plan.onTrial,
    ownsTeam,
    // the team the person owns is not "another team" for the membership rule: ownsTeam says it
    teamId: teamId === teamIdOfOwner(user.id) ? null : teamId,
  };
};

/** A team the signed-in person may manage (its admin, or a joined co-admin); 404 when they are not in it. */
export const teamForManager = async (ctx: AppContext, teamId: string, userId: string) => {
  const team = await loadTeam(ctx, teamId);
  if (team.status !== 'open' || !Object.values(team.members).some((m) => m.userId === userId && m.status !== 'pending')) {
    throw new DomainError(TeamErrors.teamNotFound);
  }
  const me = Object.values(team.members).find((m) => m.userId === userId);
  if (!(me?.role === 'admin' || (me?.role === 'co_admin_member' && me.status === 'joined'))) throw new DomainError(TeamErrors.notTeamAdmin);
  return team;
};

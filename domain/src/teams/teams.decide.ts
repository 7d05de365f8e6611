import { AccountErrors } from '../accounts/accounts.errors';
import type { PlanKind } from '../billing/billing.catalogue';
import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError, type ErrorDefinition } from '../shared/errors';
import { checkItemGrants, indexGrants } from './permissions';
import type { InviteeAccount, TeamActor, TeamCommand } from './teams.commands';
import { TeamErrors } from './teams.errors';
import type { TeamEvent } from './teams.events';
import { evolveTeam, initialTeamState, seatsTaken, type ExistingTeam, type TeamMember, type TeamState } from './teams.state';

/** Plans that carry members (spec §1: Team, Group, Business, Enterprise, partner business). */
export const TEAM_PLAN_KINDS: readonly PlanKind[] = ['team', 'group', 'business', 'enterprise', 'partner-business'];
export const isTeamPlan = (kind: PlanKind) => TEAM_PLAN_KINDS.includes(kind);
export const MAX_GROUP_NAME = 255;

/**
 * Why a person may not be invited to or join a team, or null (spec §6: invites are valid only for
 * people with no account, on Basic or on trial; a higher plan or another plan owner is refused; a
 * person is in one team only; not yourself; not an inactive user).
 */
export const inviteRefusal = (team: ExistingTeam, emailKey: string, account: InviteeAccount | null): ErrorDefinition | null => {
  if (account?.userId === team.ownerId) return TeamErrors.ownEmail;
  const members = Object.values(team.members);
  if (members.some((m) => m.emailKey === emailKey || (account && m.userId === account.userId)) || account?.teamId === team.teamId)
    return TeamErrors.alreadyAdded;
  if (!account) return null;
  if (account.teamId !== null) return TeamErrors.otherTeam;
  if (account.ownsTeam) return TeamErrors.inviteeOwnsPlan;
  if (!account.active) return TeamErrors.inactiveUser;
  if (account.planKind !== 'basic' && !account.onTrial) return TeamErrors.inviteeHigherPlan;
  return null;
};

const openTeam = (state: TeamState): ExistingTeam => {
  if (state.status !== 'open') throw new DomainError(TeamErrors.teamNotFound);
  return state;
};

/** The actor's standing: the admin (plan owner), or a joined co-admin; anyone else is refused. */
const manager = (team: ExistingTeam, actor: TeamActor, ownerOnly = false): 'admin' | 'co_admin_member' => {
  if (actor.userId === team.ownerId) return 'admin';
  const m = Object.values(team.members).find((x) => x.userId === actor.userId);
  if (!ownerOnly && m?.role === 'co_admin_member' && m.status === 'joined') return 'co_admin_member';
  throw new DomainError(ownerOnly ? TeamErrors.notTeamOwner : TeamErrors.notTeamAdmin);
};

const memberOf = (team: ExistingTeam, memberId: string): TeamMember => {
  const m = team.members[memberId];
  if (!m) throw new DomainError(TeamErrors.memberNotFound);
  return m;
};
/** A member other than the admin, whom managers may change; a co-admin only by the admin. */
const changeable = (team: ExistingTeam, actor: TeamActor, memberId: string): TeamMember => {
  const standing = manager(team, actor);
  const m = memberOf(team, memberId);
  if (m.role === 'admin') throw new DomainError(TeamErrors.adminUnchangeable);
  if (m.role === 'co_admin_member' && standing !== 'admin') throw new DomainError(TeamErrors.notTeamOwner);
  return m;
};

const checkedGroupName = (team: ExistingTeam, groupId: string, raw: string): string => {
  const name = raw.trim();
  if (!name) throw new DomainError(TeamErrors.groupNameRequired);
  if (name.length > MAX_GROUP_NAME) throw new DomainError(CommonErrors.validation, { field: 'name', max: MAX_GROUP_NAME });
  const key = name.toLowerCase();
  if (Object.values(team.groups).some((g) => g.groupId !== groupId && g.name.toLowerCase() === key)) throw new DomainError(TeamErrors.groupNameInUse);
  return name;
};

const groupOf = (team: ExistingTeam, groupId: string) => {
  const g = team.groups[groupId];
  if (!g) throw new DomainError(TeamErrors.groupNotFound);
  return g;
};

const checkedQuota = (bytes: number) => {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new DomainError(CommonErrors.validation, { field: 'quota' });
  return bytes;
};

const decide = (command: TeamCommand, state: TeamState): TeamEvent[] => {
  switch (command.type) {
    case 'CreateTeam': {
      if (state.status !== 'none') {
        if (state.ownerId === command.data.ownerId) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      if (!isTeamPlan(command.data.planKind)) throw new DomainError(TeamErrors.notTeamPlan);
      return [{ type: 'TeamCreated', data: { ...command.data } }];
    }
    case 'ChangeTeamPlan': {
      const team = openTeam(state);
      if (!isTeamPlan(command.data.planKind)) throw new DomainError(TeamErrors.notTeamPlan);
      return team.planKind === command.data.planKind ? [] : [{ type: 'TeamPlanChanged', data: { planKind: command.data.planKind } }];
    }
    case 'InviteMembers': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const { invitees, seatLimit } = command.data;
      const quotaBytes = checkedQuota(command.data.quotaBytes);
      const keys = new Set<string>();
      for (const i of invitees) {
        if (keys.has(i.emailKey)) throw new DomainError(TeamErrors.alreadyAdded, { memberId: i.memberId });
        keys.add(i.emailKey);
        const refusal = inviteRefusal(team, i.emailKey, i.account);
        if (refusal) throw new DomainError(refusal, { memberId: i.memberId });
      }
      if (seatsTaken(team) + invitees.length > seatLimit) throw new DomainError(TeamErrors.memberLimit, { seatLimit, taken: seatsTaken(team) });
      return invitees.map((i) => ({
        type: 'TeamMemberInvited' as const,
        data: { memberId: i.memberId, inviteId: i.inviteId, emailKey: i.emailKey, quotaBytes, invitedBy: command.data.actor.userId },
      }));
    }
    case 'CreateInviteLink': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const { linkId, tokenHash } = command.data;
      if (team.links[linkId]) return [];
      return [{ type: 'TeamInviteLinkCreated', data: { linkId, tokenHash, quotaBytes: checkedQuota(command.data.quotaBytes) } }];
    }
    case 'RevokeInviteLink': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const link = team.links[command.data.linkId];
      if (!link) throw new DomainError(TeamErrors.inviteInvalid);
      return link.revoked ? [] : [{ type: 'TeamInviteLinkRevoked', data: { linkId: command.data.linkId } }];
    }
    case 'JoinTeam': {
      const team = openTeam(state);
      const { account, emailKey, via, seatLimit } = command.data;
      if (via.kind === 'invite') {
        const pending = Object.values(team.members).find((m) => m.inviteId === via.inviteId);
        if (!pending) throw new DomainError(TeamErrors.inviteInvalid);
        if (pending.userId === account.userId) return [];
        if (pending.status !== 'pending') throw new DomainError(TeamErrors.inviteInvalid);
        if (pending.emailKey !== emailKey) throw new DomainError(TeamErrors.inviteForOther);
        const others = { ...team, members: Object.fromEntries(Object.entries(team.members).filter(([id]) => id !== pending.memberId)) };
        const refusal = inviteRefusal(others, emailKey, account);
        if (refusal) throw new DomainError(refusal);
        return [{ type: 'TeamMemberJoined', data: { memberId: pending.memberId, userId: account.userId, via: 'invite', quotaBytes: pending.quotaBytes } }];
      }
      const link = team.links[via.linkId];
      if (!link) throw new DomainError(TeamErrors.inviteInvalid);
      if (link.revoked) throw new DomainError(AccountErrors.inviteRevoked);
      if (Object.values(team.members).some((m) => m.userId === account.userId)) return [];
      const refusal = inviteRefusal(team, emailKey, account);
      if (refusal) throw new DomainError(refusal);
      if (seatsTaken(team) + 1 > seatLimit) throw new DomainError(TeamErrors.memberLimit, { seatLimit, taken: seatsTaken(team) });
      return [{ type: 'TeamMemberJoined', data: { memberId: via.memberId, userId: account.userId, via: 'link', quotaBytes: link.quotaBytes } }];
    }
    case 'RemoveMember': {
      const team = openTeam(state);
      const m = changeable(team, command.data.actor, command.data.memberId);
      return [{ type: 'TeamMemberRemoved', data: { memberId: m.memberId, userId: m.userId } }];
    }
    case 'SuspendMember': {
      const team = openTeam(state);
      const m = changeable(team, command.data.actor, command.data.memberId);
      if (m.status === 'suspended') return [];
      if (m.status !== 'joined') throw new DomainError(TeamErrors.inactiveUser);
      return [{ type: 'TeamMemberSuspended', data: { memberId: m.memberId } }];
    }
    case 'UnsuspendMember': {
      const team = openTeam(state);
      const m = changeable(team, command.data.actor, command.data.memberId);
      return m.status === 'suspended' ? [{ type: 'TeamMemberUnsuspended', data: { memberId: m.memberId } }] : [];
    }
    case 'SetMemberQuota': {
      const team = openTeam(state);
      const m = changeable(team, command.data.actor, command.data.memberId);
      if (m.status === 'suspended') throw new DomainError(TeamErrors.quotaWithoutAccess);
      const quotaBytes = checkedQuota(command.data.quotaBytes);
      return m.quotaBytes === quotaBytes ? [] : [{ type: 'TeamMemberQuotaSet', data: { memberId: m.memberId, quotaBytes } }];
    }
    case 'SetMemberRole': {
      const team = openTeam(state);
      manager(team, command.data.actor, true);
      const m = changeable(team, command.data.actor, command.data.memberId);
      if (m.status !== 'joined' && command.data.role === 'co_admin_member') throw new DomainError(TeamErrors.inactiveUser);
      return m.role === command.data.role ? [] : [{ type: 'TeamMemberRoleChanged', data: { memberId: m.memberId, role: command.data.role } }];
    }
    case 'SetForbiddenActions': {
      const team = openTeam(state);
      const m = changeable(team, command.data.actor, command.data.memberId);
      const actions = [...new Set(command.data.actions)].sort();
      return actions.join() === [...m.forbiddenActions].sort().join()
        ? []
        : [{ type: 'TeamMemberForbiddenActionsSet', data: { memberId: m.memberId, actions } }];
    }
    case 'CreateGroup': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const existing = team.groups[command.data.groupId];
      const name = checkedGroupName(team, command.data.groupId, command.data.name);
      if (existing) {
        if (existing.name === name) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      return [{ type: 'TeamGroupCreated', data: { groupId: command.data.groupId, name } }];
    }
    case 'RenameGroup': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const g = groupOf(team, command.data.groupId);
      const name = checkedGroupName(team, g.groupId, command.data.name);
      return name === g.name ? [] : [{ type: 'TeamGroupRenamed', data: { groupId: g.groupId, name } }];
    }
    case 'DeleteGroup': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const g = team.groups[command.data.groupId];
      return g ? [{ type: 'TeamGroupDeleted', data: { groupId: g.groupId } }] : [];
    }
    case 'SetGroupMembers': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const g = groupOf(team, command.data.groupId);
      const memberIds = [...new Set(command.data.memberIds)];
      for (const id of memberIds)
        if (!team.members[id] || team.members[id].role === 'admin') throw new DomainError(TeamErrors.memberNotFound, { memberId: id });
      return memberIds.join() === g.memberIds.join() ? [] : [{ type: 'TeamGroupMembersSet', data: { groupId: g.groupId, memberIds } }];
    }
    case 'SetItemPermissions': {
      const team = openTeam(state);
      manager(team, command.data.actor);
      const { path, storageId } = command.data;
      const itemId = path[path.length - 1];
      if (!itemId) throw new DomainError(CommonErrors.validation, { field: 'path' });
      for (const g of command.data.grants) {
        const known =
          g.principal.kind === 'group'
            ? team.groups[g.principal.id] !== undefined
            : Object.values(team.members).some((m) => m.userId === g.principal.id && m.role !== 'admin');
        if (!known) throw new DomainError(g.principal.kind === 'group' ? TeamErrors.groupNotFound : TeamErrors.memberNotFound, { principal: g.principal });
      }
      checkItemGrants(path, command.data.grants, indexGrants(team.grants));
      const grants = command.data.grants.map((g) => ({ principal: { ...g.principal }, level: g.level }));
      return [{ type: 'TeamItemPermissionsSet', data: { storageId, itemId, grants } }];
    }
    case 'CloseTeam': {
      if (state.status !== 'open') return [];
      return [{ type: 'TeamClosed', data: { reason: command.data.reason } }];
    }
    case 'DropPurgedMember': {
      if (state.status === 'none') return [];
      const m = Object.values(state.members).find((x) => x.userId === command.data.userId);
      if (!m || m.role === 'admin') return [];
      return [{ type: 'TeamMemberRemoved', data: { memberId: m.memberId, userId: m.userId } }];
    }
    case 'ForgetTeam': {
      if (state.status === 'none' || state.forgotten) return [];
      return [{ type: 'TeamForgotten', data: { at: command.metadata.now.toISOString() } }];
    }
    default:
      return assertNever(command);
  }
};

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = { decide, evolve: evolveTeam, initialState: initialTeamState };

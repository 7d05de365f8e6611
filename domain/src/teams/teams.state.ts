import type { PlanKind } from '../billing/billing.catalogue';
import { withItemGrants, type Grant } from './permissions';
import type { ForbiddenAction, MemberRole, MemberStatus, TeamEvent } from './teams.events';

export interface TeamMember {
  readonly memberId: string;
  /** null while an e-mail invite is pending. */
  readonly userId: string | null;
  readonly emailKey: string | null;
  readonly inviteId: string | null;
  readonly role: MemberRole;
  readonly status: MemberStatus;
  readonly quotaBytes: number;
  readonly forbiddenActions: readonly ForbiddenAction[];
}

export interface TeamGroup {
  readonly groupId: string;
  readonly name: string;
  readonly memberIds: readonly string[];
}

export type TeamState =
  | { readonly status: 'none' }
  | {
      readonly status: 'open' | 'closed';
      readonly teamId: string;
      readonly ownerId: string;
      readonly planKind: PlanKind;
      readonly members: Readonly<Record<string, TeamMember>>;
      readonly links: Readonly<Record<string, { readonly tokenHash: string; readonly quotaBytes: number; readonly revoked: boolean }>>;
      readonly groups: Readonly<Record<string, TeamGroup>>;
      readonly grants: readonly Grant[];
      /** The owner's account was purged and the stream's personal data forgotten. */
      readonly forgotten?: boolean;
    };
export type ExistingTeam = Exclude<TeamState, { status: 'none' }>;

export const initialTeamState = (): TeamState => ({ status: 'none' });

const withMember = (s: ExistingTeam, memberId: string, change: Partial<TeamMember>): ExistingTeam => {
  const m = s.members[memberId];
  return m ? { ...s, members: { ...s.members, [memberId]: { ...m, ...change } } } : s;
};

export const evolveTeam = (state: TeamState, event: TeamEvent): TeamState => {
  if (event.type === 'TeamCreated') {
    const { teamId, ownerId, planKind } = event.data;
    const admin: TeamMember = {
      memberId: ownerId,
      userId: ownerId,
      emailKey: null,
      inviteId: null,
      role: 'admin',
      status: 'joined',
      quotaBytes: 0,
      forbiddenActions: [],
    };
    return { status: 'open', teamId, ownerId, planKind, members: { [ownerId]: admin }, links: {}, groups: {}, grants: [] };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'TeamPlanChanged':
      return { ...state, planKind: event.data.planKind };
    case 'TeamMemberInvited': {
      const { memberId, inviteId, emailKey, quotaBytes } = event.data;
      const member: TeamMember = { memberId, userId: null, emailKey, inviteId, role: 'member', status: 'pending', quotaBytes, forbiddenActions: [] };
      return { ...state, members: { ...state.members, [memberId]: member } };
    }
    case 'TeamInviteLinkCreated':
      return {
        ...state,
        links: { ...state.links, [event.data.linkId]: { tokenHash: event.data.tokenHash, quotaBytes: event.data.quotaBytes, revoked: false } },
      };
    case 'TeamInviteLinkRevoked': {
      const link = state.links[event.data.linkId];
      return link ? { ...state, links: { ...state.links, [event.data.linkId]: { ...link, revoked: true } } } : state;
    }
    case 'TeamMemberJoined': {
      const { memberId, userId, quotaBytes } = event.data;
      const existing = state.members[memberId];
      const member: TeamMember = existing
        ? { ...existing, userId, status: 'joined' }
        : { memberId, userId, emailKey: null, inviteId: null, role: 'member', status: 'joined', quotaBytes, forbiddenActions: [] };
      return { ...state, members: { ...state.members, [memberId]: member } };
    }
    case 'TeamMemberRemoved': {
      const { [event.data.memberId]: _gone, ...members } = state.members;
      const groups = Object.fromEntries(
        Object.entries(state.groups).map(([id, g]) => [id, { ...g, memberIds: g.memberIds.filter((m) => m !== event.data.memberId) }]),
      );
      const removed = event.data.userId;
      const grants = removed === null ? state.grants : state.grants.filter((g) => !(g.principal.kind === 'user' && g.principal.id === removed));
      return { ...state, members, groups, grants };
    }
    case 'TeamMemberSuspended':
      return withMember(state, event.data.memberId, { status: 'suspended' });
    case 'TeamMemberUnsuspended':
      return withMember(state, event.data.memberId, { status: 'joined' });
    case 'TeamMemberQuotaSet':
      return withMember(state, event.data.memberId, { quotaBytes: event.data.quotaBytes });
    case 'TeamMemberRoleChanged':
      return withMember(state, event.data.memberId, { role: event.data.role });
    case 'TeamMemberForbiddenActionsSet':
      return withMember(state, event.data.memberId, { forbiddenActions: event.data.actions });
    case 'TeamGroupCreated':
      return { ...state, groups: { ...state.groups, [event.data.groupId]: { groupId: event.data.groupId, name: event.data.name, memberIds: [] } } };
    case 'TeamGroupRenamed': {
      const g = state.groups[event.data.groupId];
      return g ? { ...state, groups: { ...state.groups, [g.groupId]: { ...g, name: event.data.name } } } : state;
    }
    case 'TeamGroupDeleted': {
      const { [event.data.groupId]: _gone, ...groups } = state.groups;
      return { ...state, groups, grants: state.grants.filter((g) => !(g.principal.kind === 'group' && g.principal.id === event.data.groupId)) };
    }
    case 'TeamGroupMembersSet': {
      const g = state.groups[event.data.groupId];
      return g ? { ...state, groups: { ...state.groups, [g.groupId]: { ...g, memberIds: event.data.memberIds } } } : state;
    }
    case 'TeamItemPermissionsSet':
      return { ...state, grants: withItemGrants(state.grants, event.data.itemId, event.data.grants) };
    case 'TeamClosed':
      return { ...state, status: 'closed' };
    case 'TeamForgotten':
      return { ...state, status: 'closed', groups: {}, forgotten: true };
  }
};

/** Seats taken: every member but the admin, pending invites included. */
export const seatsTaken = (team: ExistingTeam): number => Object.values(team.members).filter((m) => m.role !== 'admin').length;

const ROLE_ORDER: Record<MemberRole, number> = { admin: 0, co_admin_member: 1, member: 2 };
const STATUS_ORDER: Record<MemberStatus, number> = { joined: 0, pending: 1, suspended: 2 };
/** The spec's member order: admin, co-admins, active members, then the others (pending, suspended); a given key breaks ties. */
export const memberOrder =
  <M extends Pick<TeamMember, 'role' | 'status'>>(tie: (m: M) => string) =>
  (a: M, b: M): number =>
    ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || tie(a).localeCompare(tie(b));

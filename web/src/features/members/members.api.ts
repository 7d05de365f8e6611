import { api } from '../../api/client';

export type MemberRole = 'admin' | 'co_admin_member' | 'member';
export type MemberStatus = 'pending' | 'joined' | 'suspended';

export interface Member {
  memberId: string;
  userId: string | null;
  email: string | null;
  role: MemberRole;
  status: MemberStatus;
  /** GB. */
  quota: number;
  quotaBytes: number;
  forbiddenActions: ('dropbox' | 'createRootFolder')[];
  groupIds: string[];
  createdAt: string;
}

export interface MemberRole$ {
  teamId: string | null;
  ownerId: string | null;
  role: MemberRole | null;
  status: MemberStatus | null;
  isCoAdmin: boolean;
  freeSeats: number;
}

export interface Group {
  id: string;
  name: string;
  /** Member ids (not user ids). */
  memberIds: string[];
  createdAt: string;
}

/** What the team's activity log tells (spec §3, Activity log entry). */
export const ACTIVITY_TYPES = [
  'created',
  'uploaded',
  'copied',
  'renamed',
  'moved',
  'trashed',
  'restored',
  'deleted',
  'shared',
  'member_joined',
  'member_removed',
  'member_suspended',
  'member_unsuspended',
  'member_role_changed',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export interface ActivityEntry {
  id: string;
  type: ActivityType;
  sourcePath: string | null;
  destinationPath: string | null;
  actorId: string | null;
  actorEmail: string | null;
  /** The member an entry about membership is about. */
  memberId: string | null;
  at: string;
}

export interface ActivityFilter {
  type?: ActivityType;
  memberId?: string;
}

/** The spec's page size for members (section 9). */
export const MEMBERS_PAGE_SIZE = 50;
/** The members call's largest page: more than a team's seats can hold. */
const MEMBERS_PICK_SIZE = 500;

const team = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

export const membersApi = {
  role: (userId: string) => api.get<MemberRole$>(`/users/${encodeURIComponent(userId)}/member-role/`),
  members: (teamId: string, page: number) =>
    api.get<{ data: Member[]; total: number; page: number; pageSize: number }>(`${team(teamId)}/members/`, { page, pageSize: MEMBERS_PAGE_SIZE }),
  /** Every member at once (the call's largest page), for choosing among them: a group's members, a grant's member. */
  everyone: (teamId: string) => api.get<{ data: Member[] }>(`${team(teamId)}/members/`, { page: 1, pageSize: MEMBERS_PICK_SIZE }).then((answer) => answer.data),
  invite: (teamId: string, emails: string, quota: number | undefined) =>
    api.post<{ data: { memberId: string; email: string }[] }>(`${team(teamId)}/invites/`, quota === undefined ? { emails } : { emails, quota }),
  change: (
    teamId: string,
    memberId: string,
    body: Partial<Pick<Member, 'quota' | 'forbiddenActions'>> & { role?: 'co_admin_member' | 'member'; status?: 'suspended' | 'joined' },
  ) => api.request<Member>('PATCH', `${team(teamId)}/members/${encodeURIComponent(memberId)}/`, { body }),
  remove: (teamId: string, memberId: string) => api.delete<null>(`${team(teamId)}/members/${encodeURIComponent(memberId)}/`),
  activity: (teamId: string, page: number, filter: ActivityFilter) =>
    api.get<{ data: ActivityEntry[]; total: number; page: number; pageSize: number }>(`${team(teamId)}/activity/`, { page, ...filter }),
  groups: (teamId: string) => api.get<Group[]>(`${team(teamId)}/groups/`),
  createGroup: (teamId: string, name: string) => api.post<Group>(`${team(teamId)}/groups/`, { name }),
  renameGroup: (teamId: string, groupId: string, name: string) =>
    api.request<Group>('PATCH', `${team(teamId)}/groups/${encodeURIComponent(groupId)}/`, { body: { name } }),
  deleteGroup: (teamId: string, groupId: string) => api.delete<null>(`${team(teamId)}/groups/${encodeURIComponent(groupId)}/`),
  setGroupMembers: (teamId: string, groupId: string, memberIds: string[]) =>
    api.put<Group>(`${team(teamId)}/groups/${encodeURIComponent(groupId)}/members/`, { memberIds }),
  accept: (token: string) => api.post<{ teamId: string; memberId: string }>(`/team-invites/${encodeURIComponent(token)}/accept`),
};

const PENDING_INVITE = 'axel.pendingInvite';

/** An invite link's token, kept from the sign-in or sign-up page until a session can accept it. */
export const pendingInvite = {
  keep: (token: string) => {
    try {
      localStorage.setItem(PENDING_INVITE, token);
    } catch {
      /* storage refused: the link can be opened again once signed in */
    }
  },
  take: (): string | null => {
    try {
      const token = localStorage.getItem(PENDING_INVITE);
      localStorage.removeItem(PENDING_INVITE);
      return token;
    } catch {
      return null;
    }
  },
};

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

/** The spec's page size for members (section 9). */
export const MEMBERS_PAGE_SIZE = 50;

const team = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

export const membersApi = {
  role: (userId: string) => api.get<MemberRole$>(`/users/${encodeURIComponent(userId)}/member-role/`),
  members: (teamId: string, page: number) =>
    api.get<{ data: Member[]; total: number; page: number; pageSize: number }>(`${team(teamId)}/members/`, { page, pageSize: MEMBERS_PAGE_SIZE }),
  invite: (teamId: string, emails: string, quota: number | undefined) =>
    api.post<{ data: { memberId: string; email: string }[] }>(`${team(teamId)}/invites/`, quota === undefined ? { emails } : { emails, quota }),
  change: (
    teamId: string,
    memberId: string,
    body: Partial<Pick<Member, 'quota' | 'forbiddenActions'>> & { role?: 'co_admin_member' | 'member'; status?: 'suspended' | 'joined' },
  ) => api.request<Member>('PATCH', `${team(teamId)}/members/${encodeURIComponent(memberId)}/`, { body }),
  remove: (teamId: string, memberId: string) => api.delete<null>(`${team(teamId)}/members/${encodeURIComponent(memberId)}/`),
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

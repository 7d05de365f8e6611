import type { Grant, MemberRole, MemberStatus, Person, PermissionLevel, PlanKind } from '@axel/domain';
import type { Queryable } from '@axel/platform';

export interface TeamRow {
  id: string;
  owner_id: string;
  plan_kind: PlanKind;
  status: 'open' | 'closed';
  role: MemberRole;
  created_at: Date;
}

/** The open teams a person owns or belongs to, with their role in each. */
export const teamsOf = async (db: Queryable, userId: string): Promise<TeamRow[]> =>
  (
    await db.query<TeamRow>(
      `select t.id, t.owner_id, t.plan_kind, t.status, m.role, t.created_at
       from teams t join team_members m on m.team_id = t.id and m.user_id = $1
       where t.status = 'open' order by t.created_at`,
      [userId],
    )
  ).rows;

export interface TeamMemberRow {
  member_id: string;
  user_id: string | null;
  email: string | null;
  role: MemberRole;
  status: MemberStatus;
  quota_bytes: string;
  forbidden_actions: string[];
  group_ids: string[];
  created_at: Date;
}

const MEMBER_COLUMNS = `select m.member_id, m.user_id, coalesce(u.email, i.email) as email, m.role, m.status, m.quota_bytes, m.forbidden_actions, m.created_at,
            coalesce((select array_agg(gm.group_id order by gm.group_id) from team_group_members gm where gm.team_id = m.team_id and gm.member_id = m.member_id), '{}') as group_ids`;
const MEMBER_FROM = `from team_members m
     left join users u on u.id = m.user_id
     left join team_invites i on i.invite_id = m.invite_id`;

/**
 * A page of a team's members in the spec's order (admin, co-admins, joined members, then pending
 * and suspended ones), by address within each; `total` counts them all.
 */
export const teamMembersPage = async (
  db: Queryable,
  teamId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: TeamMemberRow[]; total: number }> => {
  const { rows } = await db.query<TeamMemberRow & { total: string }>(
    `${MEMBER_COLUMNS}, count(*) over () as total
     ${MEMBER_FROM}
     where m.team_id = $1
     order by case m.role when 'admin' then 0 when 'co_admin_member' then 1 else 2 end,
              case m.status when 'joined' then 0 when 'pending' then 1 else 2 end,
              lower(coalesce(u.email, i.email, '')), m.member_id
     limit $2 offset $3`,
    [teamId, page.limit, page.offset],
  );
  return { rows: rows.map(({ total: _t, ...r }) => r), total: rows.length ? Number(rows[0]!.total) : 0 };
};

/** One member of a team, by their member id or by their account's id; undefined when the team has no such member. */
export const teamMember = async (db: Queryable, teamId: string, who: { memberId: string } | { userId: string }): Promise<TeamMemberRow | undefined> =>
  (
    await db.query<TeamMemberRow>(
      `${MEMBER_COLUMNS}
       ${MEMBER_FROM}
       where m.team_id = $1 and ${'memberId' in who ? 'm.member_id' : 'm.user_id'} = $2`,
      [teamId, 'memberId' in who ? who.memberId : who.userId],
    )
  ).rows[0];

/** A person as the permission function sees them in a team: their role and groups; undefined when not a member. */
export const personInTeam = async (db: Queryable, teamId: string, userId: string): Promise<(Person & { status: MemberStatus }) | undefined> => {
  const { rows } = await db.query<{ role: MemberRole; status: MemberStatus; group_ids: string[] }>(
    `select m.role, m.status,
            coalesce((select array_agg(gm.group_id) from team_group_members gm where gm.team_id = m.team_id and gm.member_id = m.member_id), '{}') as group_ids
     from team_members m where m.team_id = $1 and m.user_id = $2`,
    [teamId, userId],
  );
  const r = rows[0];
  return r && { userId, role: r.role, status: r.status, groupIds: r.group_ids };
};

/** The grants on the given items (a path from the top folder down), for `effectiveLevel`. */
export const grantsOn = async (db: Queryable, itemIds: readonly string[]): Promise<Grant[]> => {
  if (itemIds.length === 0) return [];
  const { rows } = await db.query<{ item_id: string; principal_kind: 'user' | 'group'; principal_id: string; level: PermissionLevel }>(
    'select item_id, principal_kind, principal_id, level from team_grants where item_id = any($1::text[])',
    [itemIds],
  );
  return rows.map((r) => ({ itemId: r.item_id, principal: { kind: r.principal_kind, id: r.principal_id }, level: r.level }));
};

/** An open e-mail invite by the hash of its link's token. */
export const inviteByTokenHash = async (db: Queryable, tokenHash: string): Promise<{ invite_id: string; team_id: string } | undefined> =>
  (await db.query<{ invite_id: string; team_id: string }>('select invite_id, team_id from team_invites where token_hash = $1', [tokenHash])).rows[0];

export interface TeamPersonRow {
  user_id: string;
  role: MemberRole;
  status: MemberStatus;
  group_ids: string[];
}

/** Every member of a team with an account (pending invites have none), with their groups: whom a permission can reach. */
export const teamPeople = async (db: Queryable, teamId: string): Promise<TeamPersonRow[]> =>
  (
    await db.query<TeamPersonRow>(
      `select m.user_id, m.role, m.status,
              coalesce((select array_agg(gm.group_id order by gm.group_id) from team_group_members gm where gm.team_id = m.team_id and gm.member_id = m.member_id), '{}') as group_ids
       from team_members m where m.team_id = $1 and m.user_id is not null
       order by case m.role when 'admin' then 0 when 'co_admin_member' then 1 else 2 end, m.created_at, m.member_id`,
      [teamId],
    )
  ).rows;

/** The open team a person belongs to as a member (not as its admin), if any. */
export const teamJoinedBy = async (db: Queryable, userId: string): Promise<{ team_id: string; owner_id: string } | undefined> =>
  (
    await db.query<{ team_id: string; owner_id: string }>(
      `select t.id as team_id, t.owner_id from team_members m join teams t on t.id = m.team_id
       where m.user_id = $1 and m.role <> 'admin' and t.status = 'open' limit 1`,
      [userId],
    )
  ).rows[0];

export interface TeamGroupRow {
  group_id: string;
  name: string;
  member_ids: string[];
  created_at: Date;
}

/** A team's groups by name, each with its members. */
export const teamGroups = async (db: Queryable, teamId: string): Promise<TeamGroupRow[]> =>
  (
    await db.query<TeamGroupRow>(
      `select g.group_id, g.name, g.created_at,
              coalesce((select array_agg(gm.member_id order by gm.member_id) from team_group_members gm where gm.team_id = g.team_id and gm.group_id = g.group_id), '{}') as member_ids
       from team_groups g where g.team_id = $1 order by lower(g.name), g.group_id`,
      [teamId],
    )
  ).rows;

/** A joined (not pending, not suspended) member of an open team, as the permission function sees them, with their forbidden actions. */
export const activeTeamMember = async (db: Queryable, teamId: string, userId: string): Promise<(Person & { forbiddenActions: string[] }) | undefined> => {
  const { rows } = await db.query<{ role: MemberRole; group_ids: string[]; forbidden_actions: string[] }>(
    `select m.role, m.forbidden_actions,
            coalesce((select array_agg(gm.group_id) from team_group_members gm where gm.team_id = m.team_id and gm.member_id = m.member_id), '{}') as group_ids
     from team_members m join teams t on t.id = m.team_id and t.status = 'open'
     where m.team_id = $1 and m.user_id = $2 and m.status = 'joined'`,
    [teamId, userId],
  );
  const r = rows[0];
  return r && { userId, role: r.role, groupIds: r.group_ids, forbiddenActions: r.forbidden_actions };
};

/**
 * The items of a storage a person can reach a grant through: every item granted to them or one of
 * their groups (any level above none), and every folder above such an item (to walk down to it).
 */
export const reachableItems = async (db: Queryable, storageId: string, person: Person): Promise<Set<string>> => {
  const { rows } = await db.query<{ id: string }>(
    `with recursive up(id, folder, depth) as (
       select i.id, i.folder, 0 from team_grants g join storage_items i on i.id = g.item_id and i.storage_id = g.storage_id
        where g.storage_id = $1 and ((g.principal_kind = 'user' and g.principal_id = $2) or (g.principal_kind = 'group' and g.principal_id = any($3::text[])))
       union
       select i.id, i.folder, up.depth + 1 from storage_items i join up on i.id = up.folder and i.storage_id = $1 where up.depth < 1000
     )
     select distinct id from up`,
    [storageId, person.userId, person.groupIds],
  );
  return new Set(rows.map((r) => r.id));
};

import { levelRank, teamIdOfStream, type TeamEvent, type TeamInviteEvent } from '@axel/domain';
import { defineProjection } from '../runner/projection';

const INVITE_STREAM = 'team-invite-';

/**
 * Teams, their members, groups and folder grants, for listing members in the spec's order and for
 * the permission check (`team_grants` holds a level's rank, so the highest grant over a person's
 * principals on a path is one indexed `max`). Pending invites' addresses sit in `team_invites`,
 * gone when the invite is answered or withdrawn; joined members' addresses come from `users`.
 */
export const teamsProjection = defineProjection<
  'teams' | 'team_members' | 'team_invites' | 'team_groups' | 'team_group_members' | 'team_grants',
  TeamEvent | TeamInviteEvent
>({
  name: 'teams',
  handles: [
    'TeamCreated',
    'TeamPlanChanged',
    'TeamMemberInvited',
    'TeamMemberJoined',
    'TeamMemberRemoved',
    'TeamMemberSuspended',
    'TeamMemberUnsuspended',
    'TeamMemberQuotaSet',
    'TeamMemberRoleChanged',
    'TeamMemberForbiddenActionsSet',
    'TeamGroupCreated',
    'TeamGroupRenamed',
    'TeamGroupDeleted',
    'TeamGroupMembersSet',
    'TeamItemPermissionsSet',
    'TeamClosed',
    'TeamForgotten',
    'TeamInviteIssued',
    'TeamInviteClosed',
  ],
  tables: {
    teams: (t) => `create table "${t}" (
        id text primary key,
        owner_id text not null,
        plan_kind text not null,
        status text not null,
        created_at timestamptz not null,
        modified_at timestamptz not null
      );
      create index on "${t}" (owner_id);`,
    team_members: (t) => `create table "${t}" (
        team_id text not null,
        member_id text not null,
        user_id text,
        invite_id text,
        role text not null,
        status text not null,
        quota_bytes bigint not null,
        forbidden_actions text[] not null default '{}',
        created_at timestamptz not null,
        modified_at timestamptz not null,
        primary key (team_id, member_id)
      );
      create index on "${t}" (user_id);`,
    team_invites: (t) => `create table "${t}" (
        invite_id text primary key,
        team_id text not null,
        email text not null,
        token_hash text not null
      );
      create index on "${t}" (token_hash);`,
    team_groups: (t) => `create table "${t}" (
        team_id text not null,
        group_id text not null,
        name text not null,
        created_at timestamptz not null,
        primary key (team_id, group_id)
      );`,
    team_group_members: (t) => `create table "${t}" (
        team_id text not null,
        group_id text not null,
        member_id text not null,
        primary key (team_id, group_id, member_id)
      );
      create index on "${t}" (team_id, member_id);`,
    team_grants: (t) => `create table "${t}" (
        team_id text not null,
        storage_id text not null,
        item_id text not null,
        principal_kind text not null,
        principal_id text not null,
        level text not null,
        level_rank smallint not null,
        primary key (item_id, principal_kind, principal_id)
      );
      create index on "${t}" (team_id, principal_kind, principal_id);`,
  },
  async apply(tx, events, t) {
    const T = `"${t.teams}"`;
    const M = `"${t.team_members}"`;
    const I = `"${t.team_invites}"`;
    const G = `"${t.team_groups}"`;
    const GM = `"${t.team_group_members}"`;
    const P = `"${t.team_grants}"`;
    for (const e of events) {
      const at = e.recordedAt;
      if (e.streamName.startsWith(INVITE_STREAM)) {
        const inviteId = e.streamName.slice(INVITE_STREAM.length);
        if (e.type === 'TeamInviteIssued')
          await tx.query(`insert into ${I} (invite_id, team_id, email, token_hash) values ($1, $2, $3, $4) on conflict (invite_id) do nothing`, [
            inviteId,
            e.data.teamId,
            e.data.email,
            e.data.tokenHash,
          ]);
        else if (e.type === 'TeamInviteClosed') await tx.query(`delete from ${I} where invite_id = $1`, [inviteId]);
        continue;
      }
      const teamId = teamIdOfStream(e.streamName);
      const member = (set: string, memberId: string, values: unknown[]) =>
        tx.query(`update ${M} set ${set}, modified_at = $3 where team_id = $1 and member_id = $2`, [teamId, memberId, at, ...values]);
      switch (e.type) {
        case 'TeamCreated':
          await tx.query(
            `insert into ${T} (id, owner_id, plan_kind, status, created_at, modified_at) values ($1, $2, $3, 'open', $4, $4) on conflict (id) do nothing`,
            [teamId, e.data.ownerId, e.data.planKind, at],
          );
          await tx.query(
            `insert into ${M} (team_id, member_id, user_id, role, status, quota_bytes, created_at, modified_at)
               values ($1, $2, $2, 'admin', 'joined', 0, $3, $3) on conflict do nothing`,
            [teamId, e.data.ownerId, at],
          );
          break;
        case 'TeamPlanChanged':
          await tx.query(`update ${T} set plan_kind = $2, modified_at = $3 where id = $1`, [teamId, e.data.planKind, at]);
          break;
        case 'TeamMemberInvited':
          await tx.query(
            `insert into ${M} (team_id, member_id, invite_id, role, status, quota_bytes, created_at, modified_at)
               values ($1, $2, $3, 'member', 'pending', $4, $5, $5) on conflict do nothing`,
            [teamId, e.data.memberId, e.data.inviteId, e.data.quotaBytes, at],
          );
          break;
        case 'TeamMemberJoined':
          await tx.query(
            `insert into ${M} (team_id, member_id, user_id, role, status, quota_bytes, created_at, modified_at)
               values ($1, $2, $3, 'member', 'joined', $4, $5, $5)
               on conflict (team_id, member_id) do update set user_id = excluded.user_id, status = 'joined', modified_at = excluded.modified_at`,
            [teamId, e.data.memberId, e.data.userId, e.data.quotaBytes, at],
          );
          break;
        case 'TeamMemberRemoved':
          await tx.query(`delete from ${M} where team_id = $1 and member_id = $2`, [teamId, e.data.memberId]);
          await tx.query(`delete from ${GM} where team_id = $1 and member_id = $2`, [teamId, e.data.memberId]);
          if (e.data.userId) await tx.query(`delete from ${P} where team_id = $1 and principal_kind = 'user' and principal_id = $2`, [teamId, e.data.userId]);
          break;
        case 'TeamMemberSuspended':
          await member(`status = 'suspended'`, e.data.memberId, []);
          break;
        case 'TeamMemberUnsuspended':
          await member(`status = 'joined'`, e.data.memberId, []);
          break;
        case 'TeamMemberQuotaSet':
          await member('quota_bytes = $4', e.data.memberId, [e.data.quotaBytes]);
          break;
        case 'TeamMemberRoleChanged':
          await member('role = $4', e.data.memberId, [e.data.role]);
          break;
        case 'TeamMemberForbiddenActionsSet':
          await member('forbidden_actions = $4', e.data.memberId, [e.data.actions]);
          break;
        case 'TeamGroupCreated':
          await tx.query(`insert into ${G} (team_id, group_id, name, created_at) values ($1, $2, $3, $4) on conflict do nothing`, [
            teamId,
            e.data.groupId,
            e.data.name,
            at,
          ]);
          break;
        case 'TeamGroupRenamed':
          await tx.query(`update ${G} set name = $3 where team_id = $1 and group_id = $2`, [teamId, e.data.groupId, e.data.name]);
          break;
        case 'TeamGroupDeleted':
          await tx.query(`delete from ${G} where team_id = $1 and group_id = $2`, [teamId, e.data.groupId]);
          await tx.query(`delete from ${GM} where team_id = $1 and group_id = $2`, [teamId, e.data.groupId]);
          await tx.query(`delete from ${P} where team_id = $1 and principal_kind = 'group' and principal_id = $2`, [teamId, e.data.groupId]);
          break;
        case 'TeamGroupMembersSet':
          await tx.query(`delete from ${GM} where team_id = $1 and group_id = $2`, [teamId, e.data.groupId]);
          await tx.query(`insert into ${GM} (team_id, group_id, member_id) select $1, $2, unnest($3::text[]) on conflict do nothing`, [
            teamId,
            e.data.groupId,
            e.data.memberIds,
          ]);
          break;
        case 'TeamItemPermissionsSet': {
          await tx.query(`delete from ${P} where item_id = $1`, [e.data.itemId]);
          const grants = e.data.grants.filter((g) => g.level !== 'none');
          if (grants.length)
            await tx.query(
              `insert into ${P} (team_id, storage_id, item_id, principal_kind, principal_id, level, level_rank)
                 select $1, $2, $3, unnest($4::text[]), unnest($5::text[]), unnest($6::text[]), unnest($7::smallint[])`,
              [
                teamId,
                e.data.storageId,
                e.data.itemId,
                grants.map((g) => g.principal.kind),
                grants.map((g) => g.principal.id),
                grants.map((g) => g.level),
                grants.map((g) => levelRank(g.level)),
              ],
            );
          break;
        }
        case 'TeamClosed':
          await tx.query(`update ${T} set status = 'closed', modified_at = $2 where id = $1`, [teamId, at]);
          break;
        case 'TeamForgotten':
          await tx.query(`delete from ${G} where team_id = $1`, [teamId]);
          await tx.query(`delete from ${GM} where team_id = $1`, [teamId]);
          await tx.query(`delete from ${I} where team_id = $1`, [teamId]);
          break;
        default:
          break;
      }
    }
  },
});

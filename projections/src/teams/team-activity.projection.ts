import type { AccountPurged } from '@axel/domain/accounts/accounts.events';
import type { ShareEvent } from '@axel/domain/sharing/sharing.events';
import type { StorageEvent } from '@axel/domain/storage/storage.events';
import { teamIdOfStream, type TeamEvent } from '@axel/domain';
import type { PoolClient } from '@axel/platform';
import { defineProjection } from '../runner/projection';

type Source = StorageEvent | TeamEvent | Extract<ShareEvent, { type: 'ShareCreated' }> | AccountPurged;

/** What the team's activity log tells (spec §3, Activity log entry). */
export const TEAM_ACTIVITY_TYPES = [
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
export type TeamActivityType = (typeof TEAM_ACTIVITY_TYPES)[number];

/** The storages a team shares with its members (its owner's online and group storages). */
const TEAM_STORAGE_TYPES = ['online', 'group'];

/**
 * The team's activity log: what its admin and members did in the team's storages, and what
 * happened to its members, with the paths as they were at the time. Paths come from the
 * projection's own copy of the team storages' tree (`team_activity_items`), so they never depend
 * on how far another read model has got. Storages are followed from their opening, teams or not,
 * since a team may open over a storage that already holds folders; log entries are only written
 * while the owner has a team. Paths are personal data: a purged person's entries go with them, a
 * forgotten team's entries with it.
 */
export const teamActivityProjection = defineProjection<'team_activity' | 'team_activity_items' | 'team_activity_storages', Source>({
  name: 'team_activity',
  handles: [
    'StorageOpened',
    'FolderCreated',
    'FileAdded',
    'ItemRenamed',
    'ItemMoved',
    'ItemTrashed',
    'ItemRestored',
    'ItemDeleted',
    'StoragePurged',
    'ShareCreated',
    'AccountPurged',
    'TeamCreated',
    'TeamMemberJoined',
    'TeamMemberRemoved',
    'TeamMemberSuspended',
    'TeamMemberUnsuspended',
    'TeamMemberRoleChanged',
    'TeamClosed',
    'TeamForgotten',
  ],
  tables: {
    team_activity: (t) => `create table "${t}" (
        id text primary key,
        team_id text not null,
        position bigint not null,
        type text not null,
        source_path text,
        destination_path text,
        actor_id text,
        subject_member_id text,
        at timestamptz not null
      );
      create index on "${t}" (team_id, position desc);
      create index on "${t}" (actor_id);`,
    team_activity_items: (t) => `create table "${t}" (
        id text primary key,
        storage_id text not null,
        parent_id text,
        name text not null,
        copied_by text
      );
      create index on "${t}" (storage_id);`,
    team_activity_storages: (t) => `create table "${t}" (
        id text primary key,
        owner_id text not null,
        team_open boolean not null default false
      );
      create index on "${t}" (owner_id);`,
  },
  async apply(tx, events, t) {
    const A = `"${t.team_activity}"`;
    const I = `"${t.team_activity_items}"`;
    const S = `"${t.team_activity_storages}"`;
    const pathOf = (itemId: string) => itemPathIn(tx, I, itemId);
    const log = (
      e: (typeof events)[number],
      teamId: string,
      type: TeamActivityType,
      paths: { source?: string | null; destination?: string | null; member?: string },
    ) =>
      tx.query(
        `insert into ${A} (id, team_id, position, type, source_path, destination_path, actor_id, subject_member_id, at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing`,
        [e.id, teamId, e.position, type, paths.source ?? null, paths.destination ?? null, e.metadata.actorId, paths.member ?? null, e.recordedAt],
      );
    /** The team a storage's events are logged to: its owner's, while that team is open. */
    const teamOfStorage = async (storageId: string) =>
      (await tx.query<{ owner_id: string }>(`select owner_id from ${S} where id = $1 and team_open`, [storageId])).rows[0]?.owner_id;

    for (const e of events) {
      if (e.type === 'AccountPurged') {
        const ownerId = e.streamName.slice('user-'.length);
        await tx.query(`delete from ${A} where actor_id = $1`, [ownerId]);
        await tx.query(`delete from ${I} where storage_id in (select id from ${S} where owner_id = $1)`, [ownerId]);
        await tx.query(`delete from ${S} where owner_id = $1`, [ownerId]);
        continue;
      }
      if (e.type === 'ShareCreated') {
        const teamId = await teamOfStorage(e.data.storageId);
        if (!teamId) continue;
        for (const item of e.data.items) await log(e, teamId, 'shared', { source: await pathOf(item.id) });
        continue;
      }
      if (e.streamName.startsWith('team-')) {
        const teamId = teamIdOfStream(e.streamName);
        switch (e.type) {
          case 'TeamCreated':
            await tx.query(`update ${S} set team_open = true where owner_id = $1`, [e.data.ownerId]);
            break;
          case 'TeamClosed':
            await tx.query(`update ${S} set team_open = false where owner_id = $1`, [teamId]);
            break;
          case 'TeamForgotten':
            await tx.query(`delete from ${A} where team_id = $1`, [teamId]);
            break;
          case 'TeamMemberJoined':
            await log(e, teamId, 'member_joined', { member: e.data.memberId });
            break;
          case 'TeamMemberRemoved':
            await log(e, teamId, 'member_removed', { member: e.data.memberId });
            break;
          case 'TeamMemberSuspended':
            await log(e, teamId, 'member_suspended', { member: e.data.memberId });
            break;
          case 'TeamMemberUnsuspended':
            await log(e, teamId, 'member_unsuspended', { member: e.data.memberId });
            break;
          case 'TeamMemberRoleChanged':
            await log(e, teamId, 'member_role_changed', { member: e.data.memberId });
            break;
          default:
            break;
        }
        continue;
      }
      if (!e.streamName.startsWith('storage-')) continue;
      const storageId = e.streamName.slice('storage-'.length);
      if (e.type === 'StorageOpened') {
        if (TEAM_STORAGE_TYPES.includes(e.data.type))
          await tx.query(
            `insert into ${S} (id, owner_id, team_open)
               values ($1, $2, exists (select 1 from ${S} where owner_id = $2 and team_open)) on conflict (id) do nothing`,
            [storageId, e.data.ownerId],
          );
        continue;
      }
      const followed = (await tx.query(`select 1 from ${S} where id = $1`, [storageId])).rowCount;
      if (!followed) continue;
      const teamId = await teamOfStorage(storageId);
      switch (e.type) {
        case 'FolderCreated':
        case 'FileAdded': {
          const { itemId, parentId, name, copiedFrom } = e.data;
          const copiedBy = copiedFrom ? e.metadata.correlationId : null;
          await tx.query(`insert into ${I} (id, storage_id, parent_id, name, copied_by) values ($1, $2, $3, $4, $5) on conflict (id) do nothing`, [
            itemId,
            storageId,
            parentId,
            name,
            copiedBy,
          ]);
          if (!teamId) break;
          const destination = await pathOf(itemId);
          if (copiedFrom) {
            // a copied folder's contents are copied with it: the log tells the copy of the top item only
            const withParent = parentId ? (await tx.query(`select 1 from ${I} where id = $1 and copied_by = $2`, [parentId, copiedBy])).rowCount : 0;
            if (!withParent) await log(e, teamId, 'copied', { source: await pathOf(copiedFrom), destination });
          } else await log(e, teamId, e.type === 'FolderCreated' ? 'created' : 'uploaded', { destination });
          break;
        }
        case 'ItemRenamed': {
          const source = await pathOf(e.data.itemId);
          await tx.query(`update ${I} set name = $2 where id = $1`, [e.data.itemId, e.data.name]);
          if (teamId) await log(e, teamId, 'renamed', { source, destination: await pathOf(e.data.itemId) });
          break;
        }
        case 'ItemMoved': {
          const source = await pathOf(e.data.itemId);
          await tx.query(`update ${I} set parent_id = $2 where id = $1`, [e.data.itemId, e.data.parentId]);
          if (teamId) await log(e, teamId, 'moved', { source, destination: await pathOf(e.data.itemId) });
          break;
        }
        case 'ItemTrashed':
          if (teamId) await log(e, teamId, 'trashed', { source: await pathOf(e.data.itemId) });
          break;
        case 'ItemRestored':
          await tx.query(`update ${I} set parent_id = $2, name = $3 where id = $1`, [e.data.itemId, e.data.parentId, e.data.name]);
          if (teamId) await log(e, teamId, 'restored', { destination: await pathOf(e.data.itemId) });
          break;
        case 'ItemDeleted': {
          if (teamId) await log(e, teamId, 'deleted', { source: await pathOf(e.data.itemId) });
          await tx.query(`delete from ${I} where id = any($1)`, [[e.data.itemId, ...e.data.descendantIds]]);
          break;
        }
        case 'StoragePurged':
          await tx.query(`delete from ${I} where storage_id = $1`, [storageId]);
          await tx.query(`delete from ${S} where id = $1`, [storageId]);
          break;
        default:
          break;
      }
    }
  },
});

/** An item's path from its storage's root ("/Reports/2026.pdf"), or null when the item is unknown. */
const itemPathIn = async (tx: PoolClient, items: string, itemId: string): Promise<string | null> => {
  const { rows } = await tx.query<{ path: string | null }>(
    `with recursive up(id, parent_id, name, depth) as (
       select id, parent_id, name, 0 from ${items} where id = $1
       union all
       select i.id, i.parent_id, i.name, up.depth + 1 from ${items} i join up on i.id = up.parent_id where up.depth < 1000
     )
     select '/' || string_agg(name, '/' order by depth desc) as path from up`,
    [itemId],
  );
  return rows[0]?.path ?? null;
};

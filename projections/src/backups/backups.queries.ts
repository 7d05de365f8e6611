import type { Queryable } from '@axel/platform';
import { queryPage } from '../shared/paging';

export interface BackupDeviceRow {
  id: string;
  user_id: string;
  name: string;
  platform: string;
  paths: string[];
  storage_id: string;
  folder_id: string;
  status: 'active' | 'stopped';
  last_seen_at: Date | null;
  created_at: Date;
  modified_at: Date;
}

export const listBackupDevices = (db: Queryable, userId: string, limit: number, offset: number) =>
  queryPage<BackupDeviceRow>(db, { select: '*', from: 'backup_devices', where: 'user_id = $1', params: [userId], orderBy: 'created_at, id', limit, offset });

export const findBackupDevice = async (db: Queryable, userId: string, id: string): Promise<BackupDeviceRow | undefined> =>
  (await db.query<BackupDeviceRow>('select * from backup_devices where user_id = $1 and id = $2', [userId, id])).rows[0];

/**
 * Of these items of a storage, those that are a backup's folder or inside one (with `activeOnly`,
 * only backups that run now): found by walking each item's folder chain up to the root.
 */
export const itemsUnderBackups = async (db: Queryable, storageId: string, itemIds: readonly string[], activeOnly: boolean): Promise<Set<string>> => {
  if (!itemIds.length) return new Set();
  const { rows } = await db.query<{ start: string }>(
    `with recursive roots as (
       select folder_id from backup_devices where storage_id = $1 and ($3::boolean = false or status = 'active')
     ), up(start, id, folder, depth) as (
       select i.id, i.id, i.folder, 0 from storage_items i where i.storage_id = $1 and i.id = any($2)
       union all
       select up.start, p.id, p.folder, up.depth + 1 from up join storage_items p on p.id = up.folder and p.storage_id = $1 where up.depth < 1000
     ) select distinct start from up where id in (select folder_id from roots)`,
    [storageId, itemIds, activeOnly],
  );
  return new Set(rows.map((r) => r.start));
};

/** The backup folders of a storage (any status): what the listing marks `isBackup`. */
export const backupFoldersOf = async (db: Queryable, storageId: string): Promise<string[]> =>
  (await db.query<{ folder_id: string }>('select folder_id from backup_devices where storage_id = $1', [storageId])).rows.map((r) => r.folder_id);

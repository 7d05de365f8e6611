import { userIdOfBackupsStream, type BackupEvent } from '@axel/domain/backups/backups.events';
import { defineProjection } from '../runner/projection';

/** Each user's backup devices (`GET /users/{id}/backups/`) and the storage folders they back up into. */
export const backupDevicesProjection = defineProjection<'backup_devices', BackupEvent>({
  name: 'backup_devices',
  handles: ['BackupDeviceRegistered', 'BackupDeviceSeen', 'BackupPathsChanged', 'BackupStopped', 'BackupResumed', 'BackupsForgotten'],
  tables: {
    backup_devices: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      name text not null,
      platform text not null,
      paths jsonb not null,
      storage_id text not null,
      folder_id text not null,
      status text not null,
      last_seen_at timestamptz,
      created_at timestamptz not null,
      modified_at timestamptz not null
    );
    create index on "${t}" (user_id, created_at);
    create index on "${t}" (storage_id);`,
  },
  async apply(tx, events, t) {
    const B = `"${t.backup_devices}"`;
    for (const e of events) {
      const userId = userIdOfBackupsStream(e.streamName);
      const at = e.recordedAt;
      switch (e.type) {
        case 'BackupDeviceRegistered': {
          const d = e.data;
          await tx.query(
            `insert into ${B} (id, user_id, name, platform, paths, storage_id, folder_id, status, last_seen_at, created_at, modified_at)
             values ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $8, $8) on conflict (id) do nothing`,
            [d.backupId, userId, d.name, d.platform, JSON.stringify(d.paths), d.storageId, d.folderId, d.at],
          );
          break;
        }
        case 'BackupDeviceSeen':
          await tx.query(`update ${B} set last_seen_at = $3 where id = $1 and user_id = $2`, [e.data.backupId, userId, e.data.at]);
          break;
        case 'BackupPathsChanged':
          await tx.query(`update ${B} set paths = $3, modified_at = $4 where id = $1 and user_id = $2`, [
            e.data.backupId,
            userId,
            JSON.stringify(e.data.paths),
            at,
          ]);
          break;
        case 'BackupStopped':
        case 'BackupResumed':
          await tx.query(`update ${B} set status = $3, modified_at = $4 where id = $1 and user_id = $2`, [
            e.data.backupId,
            userId,
            e.type === 'BackupStopped' ? 'stopped' : 'active',
            at,
          ]);
          break;
        case 'BackupsForgotten':
          await tx.query(`delete from ${B} where user_id = $1`, [userId]);
          break;
        default:
          break;
      }
    }
  },
});

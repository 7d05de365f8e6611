import { defineErrors } from '../shared/errors';

/** Backup devices (spec §2 settings: backup devices, stop backup; §8 "backup active blocks the action"). */
export const BackupErrors = defineErrors({
  backupActive: { code: 'BACKUP_ACTIVE', status: 409, message: 'Backup is active for this folder: stop the backup first' },
  notFound: { code: 'BACKUP_NOT_FOUND', status: 404, message: 'Backup device not found' },
  invalidName: { code: 'BACKUP_NAME_INVALID', status: 400, message: 'A backup device needs a name of at most 255 characters' },
  invalidPath: { code: 'BACKUP_PATH_INVALID', status: 400, message: 'Backup paths must be absolute, without control characters, at most 1024 characters' },
  tooMany: { code: 'BACKUP_LIMIT', status: 409, message: 'You have reached the number of backup devices you can keep' },
});

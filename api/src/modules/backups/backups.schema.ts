import { BACKUP_PLATFORMS, BACKUPS_PAGE_SIZE } from '@axel/domain';
import { z } from 'zod';

export const UserParams = z.object({ id: z.string().min(1).max(64) });
export const BackupParams = z.object({ id: z.string().min(1).max(64), backupId: z.uuid() });
export const BackupsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(BACKUPS_PAGE_SIZE).default(BACKUPS_PAGE_SIZE),
});
const Paths = z.array(z.string().max(2000)).max(200);
export const RegisterBackupBody = z.object({ name: z.string().max(1000), platform: z.enum(BACKUP_PLATFORMS), paths: Paths });
export const PathsBody = z.object({ paths: Paths });

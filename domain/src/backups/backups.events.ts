import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per user holds their backup devices (the computers and phones that back up into their storage). */
export const backupsStreamName = (userId: string) => `backups-${userId}`;
export const userIdOfBackupsStream = (streamName: string) => streamName.slice('backups-'.length);

export const BACKUP_PLATFORMS = ['windows', 'macos', 'linux', 'android', 'ios'] as const;
export type BackupPlatform = (typeof BACKUP_PLATFORMS)[number];

/** A device starts backing up `paths` into its own folder of the user's storage. */
export const BackupDeviceRegistered = defineEvent(
  'BackupDeviceRegistered',
  z.object({
    backupId: z.string(),
    name: z.string(),
    platform: z.enum(BACKUP_PLATFORMS),
    paths: z.array(z.string()),
    storageId: z.string(),
    folderId: z.string(),
    at: z.string(),
  }),
  { personal: ['name', 'paths'] },
);
/** Recorded at most once per minute: the device is alive and its backup runs. */
export const BackupDeviceSeen = defineEvent('BackupDeviceSeen', z.object({ backupId: z.string(), at: z.string() }));
export const BackupPathsChanged = defineEvent('BackupPathsChanged', z.object({ backupId: z.string(), paths: z.array(z.string()) }), { personal: ['paths'] });
export const BackupStopped = defineEvent('BackupStopped', z.object({ backupId: z.string(), at: z.string() }));
export const BackupResumed = defineEvent('BackupResumed', z.object({ backupId: z.string(), at: z.string() }));
export const BackupsForgotten = defineEvent('BackupsForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const backupEventDefinitions = [BackupDeviceRegistered, BackupDeviceSeen, BackupPathsChanged, BackupStopped, BackupResumed, BackupsForgotten];

export type BackupEvent =
  | EventOf<typeof BackupDeviceRegistered>
  | EventOf<typeof BackupDeviceSeen>
  | EventOf<typeof BackupPathsChanged>
  | EventOf<typeof BackupStopped>
  | EventOf<typeof BackupResumed>
  | EventOf<typeof BackupsForgotten>;

import type { Command } from '../shared/decider';
import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { BackupErrors } from './backups.errors';
import type { BackupEvent, BackupPlatform } from './backups.events';

/** Backup devices listed 100 a page (spec §9). */
export const BACKUPS_PAGE_SIZE = 100;
export const MAX_BACKUP_DEVICES = 100;
export const MAX_BACKUP_PATHS = 50;
/** A device's "last seen" is recorded at most this often. */
export const BACKUP_SEEN_INTERVAL_MS = 60_000;

export type BackupCommand =
  | Command<'RegisterBackupDevice', { backupId: string; name: string; platform: BackupPlatform; paths: readonly string[]; storageId: string; folderId: string }>
  | Command<'RecordBackupSeen', { backupId: string }>
  | Command<'ChangeBackupPaths', { backupId: string; paths: readonly string[] }>
  | Command<'StopBackup', { backupId: string }>
  | Command<'ResumeBackup', { backupId: string }>
  | Command<'ForgetBackups', Record<string, never>>;

export interface BackupDevice {
  readonly id: string;
  readonly name: string;
  readonly platform: BackupPlatform;
  readonly paths: readonly string[];
  readonly storageId: string;
  readonly folderId: string;
  readonly status: 'active' | 'stopped';
  readonly lastSeenAt: string | null;
}

export interface BackupsState {
  readonly devices: Readonly<Record<string, BackupDevice>>;
  readonly forgotten: boolean;
}

export const initialBackupsState = (): BackupsState => ({ devices: {}, forgotten: false });

const withDevice = (state: BackupsState, id: string, change: (d: BackupDevice) => BackupDevice): BackupsState => {
  const d = state.devices[id];
  return d ? { ...state, devices: { ...state.devices, [id]: change(d) } } : state;
};

export const evolveBackups = (state: BackupsState, event: BackupEvent): BackupsState => {
  switch (event.type) {
    case 'BackupDeviceRegistered': {
      const { backupId, name, platform, paths, storageId, folderId, at } = event.data;
      return {
        ...state,
        devices: { ...state.devices, [backupId]: { id: backupId, name, platform, paths, storageId, folderId, status: 'active', lastSeenAt: at } },
      };
    }
    case 'BackupDeviceSeen':
      return withDevice(state, event.data.backupId, (d) => ({ ...d, lastSeenAt: event.data.at }));
    case 'BackupPathsChanged':
      return withDevice(state, event.data.backupId, (d) => ({ ...d, paths: event.data.paths }));
    case 'BackupStopped':
      return withDevice(state, event.data.backupId, (d) => ({ ...d, status: 'stopped' }));
    case 'BackupResumed':
      return withDevice(state, event.data.backupId, (d) => ({ ...d, status: 'active' }));
    case 'BackupsForgotten':
      return { devices: {}, forgotten: true };
    default:
      return state;
  }
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the check refuses
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A path as the device names it: absolute (`/home/ann/Documents`, `C:\Users\Ann`), no control characters. */
export const checkedBackupPaths = (paths: readonly string[]): string[] => {
  const trimmed = [...new Set(paths.map((p) => p.trim()))];
  if (trimmed.length > MAX_BACKUP_PATHS) throw new DomainError(BackupErrors.invalidPath, { max: MAX_BACKUP_PATHS });
  for (const p of trimmed) {
    if (!p || p.length > 1024 || CONTROL.test(p) || !(p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('~'))) {
      throw new DomainError(BackupErrors.invalidPath, { path: p });
    }
  }
  return trimmed;
};

const checkedName = (raw: string): string => {
  const name = raw.trim();
  if (!name || name.length > 255 || CONTROL.test(name)) throw new DomainError(BackupErrors.invalidName);
  return name;
};

const deviceOf = (state: BackupsState, id: string): BackupDevice => {
  const d = state.devices[id];
  if (!d) throw new DomainError(BackupErrors.notFound);
  return d;
};

const decide = (command: BackupCommand, state: BackupsState): BackupEvent[] => {
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'RegisterBackupDevice': {
      const { backupId, platform, storageId, folderId } = command.data;
      const name = checkedName(command.data.name);
      const paths = checkedBackupPaths(command.data.paths);
      const existing = state.devices[backupId];
      if (existing) return [];
      if (Object.keys(state.devices).length >= MAX_BACKUP_DEVICES) throw new DomainError(BackupErrors.tooMany, { max: MAX_BACKUP_DEVICES });
      return [{ type: 'BackupDeviceRegistered', data: { backupId, name, platform, paths, storageId, folderId, at } }];
    }
    case 'RecordBackupSeen': {
      const d = deviceOf(state, command.data.backupId);
      if (d.lastSeenAt && command.metadata.now.getTime() - Date.parse(d.lastSeenAt) < BACKUP_SEEN_INTERVAL_MS) return [];
      return [{ type: 'BackupDeviceSeen', data: { backupId: d.id, at } }];
    }
    case 'ChangeBackupPaths': {
      const d = deviceOf(state, command.data.backupId);
      const paths = checkedBackupPaths(command.data.paths);
      return JSON.stringify(paths) === JSON.stringify(d.paths) ? [] : [{ type: 'BackupPathsChanged', data: { backupId: d.id, paths } }];
    }
    case 'StopBackup': {
      const d = deviceOf(state, command.data.backupId);
      return d.status === 'stopped' ? [] : [{ type: 'BackupStopped', data: { backupId: d.id, at } }];
    }
    case 'ResumeBackup': {
      const d = deviceOf(state, command.data.backupId);
      return d.status === 'active' ? [] : [{ type: 'BackupResumed', data: { backupId: d.id, at } }];
    }
    case 'ForgetBackups':
      return state.forgotten ? [] : [{ type: 'BackupsForgotten', data: { at } }];
    default:
      return assertNever(command);
  }
};

export const backupsDecider: Decider<BackupCommand, BackupEvent, BackupsState> = { initialState: initialBackupsState, evolve: evolveBackups, decide };

/**
 * Whether an action on these items conflicts with a backup (spec §8): an item that is an active
 * backup's folder, or inside one, cannot be trashed, deleted or moved while that backup runs.
 * `ancestorsOf` gives an item's folder chain (the item first).
 */
export const itemsBlockedByBackup = (
  itemIds: readonly string[],
  ancestorsOf: (itemId: string) => readonly string[],
  activeBackupFolders: ReadonlySet<string>,
): string[] => itemIds.filter((id) => ancestorsOf(id).some((a) => activeBackupFolders.has(a)));

import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { type BackupCommand, backupsDecider, BACKUP_SEEN_INTERVAL_MS, itemsBlockedByBackup } from './backups.decide';
import { BackupErrors } from './backups.errors';
import type { BackupEvent } from './backups.events';

const T0 = new Date('2026-11-01T10:00:00Z');
const cmd = <T extends BackupCommand['type']>(type: T, data: Extract<BackupCommand, { type: T }>['data'], ms = 0) =>
  ({ type, data, metadata: { now: new Date(T0.getTime() + ms) } }) as BackupCommand;
const registered: BackupEvent = {
  type: 'BackupDeviceRegistered',
  data: { backupId: 'b1', name: 'Laptop', platform: 'linux', paths: ['/home/ann/Documents'], storageId: 's1', folderId: 'f1', at: T0.toISOString() },
};
const given = DeciderSpecification.for(backupsDecider);

describe('backup devices', () => {
  it('registers a device with its name, platform and absolute paths', () => {
    given([])
      .when(
        cmd('RegisterBackupDevice', {
          backupId: 'b1',
          name: ' Laptop ',
          platform: 'linux',
          paths: ['/home/ann/Documents', '/home/ann/Documents'],
          storageId: 's1',
          folderId: 'f1',
        }),
      )
      .then([registered]);
    given([])
      .when(cmd('RegisterBackupDevice', { backupId: 'b1', name: 'PC', platform: 'windows', paths: ['C:\\Users\\Ann'], storageId: 's1', folderId: 'f1' }))
      .thenState((s) => expect(s.devices.b1).toMatchObject({ status: 'active', paths: ['C:\\Users\\Ann'] }));
    given([])
      .when(cmd('RegisterBackupDevice', { backupId: 'b1', name: 'PC', platform: 'windows', paths: ['relative/path'], storageId: 's1', folderId: 'f1' }))
      .thenThrows(BackupErrors.invalidPath);
    given([])
      .when(cmd('RegisterBackupDevice', { backupId: 'b1', name: '  ', platform: 'windows', paths: [], storageId: 's1', folderId: 'f1' }))
      .thenThrows(BackupErrors.invalidName);
  });

  it('records last seen at most once a minute; stops and resumes', () => {
    given([registered])
      .when(cmd('RecordBackupSeen', { backupId: 'b1' }, 1000))
      .thenNothingHappened();
    given([registered])
      .when(cmd('RecordBackupSeen', { backupId: 'b1' }, BACKUP_SEEN_INTERVAL_MS))
      .then([{ type: 'BackupDeviceSeen', data: { backupId: 'b1', at: new Date(T0.getTime() + BACKUP_SEEN_INTERVAL_MS).toISOString() } }]);
    given([registered])
      .when(cmd('StopBackup', { backupId: 'b1' }))
      .thenState((s) => expect(s.devices.b1!.status).toBe('stopped'));
    given([registered, { type: 'BackupStopped', data: { backupId: 'b1', at: T0.toISOString() } }])
      .when(cmd('StopBackup', { backupId: 'b1' }))
      .thenNothingHappened();
    given([registered, { type: 'BackupStopped', data: { backupId: 'b1', at: T0.toISOString() } }])
      .when(cmd('ResumeBackup', { backupId: 'b1' }))
      .thenState((s) => expect(s.devices.b1!.status).toBe('active'));
    given([])
      .when(cmd('StopBackup', { backupId: 'nope' }))
      .thenThrows(BackupErrors.notFound);
  });

  it('blocks actions on an active backup folder and everything inside it', () => {
    const parents: Record<string, string | null> = { f1: null, sub: 'f1', file: 'sub', other: null };
    const ancestors = (id: string) => {
      const chain: string[] = [];
      for (let at: string | null = id; at; at = parents[at] ?? null) chain.push(at);
      return chain;
    };
    expect(itemsBlockedByBackup(['f1', 'sub', 'file', 'other'], ancestors, new Set(['f1']))).toEqual(['f1', 'sub', 'file']);
    expect(itemsBlockedByBackup(['f1', 'file'], ancestors, new Set())).toEqual([]);
  });
});

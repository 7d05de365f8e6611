import { backupEventDefinitions, backupsDecider, backupsStreamName, type BackupCommand } from '@axel/domain';
import { handleCommand } from '@axel/platform';
import { backupDevicesProjection } from '@axel/projections/backups/backups.projection';
import type { Module } from '../../module';
import { backupsRoutes } from './backups.routes';

/** Backup devices and the folders they back up into (spec §2 settings, §7 backups, §8 backup active). */
export const backupsModule: Module = {
  name: 'backups',
  events: backupEventDefinitions,
  projections: [backupDevicesProjection],
  personalData: { backup_devices: ['name', 'paths'] },
  routes: backupsRoutes,
  async forget(ctx, userId, actor) {
    if ((await ctx.store.readStream(backupsStreamName(userId))).revision < 0) return;
    await handleCommand(
      ctx.commands,
      backupsDecider,
      backupsStreamName(userId),
      { type: 'ForgetBackups', data: {}, metadata: { now: actor.now } } as BackupCommand,
      actor,
    );
  },
};

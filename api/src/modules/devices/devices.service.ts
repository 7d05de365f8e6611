import { cloudLockerDecider, cloudLockerStreamName, isOnline, normaliseSerial, ONLINE_WINDOW_MS, type CloudLockerCommand } from '@axel/domain';
import { deterministicId, handleCommand, type CommandContext } from '@axel/platform';
import type { CloudLockerRow } from '@axel/projections/devices/devices.queries';
import type { AppContext } from '../../context';
import { runStorageCommand } from '../files/storage.service';
import { ed25519Check } from './devices.signatures';

export const devicesDecider = cloudLockerDecider(ed25519Check);

/** A CloudLocker's id derives from its serial number: one stream per device for life. */
export const deviceIdOfSerial = (serial: string): string => deterministicId('cloudlocker', normaliseSerial(serial));

export const runDeviceCommand = async (ctx: AppContext, deviceId: string, command: Omit<CloudLockerCommand, 'metadata'>, actor: CommandContext) => {
  const result = await handleCommand(
    ctx.commands,
    devicesDecider,
    cloudLockerStreamName(deviceId),
    { ...command, metadata: { now: ctx.now() } } as CloudLockerCommand,
    actor,
  );
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};

/** The bound device's storage (type `cloudlocker`), its quota the device's own size total. */
export const openDriveStorage = async (ctx: AppContext, storageId: string, ownerId: string, sizeTotal: number, actor: CommandContext) => {
  const opened = await runStorageCommand(ctx, storageId, { type: 'OpenStorage', data: { storageId, ownerId, type: 'cloudlocker', sizeTotal } }, actor);
  if (opened.position) await ctx.caughtUp(opened.position);
};

export const resizeDriveStorage = async (ctx: AppContext, storageId: string, sizeTotal: number, actor: CommandContext) => {
  const changed = await runStorageCommand(ctx, storageId, { type: 'ChangeStorageQuota', data: { sizeTotal } }, actor);
  if (changed.position) await ctx.caughtUp(changed.position);
};

/** An unbound device's storage is purged: its next owner starts from an empty one. */
export const purgeDriveStorage = async (ctx: AppContext, storageId: string, actor: CommandContext) => {
  const purged = await runStorageCommand(ctx, storageId, { type: 'PurgeStorage', data: {} }, actor);
  if (purged.position) await ctx.caughtUp(purged.position);
};

/** A CloudLocker as the spec lists its fields (rules-calls-errors.md §3). */
export const driveJson = (r: CloudLockerRow, now: Date) => {
  const online = isOnline(r.connection_checked_at, now, ONLINE_WINDOW_MS);
  return {
    id: r.id,
    serial: r.serial,
    mac: r.mac,
    externalIp: r.external_ip,
    status: online ? ('online' as const) : ('offline' as const),
    online,
    connectionCheckedAt: r.connection_checked_at?.toISOString() ?? null,
    bound: r.owner_id !== null,
    boundAt: r.bound_at?.toISOString() ?? null,
    modifiedAt: r.modified_at.toISOString(),
    sizeUsed: Number(r.size_used),
    sizeTotal: Number(r.size_total),
    sizeUpdatedAt: r.size_updated_at?.toISOString() ?? null,
    owner: r.owner_email,
    ownerId: r.owner_id,
    storageId: r.storage_id,
  };
};

/** The earliest check-in that still counts as online now. */
export const onlineSince = (now: Date): Date => new Date(now.getTime() - ONLINE_WINDOW_MS);

import { cloudLockersOwnedBy } from '@axel/projections/devices/devices.queries';
import type { AppContext } from '../../context';
import type { ErasureActor } from '../../module';
import { purgeDriveStorage, runDeviceCommand } from './devices.service';

/**
 * A purged account's CloudLockers are unbound (their storages purged), so the devices can be bound
 * again. The devices' own history (serial, MAC, check-ins) stays: it belongs to the hardware.
 */
export const forgetDevices = async (ctx: AppContext, userId: string, actor: ErasureActor) => {
  for (const deviceId of await cloudLockersOwnedBy(ctx.pool, userId)) {
    const result = await runDeviceCommand(ctx, deviceId, { type: 'Unbind', data: { actor: { kind: 'staff', staffId: actor.actorId ?? 'system' } } }, actor);
    for (const e of result.events) if (e.type === 'CloudLockerUnbound') await purgeDriveStorage(ctx, e.data.storageId, actor);
  }
};

import { cloudLockerEventDefinitions } from '@axel/domain';
import { cloudLockersProjection } from '@axel/projections/devices/devices.projection';
import type { FastifyInstance } from 'fastify';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import { adminDrivesRoutes } from './admin-drives.routes';
import { deviceApiRoutes } from './device-api.routes';
import { forgetDevices } from './devices.forget';
import { drivesRoutes } from './drives.routes';

/** CloudLocker devices: the device API, a user's drives, and the console's CloudLockers section. */
export const devicesModule: Module = {
  name: 'devices',
  events: cloudLockerEventDefinitions,
  projections: [cloudLockersProjection],
  personalData: { cloudlockers: ['external_ip'] },
  routes: (ctx: AppContext) => async (app: FastifyInstance) => {
    await app.register(deviceApiRoutes(ctx));
    await app.register(drivesRoutes(ctx));
    await app.register(adminDrivesRoutes(ctx));
  },
  forget: forgetDevices,
};

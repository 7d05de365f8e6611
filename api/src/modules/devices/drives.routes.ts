import { randomInt } from 'node:crypto';
import { CLAIM_CODE_ALPHABET, DeviceErrors, DomainError, normaliseMac, normaliseSerial } from '@axel/domain';
import { findCloudLocker, listUserCloudLockers } from '@axel/projections/devices/devices.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { confirmationOf, DriveSchema, OpenClaimBody, UserDriveParams, UserDrivesQuery, UserParams, truthy } from './devices.schema';
import { deviceIdOfSerial, driveJson, onlineSince, purgeDriveStorage, runDeviceCommand } from './devices.service';

const tags = ['CloudLockers'];

/** A code to show in the binding dialog: 8 characters, about 40 bits, valid for the claim window. */
const claimCode = () => Array.from({ length: 8 }, () => CLAIM_CODE_ALPHABET[randomInt(CLAIM_CODE_ALPHABET.length)]).join('');

/** A user's CloudLockers: list, bind (with the device's proof), unbind, delete. */
export const drivesRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  // each attempt names a serial and MAC: a stranger trying pairs is slowed down per account and address
  const claims = limit({ perIp: 30, perAccount: 20 });
  const writes = limit({ perIp: 120 });

  app.get(
    '/api/users/:id/drives/',
    { schema: { tags, summary: "The user's CloudLockers (online filter)", params: UserParams, querystring: UserDrivesQuery } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const online = truthy(request.query.online);
      const now = ctx.now();
      const rows = await listUserCloudLockers(ctx.pool, user.id, online === true ? onlineSince(now) : null);
      const drives = rows.map((r) => driveJson(r, now)).filter((d) => online === null || d.online === online);
      return { data: drives, totalCount: drives.length };
    },
  );

  const ownDrive = async (userId: string, driveId: string) => {
    const row = await findCloudLocker(ctx.pool, driveId);
    if (!row || row.owner_id !== userId) throw new DomainError(DeviceErrors.notFound);
    return row;
  };

  app.get(
    '/api/users/:id/drives/:driveId',
    { schema: { tags, summary: 'One of the user’s CloudLockers', params: UserDriveParams, response: { 200: DriveSchema } } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return driveJson(await ownDrive(user.id, request.params.driveId), ctx.now());
    },
  );

  app.post(
    '/api/users/:id/drives/',
    {
      config: claims,
      schema: {
        tags,
        summary: 'Start binding by serial number and MAC address: the answer is the code the device must sign within the claim window',
        params: UserParams,
        body: OpenClaimBody,
      },
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const serial = normaliseSerial(request.body.serial);
      normaliseMac(request.body.mac);
      const deviceId = deviceIdOfSerial(serial);
      const code = claimCode();
      const result = await runDeviceCommand(
        ctx,
        deviceId,
        { type: 'OpenClaim', data: { userId: user.id, serial, mac: request.body.mac, code } },
        userActor(request, user.id),
      );
      reply.code(201);
      return { driveId: deviceId, code, expiresAt: result.state.claims[code]!.expiresAt };
    },
  );

  app.post(
    '/api/users/:id/drives/:driveId/unbind/',
    { config: writes, schema: { tags, summary: 'Unbind the CloudLocker (its storage is closed)', params: UserDriveParams, body: z.object({}).optional() } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      await ownDrive(user.id, request.params.driveId);
      const result = await runDeviceCommand(ctx, request.params.driveId, { type: 'Unbind', data: { actor: { kind: 'owner', userId: user.id } } }, actor);
      for (const e of result.events) if (e.type === 'CloudLockerUnbound') await purgeDriveStorage(ctx, e.data.storageId, actor);
      return { unbound: true };
    },
  );

  app.delete(
    '/api/users/:id/drives/:driveId',
    { config: writes, schema: { tags, summary: 'Remove the CloudLocker (type delete to confirm)', params: UserDriveParams, body: z.unknown() } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      await ownDrive(user.id, request.params.driveId);
      const result = await runDeviceCommand(
        ctx,
        request.params.driveId,
        { type: 'DeleteCloudLocker', data: { actor: { kind: 'owner', userId: user.id }, confirm: confirmationOf(request.body) } },
        actor,
      );
      for (const e of result.events) if (e.type === 'CloudLockerUnbound') await purgeDriveStorage(ctx, e.data.storageId, actor);
      return { deleted: true };
    },
  );
};

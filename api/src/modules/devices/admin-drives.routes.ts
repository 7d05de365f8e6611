import { cloudLockerStreamName, DomainError, AccountErrors, DeviceErrors, normaliseSerial } from '@axel/domain';
import { newId, type CommandContext } from '@axel/platform';
import { activeUserIdByEmail, CLOUDLOCKER_SORT_COLUMNS, findCloudLocker, listAdminCloudLockers } from '@axel/projections/devices/devices.queries';
import { findUser } from '@axel/projections/users/users.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { contentRange, parseListQuery } from '../admin/list-query';
import { AdminDriveParams, AdminDrivesQuery, confirmationOf, DriveSchema, StaffBindBody, truthy } from './devices.schema';
import { deviceIdOfSerial, driveJson, onlineSince, openDriveStorage, purgeDriveStorage, runDeviceCommand } from './devices.service';

const tags = ['admin: CloudLockers'];

/** The console's CloudLockers section: list (10 a page), one device and its history, bind, unbind, delete. */
export const adminDrivesRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 300 });

  const staffActor = (request: FastifyRequest, staffId: string): CommandContext => {
    const meta = requestMeta(request);
    return { actorId: staffId, actorKind: 'staff', ip: meta.ip, userAgent: meta.userAgent, client: meta.client, correlationId: meta.correlationId };
  };

  app.get(
    '/api/admin/drives/',
    { schema: { tags, summary: 'CloudLockers (status, bound, search; 10 a page; ra-data-simple-rest compatible)', querystring: AdminDrivesQuery } },
    async (request, reply) => {
      await requireStaff(ctx, request);
      const params = parseListQuery(
        request.query,
        { sortField: 'registeredAt', sortDir: 'desc', perPage: request.query.perPage },
        Object.keys(CLOUDLOCKER_SORT_COLUMNS),
      );
      const filterText = (key: string) =>
        typeof params.filter[key] === 'string'
          ? (params.filter[key] as string)
          : typeof params.filter[key] === 'boolean'
            ? String(params.filter[key])
            : undefined;
      const status = request.query.status ?? filterText('status');
      const now = ctx.now();
      const { rows, total } = await listAdminCloudLockers(ctx.pool, {
        status: status === 'online' || status === 'offline' ? status : null,
        onlineSince: onlineSince(now),
        bound: truthy(request.query.bound ?? filterText('bound')),
        search: params.search,
        sortField: params.sortField as keyof typeof CLOUDLOCKER_SORT_COLUMNS,
        sortDir: params.sortDir,
        limit: params.limit,
        offset: params.offset,
      });
      reply.header('content-range', contentRange('drives', params.offset, rows.length, total));
      reply.header('x-total-count', String(total));
      return rows.map((r) => driveJson(r, now));
    },
  );

  const drive = async (id: string) => {
    const row = await findCloudLocker(ctx.pool, id);
    if (!row) throw new DomainError(DeviceErrors.notFound);
    return row;
  };

  app.get(
    '/api/admin/drives/:id',
    { schema: { tags, summary: 'One CloudLocker', params: AdminDriveParams, response: { 200: DriveSchema } } },
    async (request) => {
      await requireStaff(ctx, request);
      return driveJson(await drive(request.params.id), ctx.now());
    },
  );

  app.get(
    '/api/admin/drives/:id/history',
    { schema: { tags, summary: "The device's history from the event log", params: AdminDriveParams } },
    async (request) => {
      await requireStaff(ctx, request);
      const { events } = await ctx.store.readStream(cloudLockerStreamName(request.params.id));
      if (!events.length) throw new DomainError(DeviceErrors.notFound);
      return {
        data: events.map((e) => {
          const { code: _code, ...data } = ctx.registry.decode(e.type, e.schemaVersion, e.data).data as Record<string, unknown>;
          return { id: e.id, type: e.type, at: e.recordedAt.toISOString(), actorKind: e.metadata.actorKind, actorId: e.metadata.actorId, data };
        }),
      };
    },
  );

  app.post(
    '/api/admin/drives/',
    { config: writes, schema: { tags, summary: 'Bind a CloudLocker to an account by serial number and MAC address', body: StaffBindBody } },
    async (request, reply) => {
      const { user: staff } = await requireStaff(ctx, request);
      const { serial, mac, ownerId: givenId, ownerEmail } = request.body;
      const deviceId = deviceIdOfSerial(normaliseSerial(serial));
      const ownerId = givenId ?? (ownerEmail ? await activeUserIdByEmail(ctx.pool, ownerEmail.trim()) : undefined);
      const owner = ownerId ? await findUser(ctx.pool, ownerId) : undefined;
      if (!owner || owner.deleted_at) throw new DomainError(AccountErrors.userNotFound);
      const actor = staffActor(request, staff.id);
      const result = await runDeviceCommand(ctx, deviceId, { type: 'StaffBind', data: { serial, mac, ownerId: owner.id, storageId: newId() } }, actor);
      const binding = result.state.binding!;
      await openDriveStorage(ctx, binding.storageId, binding.ownerId, result.state.sizeTotal, actor);
      reply.code(result.events.length ? 201 : 200);
      return driveJson(await drive(deviceId), ctx.now());
    },
  );

  app.post(
    '/api/admin/drives/:id/unbind/',
    { config: writes, schema: { tags, summary: 'Unbind a CloudLocker (admin:cloudlocker:unbind)', params: AdminDriveParams, body: z.object({}).optional() } },
    async (request) => {
      const { user: staff } = await requireStaff(ctx, request, 'admin:cloudlocker:unbind');
      const actor = staffActor(request, staff.id);
      const result = await runDeviceCommand(ctx, request.params.id, { type: 'Unbind', data: { actor: { kind: 'staff', staffId: staff.id } } }, actor);
      for (const e of result.events) if (e.type === 'CloudLockerUnbound') await purgeDriveStorage(ctx, e.data.storageId, actor);
      return driveJson(await drive(request.params.id), ctx.now());
    },
  );

  app.delete(
    '/api/admin/drives/:id',
    {
      config: writes,
      schema: { tags, summary: 'Delete a CloudLocker (admin:cloudlocker:unbind; type delete to confirm)', params: AdminDriveParams, body: z.unknown() },
    },
    async (request) => {
      const { user: staff } = await requireStaff(ctx, request, 'admin:cloudlocker:unbind');
      const actor = staffActor(request, staff.id);
      const result = await runDeviceCommand(
        ctx,
        request.params.id,
        { type: 'DeleteCloudLocker', data: { actor: { kind: 'staff', staffId: staff.id }, confirm: confirmationOf(request.body) } },
        actor,
      );
      for (const e of result.events) if (e.type === 'CloudLockerUnbound') await purgeDriveStorage(ctx, e.data.storageId, actor);
      return { deleted: true };
    },
  );
};

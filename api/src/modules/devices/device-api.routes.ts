import { CHECK_IN_INTERVAL_MS, cloudLockerStreamName, DeviceErrors, DomainError, ONLINE_WINDOW_MS } from '@axel/domain';
import { loadState, newId, type CommandContext } from '@axel/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { CheckInBody, DriveParams, ProveClaimBody, RegisterDeviceBody, SizeBody } from './devices.schema';
import { devicesDecider, deviceIdOfSerial, openDriveStorage, resizeDriveStorage, runDeviceCommand } from './devices.service';
import { assertSignedByDevice, isEd25519PublicKey } from './devices.signatures';

const tags = ['device API'];

/**
 * The device API: what a CloudLocker itself calls. No user session: every call but the first
 * registration is signed by the device's Ed25519 key (see devices.signatures.ts), and the
 * registration is signed by the key it registers.
 */
export const deviceApiRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const registrations = limit({ perIp: 60 });
  const calls = limit({ perIp: 600 });

  const deviceActor = (request: FastifyRequest, deviceId: string): CommandContext => {
    const meta = requestMeta(request);
    return { actorId: deviceId, actorKind: 'system', ip: meta.ip, userAgent: meta.userAgent, client: 'cloudlocker', correlationId: meta.correlationId };
  };

  /** The registered device this call is signed by; 404 for a device never registered or deleted, 401 for a bad signature. */
  const signedDevice = async (request: FastifyRequest, deviceId: string) => {
    const { state } = await loadState(ctx.commands, devicesDecider, cloudLockerStreamName(deviceId));
    if (state.status !== 'registered' || !state.publicKey) throw new DomainError(DeviceErrors.notFound);
    assertSignedByDevice(request, state.publicKey, ctx.now());
    return state;
  };

  const answer = (state: { binding: { ownerId: string; storageId: string } | null }) => ({
    bound: state.binding !== null,
    storageId: state.binding?.storageId ?? null,
    checkInIntervalMs: CHECK_IN_INTERVAL_MS,
    onlineWindowMs: ONLINE_WINDOW_MS,
  });

  app.post(
    '/api/devices/',
    { config: registrations, schema: { tags, summary: 'A CloudLocker registers its Ed25519 key (signed by that key)', body: RegisterDeviceBody } },
    async (request, reply) => {
      const { serial, mac, publicKey, signature } = request.body;
      if (!isEd25519PublicKey(publicKey)) throw new DomainError(DeviceErrors.proofInvalid, { reason: 'not_ed25519' });
      const deviceId = deviceIdOfSerial(serial);
      const result = await runDeviceCommand(
        ctx,
        deviceId,
        { type: 'RegisterCloudLocker', data: { deviceId, serial, mac, publicKey, signature } },
        deviceActor(request, deviceId),
      );
      reply.code(result.events.length ? 201 : 200);
      return { deviceId, ...answer(result.state) };
    },
  );

  app.post(
    '/api/devices/:driveId/check-ins/',
    { config: calls, schema: { tags, summary: 'A check-in (signed), with the sizes when the device sends them', params: DriveParams, body: CheckInBody } },
    async (request) => {
      const { driveId } = request.params;
      await signedDevice(request, driveId);
      const actor = deviceActor(request, driveId);
      let { state } = await runDeviceCommand(ctx, driveId, { type: 'CheckIn', data: { externalIp: request.ip } }, actor);
      const { sizeUsed, sizeTotal } = request.body;
      if (sizeUsed !== undefined && sizeTotal !== undefined) state = await reportSize(driveId, sizeUsed, sizeTotal, actor);
      return answer(state);
    },
  );

  const reportSize = async (driveId: string, sizeUsed: number, sizeTotal: number, actor: CommandContext) => {
    const result = await runDeviceCommand(ctx, driveId, { type: 'ReportSize', data: { sizeUsed, sizeTotal } }, actor);
    if (result.events.length && result.state.binding) await resizeDriveStorage(ctx, result.state.binding.storageId, sizeTotal, actor);
    return result.state;
  };

  app.put(
    '/api/devices/:driveId/size/',
    { config: calls, schema: { tags, summary: 'The size used and total (signed)', params: DriveParams, body: SizeBody } },
    async (request) => {
      const { driveId } = request.params;
      await signedDevice(request, driveId);
      return answer(await reportSize(driveId, request.body.sizeUsed, request.body.sizeTotal, deviceActor(request, driveId)));
    },
  );

  app.post(
    '/api/devices/:driveId/claims/',
    {
      config: calls,
      schema: { tags, summary: "The device signs the code its owner's browser shows: the device binds to them", params: DriveParams, body: ProveClaimBody },
    },
    async (request) => {
      const { driveId } = request.params;
      await signedDevice(request, driveId);
      const actor = deviceActor(request, driveId);
      const storageId = newId();
      const result = await runDeviceCommand(ctx, driveId, { type: 'ProveClaim', data: { ...request.body, storageId } }, actor);
      const binding = result.state.binding!;
      await openDriveStorage(ctx, binding.storageId, binding.ownerId, result.state.sizeTotal, { ...actor, actorId: binding.ownerId, actorKind: 'user' });
      return answer(result.state);
    },
  );
};

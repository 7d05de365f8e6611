import { backupsDecider, backupsStreamName, type BackupCommand, type BackupDevice } from '@axel/domain';
import { handleCommand, newId } from '@axel/platform';
import { findBackupDevice, listBackupDevices, type BackupDeviceRow } from '@axel/projections/backups/backups.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { ensureOnlineStorage, runStorageCommand } from '../files/storage.service';
import { BackupParams, BackupsQuery, PathsBody, RegisterBackupBody, UserParams } from './backups.schema';

const tags = ['backups'];

const rowJson = (r: BackupDeviceRow) => ({
  id: r.id,
  name: r.name,
  platform: r.platform,
  paths: r.paths,
  status: r.status,
  active: r.status === 'active',
  lastSeenAt: r.last_seen_at?.toISOString() ?? null,
  storageId: r.storage_id,
  folderId: r.folder_id,
  createdAt: r.created_at.toISOString(),
});

const stateJson = (d: BackupDevice, row: BackupDeviceRow | undefined) => ({
  id: d.id,
  name: d.name,
  platform: d.platform,
  paths: d.paths,
  status: d.status,
  active: d.status === 'active',
  lastSeenAt: d.lastSeenAt,
  storageId: d.storageId,
  folderId: d.folderId,
  createdAt: row?.created_at.toISOString() ?? d.lastSeenAt,
});

/**
 * Backup devices (spec §2 settings: backup devices, stop backup; §7 `GET /users/{id}/backups/`).
 * A device backs up into a folder of its own in the user's online storage, through the ordinary
 * upload routes; while its backup is active that folder cannot be trashed, deleted or moved.
 */
export const backupsRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 600, perAccount: 300 });

  const run = async (request: FastifyRequest, userId: string, command: Omit<BackupCommand, 'metadata'>) => {
    const result = await handleCommand(
      ctx.commands,
      backupsDecider,
      backupsStreamName(userId),
      { ...command, metadata: { now: ctx.now() } } as BackupCommand,
      userActor(request, userId),
    );
    if (result.position) await ctx.caughtUp(result.position);
    return result.state;
  };
  const answer = async (userId: string, state: Awaited<ReturnType<typeof run>>, backupId: string) =>
    stateJson(state.devices[backupId]!, await findBackupDevice(ctx.pool, userId, backupId));

  app.get(
    '/api/users/:id/backups/',
    { schema: { tags, summary: 'Backup devices (100 a page)', params: UserParams, querystring: BackupsQuery } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { page, perPage } = request.query;
      const { rows, total } = await listBackupDevices(ctx.pool, user.id, perPage, (page - 1) * perPage);
      return { totalCount: total, page, perPage, data: rows.map(rowJson) };
    },
  );

  app.post(
    '/api/users/:id/backups/',
    { config: writes, schema: { tags, summary: 'A device starts backing up into a folder of its own', params: UserParams, body: RegisterBackupBody } },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      const backupId = newId();
      const folderId = newId();
      // checked before the folder is made: a refused device leaves no folder behind
      backupsDecider.decide(
        {
          type: 'RegisterBackupDevice',
          data: { backupId, ...request.body, storageId: '', folderId },
          metadata: { now: ctx.now() },
        },
        backupsDecider.initialState(),
      );
      const storageId = await ensureOnlineStorage(ctx, user.id, actor);
      const folder = await runStorageCommand(
        ctx,
        storageId,
        { type: 'CreateFolder', data: { itemId: folderId, parentId: null, name: `Backup ${request.body.name.trim()}`.slice(0, 200), rename: true } },
        actor,
        { owner: user.id },
      );
      await ctx.caughtUp(folder.position);
      const state = await run(request, user.id, { type: 'RegisterBackupDevice', data: { backupId, ...request.body, storageId, folderId } });
      reply.code(201);
      return answer(user.id, state, backupId);
    },
  );

  const action = (path: string, summary: string, type: 'RecordBackupSeen' | 'StopBackup' | 'ResumeBackup') =>
    app.post(`/api/users/:id/backups/:backupId/${path}`, { config: writes, schema: { tags, summary, params: BackupParams } }, async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const state = await run(request, user.id, { type, data: { backupId: request.params.backupId } });
      return answer(user.id, state, request.params.backupId);
    });
  action('seen', 'The device is backing up now (its last seen time)', 'RecordBackupSeen');
  action('stop', 'Stop backup', 'StopBackup');
  action('resume', 'Resume backup', 'ResumeBackup');

  app.put(
    '/api/users/:id/backups/:backupId/paths',
    { config: writes, schema: { tags, summary: 'The paths the device backs up', params: BackupParams, body: PathsBody } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const state = await run(request, user.id, { type: 'ChangeBackupPaths', data: { backupId: request.params.backupId, paths: request.body.paths } });
      return answer(user.id, state, request.params.backupId);
    },
  );
};

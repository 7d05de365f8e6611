import {
  BackupErrors,
  DomainError,
  DOWNLOAD_TOTAL_MAX_BYTES,
  FileLockErrors,
  planBatch,
  StorageErrors,
  type BatchCommand,
  type BatchFailure,
  type ErrorDefinition,
  type StorageCommand,
  type StorageEvent,
  type StorageState,
} from '@axel/domain';
import { newId } from '@axel/platform';
import { storagesOfItems } from '@axel/projections/storage/storage.queries';
import { itemsUnderBackups } from '@axel/projections/backups/backups.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { safeEqual } from '../../secrets';
import { requireSelf, requireUser } from '../../http/auth';
import { archiveDownloadUrl, archiveEntries, archiveFileName, archiveMac, sendArchive } from './storage-archives';
import type { StorageBytes } from './storage.bytes';
import { findDoneOwnArchiveTask, findOwnTask, recordStorageTask } from './storage-tasks.store';
import { TaskBody, TaskParams, tags, UserParams } from './storage.schema';
import { userActor } from '../../http/request-meta';
import { runStorageCommand } from './storage.service';
import { failpoint } from '../../failpoints';
import { grantOwnItems, openOwnItems } from '../file-lock/file-lock.service';

/*
 * Storage tasks (spec §7): trash, restore, delete, copy, move and archive over many items. Each
 * change is decided in the storage's stream at once, item by item (partial failures counted); the
 * task row keeps the outcome the client polls at `stateURL`. An archive is not built ahead: its
 * `downloadURL` streams the zip from the encrypted chunks when opened, with no temporary copy.
 */

const BATCH: Record<Exclude<z.infer<typeof TaskBody>['action'], 'archive'>, { command: BatchCommand['type']; error: ErrorDefinition }> = {
  trash: { command: 'TrashItems', error: StorageErrors.trashFailed },
  restore: { command: 'RestoreItems', error: StorageErrors.restoreFailed },
  delete: { command: 'DeleteItems', error: StorageErrors.deleteFailed },
  copy: { command: 'CopyItems', error: StorageErrors.copyFailed },
  move: { command: 'MoveItems', error: StorageErrors.moveFailed },
};

/** How long after signing in a two-factor account's session counts as a fresh second factor. */
export const FRESH_SECOND_FACTOR_MS = 5 * 60_000;

/**
 * Spec §8, code 5102: an archive (a download of the user's own files, and the unlocker's first
 * step) by an account with two-factor sign-in fails with 5102 unless the session proves a fresh
 * second factor: a two-factor account's session is only ever opened with its code, so a session
 * opened in the last five minutes has just proved it. The web app answers 5102 with the skip-2FA
 * dialog, and the user's choice to go on comes back as `skip2fa`. Other tasks move items within
 * the account and are not asked.
 */
export const asksSecondFactor = (input: {
  readonly action: z.infer<typeof TaskBody>['action'];
  readonly skip2fa: boolean | undefined;
  readonly twoFactorEnabled: boolean;
  readonly sessionOpenedAt: Date;
  readonly now: Date;
}): boolean =>
  input.action === 'archive' &&
  input.twoFactorEnabled &&
  input.skip2fa !== true &&
  input.now.getTime() - input.sessionOpenedAt.getTime() > FRESH_SECOND_FACTOR_MS;

const interpolate = (message: string, data: Record<string, unknown>) => message.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(data[k] ?? ''));

export const storageTaskRoutes = (ctx: AppContext, bytes: StorageBytes) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  const stateUrl = (userId: string, taskId: string) => `/api/users/${userId}/storage-tasks/${taskId}/`;
  const archiveSignature = (taskId: string, expires: number) => archiveMac(ctx, taskId, expires);

  /** The user's items by storage, as the read model knows them; ids it does not know are failures. */
  const itemsByStorage = async (userId: string, itemIds: readonly string[]) => {
    const rows = await storagesOfItems(ctx.pool, userId, itemIds);
    const byStorage = new Map<string, string[]>();
    for (const r of rows) byStorage.set(r.storage_id, [...(byStorage.get(r.storage_id) ?? []), r.id]);
    const known = new Set(rows.map((r) => r.id));
    const unknown = [...new Set(itemIds)].filter((id) => !known.has(id)).map((itemId) => ({ itemId, code: StorageErrors.itemNotFound.code }));
    return { byStorage, unknown };
  };

  const runBatch = async (
    request: Parameters<typeof userActor>[0],
    userId: string,
    action: keyof typeof BATCH,
    body: z.infer<typeof TaskBody>,
  ): Promise<BatchFailure[]> => {
    const { byStorage, unknown } = await itemsByStorage(userId, body.itemIds);
    const failures: BatchFailure[] = [...unknown];
    const destroyed: StorageEvent[] = [];
    for (const [storageId, requested] of byStorage) {
      // spec §8: a folder an active backup writes into (and all inside it) is not trashed, deleted or moved under it
      const blocked =
        action === 'trash' || action === 'delete' || action === 'move' ? await itemsUnderBackups(ctx.pool, storageId, requested, true) : new Set<string>();
      failures.push(...[...blocked].map((itemId) => ({ itemId, code: BackupErrors.backupActive.code })));
      const itemIds = requested.filter((id) => !blocked.has(id));
      if (!itemIds.length) continue;
      if ((action === 'copy' || action === 'move') && body.storageId && body.storageId !== storageId) {
        // items of one storage go to a folder of the same storage: another type of storage has other rules
        failures.push(...itemIds.map((itemId) => ({ itemId, code: StorageErrors.folderNotFound.code })));
        continue;
      }
      let planned: BatchFailure[] = [];
      const decide = (command: StorageCommand, state: StorageState) => {
        const plan = planBatch(command as BatchCommand, state);
        planned = plan.failures;
        return plan.events;
      };
      const data = { itemIds, parentId: body.destinationId ?? null, newId };
      const result = await runStorageCommand(ctx, storageId, { type: BATCH[action].command, data } as never, userActor(request, userId), {
        owner: userId,
        decide,
      });
      failures.push(...planned);
      destroyed.push(...result.events.filter((e) => e.type === 'ItemDeleted'));
      if (result.position) await ctx.caughtUp(result.position);
    }
    // the events are written: content no file uses any more is destroyed (its key first); a crash
    // from here on leaves the content to the next collection of unreferenced chunks and keys
    if (destroyed.length) failpoint('storage.delete.before-content-destroyed');
    for (const e of destroyed) {
      if (e.type !== 'ItemDeleted') continue;
      for (const manifest of e.data.destroyed) {
        await bytes.content
          .destroy(manifest)
          .catch((err: unknown) => ctx.log.error({ err, keyId: manifest.keyId }, 'could not destroy the content of a deleted file'));
      }
    }
    return failures;
  };

  /**
   * Whether the session may act on the items as far as their locks go: nothing is locked, or it holds
   * live grants, or `skip2fa` came with a valid code (a wrong one is a form error). Each is recorded.
   */
  const mayTouchLockedItems = async (
    request: Parameters<typeof userActor>[0],
    userId: string,
    session: Parameters<typeof grantOwnItems>[3]['session'],
    body: z.infer<typeof TaskBody>,
  ): Promise<boolean> => {
    const opening = { userId, session, actor: userActor(request, userId), action: body.action };
    if (body.skip2fa === true && body.code) await grantOwnItems(ctx, body.itemIds, body.code, opening);
    try {
      await openOwnItems(ctx, body.itemIds, opening);
      return true;
    } catch (e) {
      if (e instanceof DomainError && e.code === FileLockErrors.codeRequired.code) return false;
      throw e;
    }
  };

  app.post(
    '/api/users/:id/storage-tasks/',
    {
      schema: {
        tags,
        summary: 'Start a storage task: trash, restore, delete (for ever), copy, move or archive',
        params: UserParams,
        body: TaskBody,
        response: { 201: z.object({ id: z.string(), stateURL: z.string() }) },
      },
      config: limit({ perIp: 240, perAccount: 120 }),
    },
    async (request, reply) => {
      const { user, session } = await requireSelf(ctx, request, request.params.id);
      const body = request.body;
      const taskId = newId();
      const now = ctx.now();
      let failures: BatchFailure[] = [];
      let archiveName: string | null = null;
      let error: { code: string | number; message: string } | null = null;
      // items under a two-factor lock are archived, copied, moved or removed only with a fresh code
      // (restoring one from the trash gives nothing away)
      const lockedOut = body.action !== 'restore' && !(await mayTouchLockedItems(request, user.id, session, body));
      if (lockedOut) {
        error = { code: FileLockErrors.codeRequired.code, message: FileLockErrors.codeRequired.message };
      } else if (body.action === 'archive') {
        const entries = await archiveEntries(ctx, user.id, body.itemIds);
        if (!entries.length) throw new DomainError(StorageErrors.itemNotFound);
        const total = entries.reduce((n, e) => n + Number(e.size), 0);
        if (total > DOWNLOAD_TOTAL_MAX_BYTES) throw new DomainError(StorageErrors.downloadSizeExceeded, { size: total });
        const found = new Set(entries.map((e) => e.id));
        failures = body.itemIds.filter((id) => !found.has(id)).map((itemId) => ({ itemId, code: StorageErrors.itemNotFound.code }));
        archiveName = archiveFileName(body.archiveName, entries.length === 1 ? entries[0]!.name : 'archive');
        const second = { action: body.action, skip2fa: body.skip2fa, twoFactorEnabled: user.two_factor_enabled, sessionOpenedAt: session.createdAt, now };
        if (asksSecondFactor(second)) {
          // the task is recorded as failed: polling it answers 5102 and the client asks the user
          error = { code: StorageErrors.twoFactorRequired.code, message: StorageErrors.twoFactorRequired.message };
          failures = [];
        }
      } else {
        failures = await runBatch(request, user.id, body.action, body);
        if (failures.length && failures.every((f) => f.code === BackupErrors.backupActive.code)) {
          error = { code: BackupErrors.backupActive.code, message: BackupErrors.backupActive.message };
        } else if (failures.length) {
          const def = BATCH[body.action].error;
          const data = { failed: failures.length, total: new Set(body.itemIds).size };
          error = { code: def.code, message: interpolate(def.message, data) };
        }
      }
      await recordStorageTask(ctx.pool, {
        id: taskId,
        userId: user.id,
        type: body.action,
        status: error ? 'failed' : 'done',
        total: new Set(body.itemIds).size,
        failures,
        error,
        itemIds: body.itemIds,
        archiveName,
        at: now,
      });
      return reply.status(201).send({ id: taskId, stateURL: stateUrl(user.id, taskId) });
    },
  );

  app.get(
    '/api/users/:id/storage-tasks/:taskId/',
    { schema: { tags, summary: "A storage task's state (polled every 2 s)", params: TaskParams } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const task = await findOwnTask(ctx.pool, request.params.taskId, user.id);
      if (!task) throw new DomainError(StorageErrors.taskNotFound);
      let downloadURL: string | null = null;
      if (task.type === 'archive' && task.status === 'done') {
        downloadURL = archiveDownloadUrl(ctx, task.id).url;
      }
      return {
        id: task.id,
        type: task.type,
        status: task.status,
        errorCode: task.error_code,
        errorMessage: task.error_message,
        total: task.total,
        failed: task.failed,
        failures: task.failures,
        downloadId: task.type === 'archive' ? task.id : null,
        downloadURL,
      };
    },
  );

  app.get(
    '/api/urls/storage-archive-download/',
    {
      schema: {
        tags,
        summary: "The signed URL of one of the user's own finished archive tasks (spec §7 Shares: archiveTaskId)",
        querystring: z.object({ archiveTaskId: z.string().min(1).max(64) }),
        response: { 200: z.object({ url: z.string(), expiresAt: z.string() }) },
      },
      config: limit({ perIp: 240, perAccount: 120, account: () => null }),
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const task = await findOwnTask(ctx.pool, request.query.archiveTaskId, user.id, 'archive');
      if (!task) throw new DomainError(StorageErrors.taskNotFound);
      // an archive still waiting for the second factor (5102) says so, as polling its task does
      if (task.status !== 'done') {
        if (task.error_code === String(StorageErrors.twoFactorRequired.code)) throw new DomainError(StorageErrors.twoFactorRequired);
        throw new DomainError(StorageErrors.taskNotFound);
      }
      return archiveDownloadUrl(ctx, task.id);
    },
  );

  app.get(
    '/api/storage-archives/:taskId/',
    {
      schema: {
        tags,
        summary: "An archive task's zip, streamed from the files' chunks (signed URL)",
        params: z.object({ taskId: z.string().min(1).max(64) }),
        querystring: z.object({ expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER), signature: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const { taskId } = request.params;
      const { expires, signature } = request.query;
      if (!safeEqual(signature, archiveSignature(taskId, expires)) || expires < ctx.now().getTime()) throw new DomainError(StorageErrors.invalidUrl);
      // a share's archive is served only through its share (GET /api/share-links/:linkId/archives/:taskId/)
      const task = await findDoneOwnArchiveTask(ctx.pool, taskId);
      if (!task) throw new DomainError(StorageErrors.taskNotFound);
      return sendArchive(bytes.content, reply, await archiveEntries(ctx, task.user_id, task.item_ids), task.archive_name ?? 'archive.zip');
    },
  );
};

import { DomainError, FileLockErrors } from '@axel/domain';
import { lockedChainsOf } from '@axel/projections/file-lock/file-lock.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { chainOf, grantItems, lockCodeProof, runFileLock, sendLockCode } from './file-lock.service';
import { liveItem, ownStorage } from '../files/storage.service';
import { CodeBody, LockItemParams, LockStorageParams, tags, TwoFactorFilesQuery } from './file-lock.schema';

/** The two-factor lock of files and folders (spec §4 File 2FA lock, §7 `two-factor-files`). */
export const fileLockRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  // codes are guessed one request at a time: few per account (the stream also counts wrong ones)
  const codes = limit({ perIp: 60, perAccount: 30 });

  const own = async (request: Parameters<typeof requireSelf>[1], userId: string, storageId: string) => {
    const auth = await requireSelf(ctx, request, userId);
    const actor = userActor(request, auth.user.id);
    const storage = await ownStorage(ctx, auth.user.id, storageId, actor);
    return { ...auth, actor, storage };
  };

  app.get(
    '/api/users/:id/storages/:storageId/two-factor-files/',
    {
      schema: {
        tags,
        summary: 'Which of these items are locked with two-factor verification (themselves, or by a locked folder they are in)',
        params: LockStorageParams,
        querystring: TwoFactorFilesQuery,
      },
    },
    async (request) => {
      const { storage } = await own(request, request.params.id, request.params.storageId);
      const locked = await lockedChainsOf(ctx.pool, storage.id);
      const lockedIds = new Set(locked.map((l) => l.item_id));
      const answers = [];
      for (const itemId of request.query.itemId) {
        if (lockedIds.has(itemId)) {
          answers.push({ itemId, lockedItemId: itemId, inherited: false });
          continue;
        }
        if (!lockedIds.size) continue;
        const over = (await chainOf(ctx, storage.id, itemId)).find((id) => lockedIds.has(id));
        if (over) answers.push({ itemId, lockedItemId: over, inherited: true });
      }
      return { data: answers.map((a) => a.itemId), items: answers };
    },
  );

  app.post(
    '/api/users/:id/storages/:storageId/two-factor-code/',
    {
      schema: {
        tags,
        summary: "Ask for a verification code: mailed (valid 10 minutes) unless the account's second factor is an authenticator app",
        params: LockStorageParams,
      },
      config: codes,
    },
    async (request) => {
      const { user, actor, storage } = await own(request, request.params.id, request.params.storageId);
      return sendLockCode(ctx, user.id, storage.id, actor);
    },
  );

  for (const [method, command] of [
    ['post', 'LockItem'],
    ['delete', 'UnlockItem'],
  ] as const) {
    app[method](
      '/api/users/:id/storages/:storageId/items/:itemId/two-factor-lock/',
      {
        schema: {
          tags,
          summary: command === 'LockItem' ? 'Lock a file or folder with a verification code' : 'Unlock a file or folder with a verification code',
          params: LockItemParams,
          body: CodeBody,
        },
        config: codes,
      },
      async (request) => {
        const { user, actor, storage } = await own(request, request.params.id, request.params.storageId);
        const item = await liveItem(ctx, storage.id, request.params.itemId);
        const proof = await lockCodeProof(ctx, user.id, request.body.code);
        await runFileLock(ctx, storage.id, { type: command, data: { itemId: item.id, userId: user.id, proof } }, actor);
        return { itemId: item.id, twoFactorLock: command === 'LockItem' };
      },
    );
  }

  app.post(
    '/api/users/:id/storages/:storageId/items/:itemId/two-factor-access/',
    {
      schema: {
        tags,
        summary: 'Open a locked item (or one in a locked folder) for this session with a fresh code, until it goes 20 minutes unused',
        params: LockItemParams,
        body: CodeBody,
      },
      config: codes,
    },
    async (request) => {
      const { user, session, actor, storage } = await own(request, request.params.id, request.params.storageId);
      const item = await liveItem(ctx, storage.id, request.params.itemId);
      const lockedItemIds = await grantItems(ctx, storage.id, [item.id], request.body.code, { userId: user.id, session, actor });
      if (!lockedItemIds.length) throw new DomainError(FileLockErrors.notLocked);
      return { itemId: item.id, lockedItemIds };
    },
  );
};

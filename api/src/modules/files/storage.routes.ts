import { DomainError, reservedBytes, StorageErrors } from '@axel/domain';
import { deterministicId, newId } from '@axel/platform';
import { searchStorageItems, storagesOf, trashOf, type StorageRow } from '@axel/projections/storage/storage.queries';
import { backupFoldersOf, itemsUnderBackups } from '@axel/projections/backups/backups.queries';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireSelf } from '../../http/auth';
import { failpoint, pausepoint } from '../../failpoints';
import type { StorageBytes } from './storage.bytes';
import { userActor } from '../../http/request-meta';
import { readStorageState } from './storage.stream';
import { listFolder } from './storage.listing';
import { keyPacketBytes } from '../e2ee/key-packets';
import { openItems } from '../file-lock/file-lock.service';
import { isLocked } from '@axel/projections/file-lock/file-lock.queries';
import {
  CreateItemBody,
  DetailsBody,
  FileParams,
  FolderParams,
  ItemParams,
  ListQuery,
  RenameBody,
  SearchQuery,
  StorageParams,
  tags,
  TrashQuery,
  UserParams,
} from './storage.schema';
import {
  ensureOnlineStorage,
  entryJson,
  entryLabel,
  folderPathsOf,
  liveItem,
  ownStorage,
  parentsOf,
  runStorageCommand,
  storageJson,
  type ItemRow,
} from './storage.service';
import { accessStorage, requireAction, visibleChildren, type StorageAccess } from './storage.access';

/** Storages, folders, files, their details, search and the trash list (spec §7 Storage). */
export const storageRoutes = (ctx: AppContext, bytes: StorageBytes) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  // a folder upload makes one call per file
  const itemWrites = limit({ perIp: 3000, perAccount: 1200 });
  const edits = limit({ perIp: 600, perAccount: 300 });

  const own = async (request: FastifyRequest, userId: string, storageId: string): Promise<{ userId: string; storage: StorageRow }> => {
    const { user } = await requireSelf(ctx, request, userId);
    return { userId: user.id, storage: await ownStorage(ctx, user.id, storageId, userActor(request, user.id)) };
  };
  /** The owner's storage, or a team storage the person is a member of, with what they may do in it. */
  const reach = async (request: FastifyRequest, userId: string, storageId: string) => {
    const { user, session } = await requireSelf(ctx, request, userId);
    const access: StorageAccess = await accessStorage(ctx, user.id, storageId, userActor(request, user.id));
    return { userId: user.id, session, access, storage: access.storage };
  };

  app.get('/api/users/:id/storages/', { schema: { tags, summary: "The user's storages", params: UserParams } }, async (request) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    await ensureOnlineStorage(ctx, user.id, userActor(request, user.id));
    const rows = await storagesOf(ctx.pool, user.id);
    // beside the used bytes, the space held by uploads under way (the owner's own and those sent
    // through a Secure Fetch link), as the storage's own stream decides the quota
    const reserved = await Promise.all(rows.map(async (r) => (await readStorageState(ctx, r.id, reservedBytes)).value));
    return { data: rows.map((r, i) => ({ ...storageJson(r), sizeReserved: reserved[i]! })) };
  });

  app.get(
    '/api/users/:id/personal-folders/',
    { schema: { tags, summary: 'Where personal files go: the online storage and its folder (the root)', params: UserParams } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return { storageId: await ensureOnlineStorage(ctx, user.id, userActor(request, user.id)), folder: null };
    },
  );

  /** The page's JSON comes whole from PostgreSQL (see listFolder) and goes out as it is. */
  const listItems = async (reply: FastifyReply, access: StorageAccess, folder: string, q: z.infer<typeof ListQuery>) => {
    const storageId = access.storage.id;
    const roots = await backupFoldersOf(ctx.pool, storageId);
    const inside = roots.length > 0 && folder !== '' && (await itemsUnderBackups(ctx.pool, storageId, [folder], false)).has(folder);
    const visible = await visibleChildren(ctx, access, folder || null);
    return reply.type('application/json; charset=utf-8').send(await listFolder(ctx.pool, storageId, folder, q, { inside, roots }, visible));
  };

  /** An entry, marked when it is a backup's folder or inside one. */
  const backedUpEntry = async (storageId: string, item: ItemRow) =>
    entryJson(item, (await itemsUnderBackups(ctx.pool, storageId, [item.id], false)).has(item.id));

  app.get(
    '/api/users/:id/storages/:storageId/items/',
    { schema: { tags, summary: 'Items at the root of a storage', params: StorageParams, querystring: ListQuery } },
    async (request, reply) => {
      const { access } = await reach(request, request.params.id, request.params.storageId);
      return listItems(reply, access, '', request.query);
    },
  );

  app.get(
    '/api/users/:id/storages/:storageId/folders/:folderId/items/',
    { schema: { tags, summary: 'Items of a folder', params: FolderParams, querystring: ListQuery } },
    async (request, reply) => {
      const { access, storage, userId, session } = await reach(request, request.params.id, request.params.storageId);
      await liveItem(ctx, storage.id, request.params.folderId, 'folder');
      // a locked folder (or one inside a locked folder) is opened only with a fresh code
      await openItems(ctx, storage.id, [request.params.folderId], { userId, session, actor: userActor(request, userId), action: 'open' });
      return listItems(reply, access, request.params.folderId, request.query);
    },
  );

  const createItem = async (request: FastifyRequest, userId: string, storageId: string, folderId: string | null, body: z.infer<typeof CreateItemBody>) => {
    const { storage, access } = await reach(request, userId, storageId);
    const actor = userActor(request, userId);
    if (body.label === 'folder') {
      const parentId = folderId ?? body.parent ?? null;
      await requireAction(ctx, access, parentId, 'createFolder');
      const itemId = newId();
      const result = await runStorageCommand(
        ctx,
        storage.id,
        { type: 'CreateFolder', data: { itemId, parentId, name: body.name, rename: body.rename ?? false } },
        actor,
      );
      await ctx.caughtUp(result.position);
      return itemId;
    }
    await requireAction(ctx, access, folderId, 'upload');
    // an end-to-end file's key packets are checked before anything is claimed
    if (body.pgpmessage !== undefined) await keyPacketBytes(body.pgpmessage);
    // the same upload always makes the same file: a retried call finds it already made
    const itemId = deterministicId('file-from-upload', body.uploadId);
    // claimed first: from here the upload can no longer be discarded (a tus DELETE is refused)
    const upload = await bytes.uploads.claim(body.uploadId, userId, null);
    if (!upload) {
      // used up: by this very call made earlier (the answer was lost), the same file answers again
      const made = await readStorageState(ctx, storage.id, (s) => {
        const item = s.items.get(itemId);
        return !!item && item.label === 'file' && !item.trashed;
      });
      if (!made.value) throw new DomainError(StorageErrors.incompleteUpload);
      await ctx.caughtUp(made.position);
      return itemId;
    }
    if (upload.storageId !== storage.id) {
      await bytes.uploads.unclaim(body.uploadId, null);
      throw new DomainError(StorageErrors.incompleteUpload, { storageId: upload.storageId });
    }
    await pausepoint('file-from-upload:claimed');
    let result;
    try {
      result = await runStorageCommand(
        ctx,
        storage.id,
        {
          type: 'AddFile',
          data: {
            itemId,
            parentId: folderId,
            name: body.name,
            rename: body.rename ?? false,
            uploadId: body.uploadId,
            manifest: { ...upload.manifest, chunks: [...upload.manifest.chunks] },
            encrypted: true,
            e2eeEnabled: body.e2eeEnabled ?? false,
            pgpmessage: body.pgpmessage ?? null,
          },
        },
        actor,
      );
    } catch (error) {
      // refused (name, folder, quota): the upload is the client's again, to retry or cancel
      if (error instanceof DomainError) await bytes.uploads.unclaim(body.uploadId, null);
      throw error;
    }
    failpoint('file-from-upload:after-add');
    await pausepoint('file-from-upload:added');
    await bytes.uploads.consumed(body.uploadId);
    failpoint('file-from-upload:after-consumed');
    // a retry whose file was made before finds nothing to append: it waits for the head instead
    await ctx.caughtUp(result.position || (await readStorageState(ctx, storage.id, () => null)).position);
    return itemId;
  };

  const created = async (storageId: string, itemId: string) => {
    const item = await liveItem(ctx, storageId, itemId);
    return entryJson(item);
  };

  app.post(
    '/api/users/:id/storages/:storageId/items/',
    {
      schema: { tags, summary: 'Create a folder, or make a file from a finished upload, at the root', params: StorageParams, body: CreateItemBody },
      config: itemWrites,
    },
    async (request, reply) => {
      const itemId = await createItem(request, request.params.id, request.params.storageId, null, request.body);
      return reply.status(201).send(await created(request.params.storageId, itemId));
    },
  );

  app.post(
    '/api/users/:id/storages/:storageId/folders/:folderId/items/',
    {
      schema: { tags, summary: 'Create a folder, or make a file from a finished upload, in a folder', params: FolderParams, body: CreateItemBody },
      config: itemWrites,
    },
    async (request, reply) => {
      const itemId = await createItem(request, request.params.id, request.params.storageId, request.params.folderId, request.body);
      return reply.status(201).send(await created(request.params.storageId, itemId));
    },
  );

  app.get('/api/users/:id/storages/:storageId/folders/:folderId', { schema: { tags, summary: 'A folder', params: FolderParams } }, async (request) => {
    const { storage, access } = await reach(request, request.params.id, request.params.storageId);
    const item = await liveItem(ctx, storage.id, request.params.folderId, 'folder');
    await requireAction(ctx, access, item.id, 'preview');
    return backedUpEntry(storage.id, item);
  });

  app.get('/api/users/:id/storages/:storageId/files/:fileId', { schema: { tags, summary: 'A file', params: FileParams } }, async (request) => {
    const { storage, access } = await reach(request, request.params.id, request.params.storageId);
    const item = await liveItem(ctx, storage.id, request.params.fileId, 'file');
    await requireAction(ctx, access, item.id, 'preview');
    return backedUpEntry(storage.id, item);
  });

  app.get(
    '/api/users/:id/storages/:storageId/folders/:folderId/parent/',
    { schema: { tags, summary: "The folder's parents, from the root down", params: FolderParams } },
    async (request) => {
      const { storage, access } = await reach(request, request.params.id, request.params.storageId);
      await liveItem(ctx, storage.id, request.params.folderId, 'folder');
      await visibleChildren(ctx, access, request.params.folderId);
      return { data: await parentsOf(ctx, storage.id, request.params.folderId) };
    },
  );

  app.get(
    '/api/users/:id/storages/:storageId/files/:fileId/parent/',
    { schema: { tags, summary: "The file's parents, from the root down", params: FileParams } },
    async (request) => {
      const { storage, access } = await reach(request, request.params.id, request.params.storageId);
      await liveItem(ctx, storage.id, request.params.fileId, 'file');
      await requireAction(ctx, access, request.params.fileId, 'preview');
      return { data: await parentsOf(ctx, storage.id, request.params.fileId) };
    },
  );

  const infoOf = async (userId: string, item: ItemRow) => {
    const parents = await parentsOf(ctx, item.storage_id, item.id);
    return {
      id: item.id,
      name: item.name,
      label: entryLabel(item),
      size: Number(item.size),
      created: item.created_at.toISOString(),
      modified: item.modified_at.toISOString(),
      lastOpened: null,
      owner: userId,
      location: `/${parents.map((p) => p.name).join('/')}`,
      twoFactorLock: await isLocked(ctx.pool, item.storage_id, item.id),
      e2eeEnabled: item.e2ee_enabled,
      pgpmessage: item.pgpmessage,
      hash: item.hash,
      mime: item.mime,
      title: item.details.title ?? null,
      keywords: item.details.keywords ?? null,
      website: item.details.website ?? null,
      contactEmail: item.details.contactEmail ?? null,
      description: item.details.description ?? null,
      author: item.details.author ?? null,
      publisher: item.details.publisher ?? null,
      copyrightTypeId: item.details.copyrightTypeId ?? null,
      isbn: item.details.isbn ?? null,
      ttl: item.details.ttl ?? null,
    };
  };

  app.get(
    '/api/users/:id/storages/:storageId/items/:itemId/info/',
    { schema: { tags, summary: 'File details (spec §3)', params: ItemParams } },
    async (request) => {
      const { storage, access } = await reach(request, request.params.id, request.params.storageId);
      const item = await liveItem(ctx, storage.id, request.params.itemId);
      await requireAction(ctx, access, item.id, 'preview');
      return infoOf(storage.owner_id, item);
    },
  );

  app.put(
    '/api/users/:id/storages/:storageId/items/:itemId/info/',
    { schema: { tags, summary: "Change the owner's metadata of an item (title, keywords, TTL...)", params: ItemParams, body: DetailsBody }, config: edits },
    async (request) => {
      const { userId, storage } = await own(request, request.params.id, request.params.storageId);
      const result = await runStorageCommand(
        ctx,
        storage.id,
        { type: 'ChangeItemDetails', data: { itemId: request.params.itemId, details: request.body } },
        userActor(request, userId),
      );
      await ctx.caughtUp(result.position);
      return infoOf(userId, await liveItem(ctx, storage.id, request.params.itemId));
    },
  );

  app.patch(
    '/api/users/:id/storages/:storageId/items/:itemId/',
    { schema: { tags, summary: 'Rename an item', params: ItemParams, body: RenameBody }, config: edits },
    async (request) => {
      const { userId, storage, access } = await reach(request, request.params.id, request.params.storageId);
      await requireAction(ctx, access, request.params.itemId, 'rename');
      const result = await runStorageCommand(
        ctx,
        storage.id,
        { type: 'RenameItem', data: { itemId: request.params.itemId, name: request.body.name } },
        userActor(request, userId),
      );
      await ctx.caughtUp(result.position);
      return entryJson(await liveItem(ctx, storage.id, request.params.itemId));
    },
  );

  app.get(
    '/api/users/:id/storages/:storageId/search/',
    {
      schema: {
        tags,
        summary: 'Items whose name contains the text, anywhere in the storage, each with its location (the path of its folder)',
        params: StorageParams,
        querystring: SearchQuery,
      },
    },
    async (request) => {
      const { storage } = await own(request, request.params.id, request.params.storageId);
      const q = request.query;
      const { rows, total } = await searchStorageItems(ctx.pool, storage.id, q.search, q);
      // each result says which folder it is in: results come from anywhere in the storage
      const paths = await folderPathsOf(
        ctx,
        storage.id,
        rows.flatMap((r) => (r.folder ? [r.folder] : [])),
      );
      return {
        totalCount: total,
        data: rows.map((r) => ({ ...entryJson(r), location: r.folder ? (paths.get(r.folder) ?? '/') : '/' })),
      };
    },
  );

  app.get(
    '/api/users/:id/trash-bin/',
    { schema: { tags, summary: 'The trash: items put there, newest first', params: UserParams, querystring: TrashQuery } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const q = request.query;
      if (q.storageId) await ownStorage(ctx, user.id, q.storageId, userActor(request, user.id));
      const { rows, total } = await trashOf(ctx.pool, user.id, q.storageId ?? null, {
        sortBy: q.sort.replace('-', '') as 'name' | 'size' | 'trashedAt',
        sortOrder: q.sort.startsWith('-') ? 'desc' : 'asc',
        page: q.page,
        perPage: q.perPage,
      });
      return { totalCount: total, data: rows.map((r) => entryJson(r)) };
    },
  );
};

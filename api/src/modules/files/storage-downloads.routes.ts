import { accessStorage, requireAction } from './storage.access';
import { DomainError, StorageErrors } from '@axel/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { safeEqual } from '../../secrets';
import { requireSelf } from '../../http/auth';
import { ACTIVE_TYPES, contentDisposition, SIGNED_URL_TTL_MS, sendItemBytes } from './storage-downloads';
import type { FileContent } from './contracts';
import type { StorageBytes } from './storage.bytes';
import { DownloadQuery, FileParams, SignedDownloadQuery, SignedUrlQuery, tags } from './storage.schema';
import { userActor } from '../../http/request-meta';
import { liveItem, ownStorage, type ItemRow } from './storage.service';
import { openItems } from '../file-lock/file-lock.service';

const sendFile = async (
  content: FileContent,
  request: FastifyRequest,
  reply: FastifyReply,
  item: ItemRow,
  options: { contentType?: string; fileName?: string; inline?: boolean },
) => {
  const requested = options.contentType ?? item.mime ?? 'application/octet-stream';
  const active = ACTIVE_TYPES.test(requested);
  const type = active ? 'application/octet-stream' : requested;
  const inline = !active && /^(image|audio|video)\/|^application\/pdf$|^text\/plain$/.test(type) && (options.inline || options.contentType !== undefined);
  return sendItemBytes(content, request, reply, item, { type, disposition: contentDisposition(options.fileName || item.name, inline) });
};

const signedPayload = (storageId: string, fileId: string, expires: number, fileName: string) =>
  ['storage-download', storageId, fileId, String(expires), fileName].join('\u0000');

/** File bytes: by session, or by a short-lived URL signed with the server key. Both take HTTP Range. */
export const storageDownloadRoutes = (ctx: AppContext, bytes: StorageBytes) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.get(
    '/api/users/:id/storages/:storageId/files/:fileId/sources/',
    { schema: { tags, summary: "A file's bytes (HTTP Range for resume and seeking)", params: FileParams, querystring: DownloadQuery } },
    async (request, reply) => {
      const { user, session } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      const access = await accessStorage(ctx, user.id, request.params.storageId, actor);
      const storage = access.storage;
      const item = await liveItem(ctx, storage.id, request.params.fileId, 'file');
      await requireAction(ctx, access, item.id, 'download');
      await openItems(ctx, storage.id, [item.id], { userId: user.id, session, actor, action: 'download' });
      return sendFile(bytes.content, request, reply, item, request.query);
    },
  );

  app.get(
    '/api/urls/storage-download/',
    {
      schema: {
        tags,
        summary: 'A short-lived signed URL for the bytes of a file (players, previews, download managers)',
        querystring: SignedUrlQuery,
        response: { 200: z.object({ url: z.string(), expiresAt: z.string() }) },
      },
      config: limit({ perIp: 600, perAccount: 300, account: (r) => `user:${(r.query as { userId?: string }).userId ?? ''}` }),
    },
    async (request) => {
      const { user, session } = await requireSelf(ctx, request, request.query.userId);
      const actor = userActor(request, user.id);
      const storage = await ownStorage(ctx, user.id, request.query.storageId, actor);
      const item = await liveItem(ctx, storage.id, request.query.fileId, 'file');
      // the signed URL serves without a session: a locked file is asked for before it is made
      await openItems(ctx, storage.id, [item.id], { userId: user.id, session, actor, action: 'preview' });
      const expires = ctx.now().getTime() + SIGNED_URL_TTL_MS;
      const fileName = request.query.fileName ?? item.name;
      const signature = ctx.secrets.mac(signedPayload(storage.id, item.id, expires, fileName));
      const query = new URLSearchParams({ expires: String(expires), fileName, signature });
      return {
        // relative: previews load it from whatever host name the page was opened on
        url: `/api/storage-downloads/${storage.id}/${item.id}/?${query.toString()}`,
        expiresAt: new Date(expires).toISOString(),
      };
    },
  );

  app.get(
    '/api/storage-downloads/:storageId/:fileId/',
    {
      schema: {
        tags,
        summary: 'The bytes behind a signed URL (no session needed until it expires)',
        params: z.object({ storageId: z.string().min(1).max(64), fileId: z.string().min(1).max(64) }),
        querystring: SignedDownloadQuery,
      },
    },
    async (request, reply) => {
      const { storageId, fileId } = request.params;
      const { expires, signature } = request.query;
      const fileName = request.query.fileName ?? '';
      const valid = safeEqual(signature, ctx.secrets.mac(signedPayload(storageId, fileId, expires, fileName)));
      if (!valid || expires < ctx.now().getTime()) throw new DomainError(StorageErrors.invalidUrl);
      const item = await liveItem(ctx, storageId, fileId, 'file');
      return sendFile(bytes.content, request, reply, item, { fileName: fileName || undefined, inline: true });
    },
  );
};

import { ChunkLostError, FileKeyDestroyedError } from '@axel/platform/blobs/index';
import { DomainError, StorageErrors } from '@axel/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { safeEqual } from '../../secrets';
import { requireSelf } from '../accounts/auth';
import { storageBytes } from './storage.bytes';
import { DownloadQuery, FileParams, SignedDownloadQuery, SignedUrlQuery, tags } from './storage.schema';
import { liveItem, ownStorage, userActor, type ItemRow } from './storage.service';

/** How long a signed download URL works: long enough for a player to seek, short enough to leak little. */
export const SIGNED_URL_TTL_MS = 15 * 60_000;

/** Types a browser would run or render as a page of our origin: always sent as plain bytes. */
export const ACTIVE_TYPES = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript)/i;

type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range (a multi-range or malformed header is ignored, as RFC 9110 allows). */
export const parseRange = (header: string | undefined, size: number): ByteRange => {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
};

/** `attachment; filename="ascii"; filename*=UTF-8''utf8`: every browser gets the real name, none can be tricked by it. */
export const contentDisposition = (name: string, inline: boolean): string => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/**
 * A read that cannot start, as an answer: a chunk without an intact replica is `FILE_DAMAGED` (naming
 * the file; staff have it recorded), a file whose key is gone is a deleted file. Others pass through.
 */
export const readError = (error: unknown, item: Pick<ItemRow, 'id' | 'name'>): unknown => {
  if (error instanceof ChunkLostError) return new DomainError(StorageErrors.fileDamaged, { fileId: item.id, name: item.name });
  if (error instanceof FileKeyDestroyedError) return new DomainError(StorageErrors.fileDeleted, { fileId: item.id });
  return error;
};

/**
 * The decrypted bytes of a file, whole or by HTTP Range (`If-Range` on its etag); headers only for
 * HEAD. The first chunk is read before anything is sent, so a file that cannot be read answers an
 * error in the usual shape; a chunk lost further on cuts the connection (the length promised cannot
 * be kept) and is recorded for staff.
 */
export const sendItemBytes = async (
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  item: ItemRow,
  options: { type: string; disposition: string; headers?: Record<string, string> },
) => {
  if (!item.manifest) throw new DomainError(StorageErrors.fileDeleted);
  const size = Number(item.size);
  const etag = `"${item.hash ?? item.id}"`;
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new DomainError(StorageErrors.rangeNotSatisfiable, { size });
  }
  const content = storageBytes(ctx).content;
  // the reply is piped the stream and writes each chunk as it comes: once it has written out all it was
  // given, the buffers behind those chunks are used again (no new buffer, no garbage, per MiB sent)
  const readOptions = { unsent: () => reply.raw.writableLength, itemId: item.id };
  const stream = range
    ? content.read(item.manifest, range, readOptions)
    : size === 0
      ? content.read(item.manifest, undefined, { itemId: item.id })
      : content.read(item.manifest, { start: 0, end: size - 1 }, readOptions);
  if (request.method === 'HEAD') stream.destroy();
  else {
    try {
      await stream.firstChunk?.();
    } catch (error) {
      stream.destroy();
      throw readError(error, item);
    }
  }
  reply
    .header('content-type', options.type)
    .header('accept-ranges', 'bytes')
    .header('content-disposition', options.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .headers(options.headers ?? {})
    .header('etag', etag)
    .header('last-modified', item.modified_at.toUTCString());
  if (range) {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', String(range.end - range.start + 1));
  } else {
    reply.status(200).header('content-length', String(size));
  }
  return reply.send(request.method === 'HEAD' ? undefined : stream);
};

const sendFile = async (
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  item: ItemRow,
  options: { contentType?: string; fileName?: string; inline?: boolean },
) => {
  const requested = options.contentType ?? item.mime ?? 'application/octet-stream';
  const active = ACTIVE_TYPES.test(requested);
  const type = active ? 'application/octet-stream' : requested;
  const inline = !active && /^(image|audio|video)\/|^application\/pdf$|^text\/plain$/.test(type) && (options.inline || options.contentType !== undefined);
  return sendItemBytes(ctx, request, reply, item, { type, disposition: contentDisposition(options.fileName || item.name, inline) });
};

const signedPayload = (storageId: string, fileId: string, expires: number, fileName: string) =>
  ['storage-download', storageId, fileId, String(expires), fileName].join('\u0000');

/** File bytes: by session, or by a short-lived URL signed with the server key. Both take HTTP Range. */
export const storageDownloadRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.get(
    '/api/users/:id/storages/:storageId/files/:fileId/sources/',
    { schema: { tags, summary: "A file's bytes (HTTP Range for resume and seeking)", params: FileParams, querystring: DownloadQuery } },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const storage = await ownStorage(ctx, user.id, request.params.storageId, userActor(request, user.id));
      const item = await liveItem(ctx, storage.id, request.params.fileId, 'file');
      return sendFile(ctx, request, reply, item, request.query);
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
      const { user } = await requireSelf(ctx, request, request.query.userId);
      const storage = await ownStorage(ctx, user.id, request.query.storageId, userActor(request, user.id));
      const item = await liveItem(ctx, storage.id, request.query.fileId, 'file');
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
      return sendFile(ctx, request, reply, item, { fileName: fileName || undefined, inline: true });
    },
  );
};

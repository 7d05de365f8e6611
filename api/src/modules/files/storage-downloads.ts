import { ChunkLostError, FileKeyDestroyedError } from '@axel/platform/blobs/index';
import { DomainError, StorageErrors } from '@axel/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileContent } from './contracts';
import type { ItemRow } from './storage.service';

/*
 * Sending a file's bytes over HTTP: ranges, the headers that keep a file from running as a page of
 * our origin, and a read that cannot start as an answer. The storage's downloads, a share's
 * visitors and a Secure Fetch link's owner all send files this way.
 */

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
  content: FileContent,
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
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.status(200).header('content-length', String(size));
  }
  return reply.send(request.method === 'HEAD' ? undefined : stream);
};

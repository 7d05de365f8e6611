import type { IncomingMessage } from 'node:http';
import { CommonErrors, DomainError, SecureFetchErrors } from '@axel/domain';
import { Server, type ServerOptions } from '@tus/server';
import { Metadata, type Upload } from '@tus/utils';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { targetPath } from '../../http/server';
import { requireUser } from '../../http/auth';
import type { QuotaGate, SecureFetchUploadGate } from './contracts';
import { UPLOAD_ID, type EncryptingDataStore, type PgLocker } from './uploads.store';

/** Anonymous Secure Fetch creations one client address may make per minute (scaled by RATE_LIMIT_FACTOR). */
export const ANONYMOUS_CREATIONS_PER_MINUTE = 300;

/** Largest single upload tus accepts; the storage's quota is the real bound. */
const MAX_UPLOAD_SIZE = 2 ** 50;

const metadataSchema = z.object({
  storageId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/),
});

/** A Secure Fetch link's public handle: 22 characters of base64url. */
const linkIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

/** The `secureFetchId` of a creation's Upload-Metadata (decoded), or undefined; a malformed header has none. */
const secureFetchIdOf = (header: string | string[] | undefined): string | undefined => {
  if (typeof header !== 'string') return undefined;
  try {
    return Metadata.parse(header).secureFetchId ?? undefined;
  } catch {
    return undefined;
  }
};

/**
 * The request body as a web stream for tus, handing on the socket's own buffers. `Readable.toWeb`
 * copies every piece into a new buffer: garbage as large as the upload itself, which the collector
 * paid for with full collections every few MiB. A request that ends early errors the stream,
 * which tus answers as an aborted request; tus cancelling the stream lets go of the request.
 */
const bodyOf = (raw: IncomingMessage): ReadableStream<Uint8Array> => {
  const pieces = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await pieces.return?.();
    },
  });
};

/** tus answers in plain text; the product answers every error as `{ code, message, data }`. */
const TUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  404: 'UPLOAD_NOT_FOUND',
  409: 'UPLOAD_OFFSET_CONFLICT',
  410: 'UPLOAD_EXPIRED',
  412: 'TUS_RESUMABLE_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  423: 'UPLOAD_LOCKED',
  499: 'REQUEST_ABORTED',
  500: 'UPLOAD_FAILED',
  501: 'NOT_IMPLEMENTED',
};

/** The answer of an upload that failed on the server's side: the cause is logged, never sent. */
const UPLOAD_FAILED = {
  status_code: 500,
  body: JSON.stringify({ code: 'UPLOAD_FAILED', message: 'The upload could not be stored', data: null }),
};

const tusError = (error: DomainError) => ({
  status_code: error.status,
  body: JSON.stringify({ code: error.code, message: error.message, data: error.data ?? null }),
});

/**
 * tus 1.0 at /api/uploads/ (creation, creation-with-upload, termination, expiration). The session
 * is checked by fastify before tus takes the request; after the hand-off fastify's hooks no longer
 * run, so the answer's security headers are set here. Writes need `X-Requested-With` like every
 * write of the API (tus-js-client: `headers: { 'X-Requested-With': 'XMLHttpRequest' }`).
 *
 * Secure Fetch: a creation whose Upload-Metadata carries `secureFetchId <linkId>` needs no session.
 * The link's gate admits it into the link owner's storage (or refuses it with the spec's error), the
 * owner's quota is reserved as for any upload, and the upload's MD5, SHA-1 and SHA3-512 are computed
 * as its bytes arrive. Its later HEAD, PATCH and DELETE requests are authorised by the upload's id
 * alone (128 random bits, known only to whoever created it); a session upload still answers only
 * its own user.
 */
export const uploadRoutes =
  (ctx: AppContext, deps: { store: EncryptingDataStore; locker: PgLocker; quota: QuotaGate; secureFetchGate: SecureFetchUploadGate }) =>
  async (app: FastifyInstance) => {
    const users = new WeakMap<object, string>();
    const userOf = (req: object) => users.get(req);
    const publicOrigin = new URL(ctx.config.publicUrl).origin;

    const options: ServerOptions & { datastore: EncryptingDataStore } = {
      path: '/api/uploads',
      datastore: deps.store,
      locker: deps.locker,
      relativeLocation: true,
      maxSize: MAX_UPLOAD_SIZE,
      allowedOrigins: (origin) => origin === publicOrigin,
      allowedCredentials: true,
      getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID.test(lastPath) ? lastPath : undefined),
      onIncomingRequest: async (req, id) => {
        if (req.method === 'POST') return;
        const owner = await deps.store.ownerOf(id);
        // a Secure Fetch upload answers whoever knows its id
        if (owner?.secureFetchLinkId) return;
        // someone else's upload does not exist for this user
        if (!owner || owner.userId !== userOf(req)) throw { status_code: 404, body: 'The file for this url was not found\n' };
      },
      onUploadCreate: async (req, upload: Upload) => {
        if (upload.size === undefined) throw tusError(new DomainError(CommonErrors.validation, { fields: { uploadLength: 'required' } }));
        let linkId: string | undefined;
        let userId: string;
        let storageId: string;
        if (upload.metadata?.secureFetchId !== undefined) {
          const parsed = linkIdSchema.safeParse(upload.metadata.secureFetchId);
          // a malformed link is answered as the link page answers it: no longer valid
          if (!parsed.success) throw tusError(new DomainError(SecureFetchErrors.invalid));
          linkId = parsed.data;
          try {
            ({ ownerId: userId, storageId } = await deps.secureFetchGate.admit({ linkId: parsed.data, size: upload.size }));
          } catch (error) {
            if (error instanceof DomainError) throw tusError(error);
            throw error;
          }
        } else {
          const sessionUser = userOf(req);
          if (!sessionUser) throw tusError(new DomainError(CommonErrors.unauthorized));
          const parsed = metadataSchema.safeParse({ storageId: upload.metadata?.storageId ?? undefined });
          if (!parsed.success) throw tusError(new DomainError(CommonErrors.validation, { fields: { storageId: 'invalid' } }));
          userId = sessionUser;
          storageId = parsed.data.storageId;
        }
        try {
          // refused here, before a byte is stored
          await deps.quota.reserve({ userId, storageId, uploadId: upload.id, size: upload.size });
        } catch (error) {
          if (error instanceof DomainError) throw tusError(error);
          throw error;
        }
        // the file name in the metadata is personal data: it is neither kept nor logged here
        const metadata: Record<string, string> = { storageId, userId };
        if (linkId !== undefined) metadata.secureFetchId = linkId;
        return { metadata };
      },
      onResponseError: (_req, error) => {
        if (error instanceof DomainError) return tusError(error);
        if ('status_code' in error) return undefined;
        // the cause (with the server's folders and chunk names) goes to the log only, never in the answer
        ctx.log.error({ err: error, component: 'uploads' }, 'upload request failed');
        return UPLOAD_FAILED;
      },
    };
    const tus = new Server(options);

    const answer = async (request: FastifyRequest, reply: FastifyReply, res: Response) => {
      const raw = reply.raw;
      const headers: Record<string, string> = {};
      for (const [name, value] of res.headers) headers[name] = value;
      let body: Buffer | null = res.body ? Buffer.from(await res.arrayBuffer()) : null;
      if (res.status >= 400) {
        const text = body?.toString('utf8').trim() ?? '';
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const ok = json && typeof json === 'object' && 'code' in json && 'message' in json;
        // a server-side failure's text may name the server's files: only the generic answer goes out
        const message = res.status >= 500 ? 'The upload could not be stored' : text || 'The upload request was refused';
        body = Buffer.from(JSON.stringify(ok ? json : { code: TUS_CODES[res.status] ?? 'UPLOAD_REFUSED', message, data: null }));
        headers['content-type'] = 'application/json; charset=utf-8';
      }
      if (body) headers['content-length'] = String(body.length);
      Object.assign(headers, {
        'x-correlation-id': request.id,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      if (request.protocol === 'https' || (!ctx.config.TRUST_PROXY && ctx.config.publicUrl.startsWith('https://'))) {
        headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
      }
      raw.writeHead(res.status, headers);
      raw.end(request.method === 'HEAD' ? undefined : (body ?? undefined));
    };

    /** Requests that need no session: preflights, Secure Fetch creations and requests on a Secure Fetch upload. */
    const anonymous = async (request: FastifyRequest): Promise<boolean> => {
      if (request.method === 'OPTIONS') return true;
      if (request.method === 'POST') return secureFetchIdOf(request.headers['upload-metadata']) !== undefined;
      const id = (request.params as { id?: string }).id;
      return !!id && UPLOAD_ID.test(id) && !!(await deps.store.ownerOf(id))?.secureFetchLinkId;
    };

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const userId = (await anonymous(request)) ? undefined : (await requireUser(ctx, request)).user.id;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const hasBody = request.method === 'PATCH' || request.method === 'POST';
      const web = new Request(new URL(targetPath(request.url).split('/').map(encodeURIComponent).join('/'), 'http://upload.invalid'), {
        method: request.method,
        headers,
        body: hasBody ? bodyOf(request.raw) : undefined,
        // Node's fetch needs half duplex for a streamed request body
        duplex: 'half',
      });
      if (userId) users.set(web, userId);
      reply.hijack();
      try {
        await answer(request, reply, await tus.handleWeb(web));
      } catch (error) {
        ctx.log.error({ err: error, component: 'uploads' }, 'upload request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
          reply.raw.end(JSON.stringify({ code: 'UPLOAD_FAILED', message: 'The upload could not be stored', data: null }));
        } else reply.raw.destroy();
      }
    };

    // the bytes stay in the request stream for tus to read
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
    app.route({
      method: ['POST', 'OPTIONS'],
      url: '/api/uploads/',
      schema: { tags: ['uploads'], summary: 'Create a tus upload (Upload-Length, Upload-Metadata with storageId, or secureFetchId without a session)' },
      // a dropped folder of small files creates many uploads at once (tus-js-client does not retry a 429);
      // anonymous (Secure Fetch) creations have a tighter cap of their own per address
      config: limit({
        perIp: 3000,
        perAccount: ANONYMOUS_CREATIONS_PER_MINUTE,
        window: 'minute',
        account: (request) =>
          request.method === 'POST' && secureFetchIdOf(request.headers['upload-metadata']) !== undefined ? `secure-fetch-upload:${request.ip}` : null,
      }),
      handler,
    });
    app.route({
      method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/api/uploads/:id',
      schema: { tags: ['uploads'], summary: 'Resume (HEAD), send bytes (PATCH) or terminate (DELETE) a tus upload' },
      config: limit({ perIp: 20_000, window: 'minute' }),
      handler,
    });
  };

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import querystring from 'node:querystring';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { dropboxContentHash } from './dropbox.content-hash';

/**
 * A Dropbox STAND-IN for development and tests (Dropbox cannot be reached from here): a small
 * server over a folder speaking the request and answer shapes of Dropbox's public HTTP API
 * (`files.stone`): OAuth 2 authorize (approves at once) and token (code with PKCE, refresh, short
 * access tokens), token revoke, `files/list_folder` and `list_folder/continue` with
 * `has_more`/`cursor`, `get_temporary_link`, `create_folder_v2`, `get_metadata`, and on the
 * content side `download`, `upload` and `get_preview`. It can answer 429 `too_many_requests` with a
 * Retry-After on demand. It is not Dropbox and is never part of the product's own code paths.
 */
export interface DropboxStandIn {
  readonly url: string;
  readonly root: string;
  /** The folder behind an account (made on first use). */
  folderOf(accountId: string): string;
  /** The next `count` calls answer 429 with `Retry-After: seconds`. */
  throttle(count: number, seconds?: number): void;
  /** Downloads of this path (lower case) send other bytes than its content hash says. */
  tamper(pathLower: string): void;
  /** Every access token issued so far expires now. */
  expireAccessTokens(): void;
  /** Calls received, `METHOD /path`, in order. */
  readonly calls: string[];
  stop(): Promise<void>;
}

interface Grant {
  accountId: string;
  challenge: string;
  redirectUri: string;
}

const ACCESS_SECONDS = 14_400;

const error = (reply: FastifyReply, status: number, summary: string, detail: unknown) =>
  reply.status(status).send({ error_summary: `${summary}/..`, error: detail });
const pathError = (reply: FastifyReply, tag: string, field = 'path') => error(reply, 409, `${field}/${tag}`, { '.tag': field, [field]: { '.tag': tag } });

export const startDropboxStandIn = async (options: {
  root: string;
  host?: string;
  port?: number;
  accessSeconds?: number;
  pageSize?: number;
  /** The account the authorize page approves as (a new one each time when unset). */
  account?: string;
}): Promise<DropboxStandIn> => {
  const root = path.resolve(options.root);
  mkdirSync(root, { recursive: true });
  const codes = new Map<string, Grant>();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, { accountId: string; expiresAt: number }>();
  const temporaryLinks = new Map<string, { file: string; expiresAt: number }>();
  const tampered = new Set<string>();
  const calls: string[] = [];
  let throttled = 0;
  let throttleSeconds = 1;
  const accessSeconds = options.accessSeconds ?? ACCESS_SECONDS;
  const pageSize = options.pageSize ?? 2000;

  const folderOf = (accountId: string) => {
    const dir = path.join(root, accountId.replace(/[^\w.-]/g, '_'));
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const token = () => randomBytes(24).toString('base64url');

  const app: FastifyInstance = Fastify({ bodyLimit: 200 * 1024 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, querystring.parse(body as string)));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (request, reply) => {
    calls.push(`${request.method} ${request.url.split('?')[0]}`);
    if (throttled > 0 && request.url !== '/oauth2/authorize') {
      throttled--;
      return reply
        .status(429)
        .header('retry-after', String(throttleSeconds))
        .send({ error_summary: 'too_many_requests/..', error: { reason: { '.tag': 'too_many_requests' }, retry_after: throttleSeconds } });
    }
  });

  /** The account of the request's bearer token, or an answer in Dropbox's 401 shape. */
  const accountOf = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const found = bearer ? accessTokens.get(bearer) : undefined;
    if (!found) {
      void error(reply, 401, 'invalid_access_token', { '.tag': 'invalid_access_token' });
      return undefined;
    }
    if (found.expiresAt <= Date.now()) {
      void error(reply, 401, 'expired_access_token', { '.tag': 'expired_access_token' });
      return undefined;
    }
    return found.accountId;
  };

  /** A Dropbox path ('' is the root, else '/a/b') inside the account's folder, or undefined when malformed. */
  const resolve = (accountId: string, dropboxPath: unknown): string | undefined => {
    if (typeof dropboxPath !== 'string') return undefined;
    if (dropboxPath !== '' && !dropboxPath.startsWith('/')) return undefined;
    if (dropboxPath === '/') return undefined;
    const parts = dropboxPath.split('/').filter(Boolean);
    if (parts.some((p) => p === '.' || p === '..')) return undefined;
    return path.join(folderOf(accountId), ...parts);
  };
  const displayOf = (accountId: string, file: string) => `/${path.relative(folderOf(accountId), file).split(path.sep).join('/')}`;
  const idOf = (display: string) => `id:${createHash('sha1').update(display.toLowerCase()).digest('base64url').slice(0, 22)}`;

  const metadataOf = async (accountId: string, file: string, withTag: boolean) => {
    const s = await stat(file);
    const display = displayOf(accountId, file);
    const common = { name: path.basename(file), path_lower: display.toLowerCase(), path_display: display, id: idOf(display) };
    if (s.isDirectory()) return { ...(withTag ? { '.tag': 'folder' } : {}), ...common };
    const content = await readFile(file);
    const modified = s.mtime.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      ...(withTag ? { '.tag': 'file' } : {}),
      ...common,
      client_modified: modified,
      server_modified: modified,
      rev: createHash('sha1').update(content).digest('hex').slice(0, 16),
      size: s.size,
      is_downloadable: true,
      content_hash: dropboxContentHash(content),
    };
  };
  const exists = (file: string) =>
    stat(file).then(
      (s) => s,
      () => undefined,
    );

  app.get('/oauth2/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    if (q.response_type !== 'code' || !q.client_id || !q.redirect_uri || !q.code_challenge || q.code_challenge_method !== 'S256') {
      return reply.status(400).type('text/plain').send('invalid authorize request');
    }
    // the stand-in's own switch, not Dropbox's: which of its accounts approves
    const accountId = q.standin_account ?? options.account ?? `dbid:${token().slice(0, 16)}`;
    const code = token();
    codes.set(code, { accountId, challenge: q.code_challenge, redirectUri: q.redirect_uri });
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    if (q.state) back.searchParams.set('state', q.state);
    return reply.redirect(back.toString());
  });

  app.post('/oauth2/token', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string | undefined>;
    const issue = (accountId: string, refresh?: string) => {
      const accessToken = `sl.${token()}`;
      accessTokens.set(accessToken, { accountId, expiresAt: Date.now() + accessSeconds * 1000 });
      return {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: accessSeconds,
        ...(refresh ? { refresh_token: refresh } : {}),
        scope: 'files.content.read files.content.write files.metadata.read',
        uid: accountId.replace(/\D/g, '') || '1',
        account_id: accountId,
      };
    };
    if (!b.client_id) return reply.status(400).send({ error: 'invalid_client', error_description: 'No auth function available for given request' });
    if (b.grant_type === 'authorization_code') {
      const grant = b.code ? codes.get(b.code) : undefined;
      if (b.code) codes.delete(b.code);
      const challenge = createHash('sha256')
        .update(b.code_verifier ?? '')
        .digest('base64url');
      if (!grant || grant.redirectUri !== b.redirect_uri || grant.challenge !== challenge) {
        return reply.status(400).send({ error: 'invalid_grant', error_description: "code doesn't exist or has expired" });
      }
      const refresh = token();
      refreshTokens.set(refresh, grant.accountId);
      return issue(grant.accountId, refresh);
    }
    if (b.grant_type === 'refresh_token') {
      const accountId = b.refresh_token ? refreshTokens.get(b.refresh_token) : undefined;
      if (!accountId) return reply.status(400).send({ error: 'invalid_grant', error_description: 'refresh token is invalid or revoked' });
      return issue(accountId);
    }
    return reply.status(400).send({ error: 'unsupported_grant_type' });
  });

  app.post('/2/auth/token/revoke', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    // revoking ends the whole authorization: the access tokens and the refresh token of the account
    for (const [t, a] of accessTokens) if (a.accountId === accountId) accessTokens.delete(t);
    for (const [t, a] of refreshTokens) if (a === accountId) refreshTokens.delete(t);
    return reply.status(200).send(null);
  });

  const listPage = async (accountId: string, dir: string, offset: number, limit: number) => {
    const names = (await readdir(dir)).sort((a, b) => a.localeCompare(b));
    const slice = names.slice(offset, offset + limit);
    const entries = await Promise.all(slice.map((n) => metadataOf(accountId, path.join(dir, n), true)));
    const next = offset + slice.length;
    const cursor = Buffer.from(JSON.stringify({ a: accountId, d: displayOf(accountId, dir), o: next, l: limit })).toString('base64url');
    return { entries, cursor, has_more: next < names.length };
  };

  app.post('/2/files/list_folder', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const b = (request.body ?? {}) as { path?: unknown; limit?: unknown };
    const dir = resolve(accountId, b.path);
    if (!dir) return error(reply, 400, 'Error in call to API function "files/list_folder"', 'path: bad format');
    const s = await exists(dir);
    if (!s) return pathError(reply, 'not_found');
    if (!s.isDirectory()) return pathError(reply, 'not_folder');
    const limit = typeof b.limit === 'number' && b.limit >= 1 && b.limit <= 2000 ? b.limit : pageSize;
    return listPage(accountId, dir, 0, limit);
  });

  app.post('/2/files/list_folder/continue', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const cursor = (request.body as { cursor?: unknown } | null)?.cursor;
    let parsed: { a: string; d: string; o: number; l: number } | undefined;
    try {
      parsed = typeof cursor === 'string' ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.a !== accountId) return error(reply, 409, 'reset', { '.tag': 'reset' });
    const dir = resolve(accountId, parsed.d === '/' ? '' : parsed.d);
    if (!dir || !(await exists(dir))) return error(reply, 409, 'path/not_found', { '.tag': 'path', path: { '.tag': 'not_found' } });
    return listPage(accountId, dir, parsed.o, parsed.l);
  });

  app.post('/2/files/get_metadata', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const file = resolve(accountId, (request.body as { path?: unknown } | null)?.path);
    if (!file || !(await exists(file))) return pathError(reply, 'not_found');
    return metadataOf(accountId, file, true);
  });

  app.post('/2/files/get_temporary_link', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const file = resolve(accountId, (request.body as { path?: unknown } | null)?.path);
    const s = file ? await exists(file) : undefined;
    if (!file || !s) return pathError(reply, 'not_found');
    if (s.isDirectory()) return pathError(reply, 'not_file');
    const id = token();
    temporaryLinks.set(id, { file, expiresAt: Date.now() + 4 * 3_600_000 });
    const host = `http://${request.headers.host}`;
    return { metadata: await metadataOf(accountId, file, false), link: `${host}/temporary/${id}` };
  });

  app.get('/temporary/:id', async (request, reply) => {
    const link = temporaryLinks.get((request.params as { id: string }).id);
    if (!link || link.expiresAt <= Date.now()) return reply.status(410).type('text/plain').send('This link has expired');
    return reply.type('application/octet-stream').send(await readFile(link.file));
  });

  app.post('/2/files/create_folder_v2', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const b = (request.body ?? {}) as { path?: unknown; autorename?: unknown };
    let dir = resolve(accountId, b.path);
    if (!dir || b.path === '') return error(reply, 400, 'Error in call to API function "files/create_folder_v2"', 'path: bad format');
    if (await exists(dir)) {
      if (b.autorename !== true) return pathError(reply, 'conflict');
      const base = dir;
      for (let n = 1; await exists(dir); n++) dir = `${base} (${n})`;
    }
    if (!(await exists(path.dirname(dir)))) await mkdir(path.dirname(dir), { recursive: true });
    await mkdir(dir);
    return { metadata: await metadataOf(accountId, dir, false) };
  });

  const headerArg = (request: FastifyRequest): Record<string, unknown> | undefined => {
    const raw = request.headers['dropbox-api-arg'];
    if (typeof raw !== 'string') return undefined;
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const badArg = (reply: FastifyReply, endpoint: string) =>
    reply.status(400).type('text/plain').send(`Error in call to API function "files/${endpoint}": Bad HTTP "Dropbox-API-Arg" header`);

  app.post('/2/files/download', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const arg = headerArg(request);
    if (!arg) return badArg(reply, 'download');
    const file = resolve(accountId, arg.path);
    const s = file ? await exists(file) : undefined;
    if (!file || !s) return pathError(reply, 'not_found');
    if (s.isDirectory()) return pathError(reply, 'not_file');
    const meta = await metadataOf(accountId, file, false);
    let content = await readFile(file);
    if (tampered.has(meta.path_lower) && content.length > 0) {
      content = Buffer.from(content);
      content[0] = content[0]! ^ 0xff;
    }
    return reply.header('dropbox-api-result', JSON.stringify(meta)).type('application/octet-stream').send(content);
  });

  app.post('/2/files/get_preview', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const arg = headerArg(request);
    if (!arg) return badArg(reply, 'get_preview');
    const file = resolve(accountId, arg.path);
    const s = file ? await exists(file) : undefined;
    if (!file || !s || s.isDirectory()) return pathError(reply, 'not_found');
    const meta = await metadataOf(accountId, file, false);
    const ext = path.extname(file).toLowerCase();
    // Dropbox previews office documents as PDF and sheets as HTML; the stand-in serves PDFs as they are and text as HTML
    if (ext === '.pdf')
      return reply
        .header('dropbox-api-result', JSON.stringify(meta))
        .type('application/pdf')
        .send(await readFile(file));
    if (['.txt', '.csv', '.md'].includes(ext)) {
      const text = (await readFile(file, 'utf8')).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
      return reply.header('dropbox-api-result', JSON.stringify(meta)).type('text/html; charset=utf-8').send(`<html><body><pre>${text}</pre></body></html>`);
    }
    return error(reply, 409, 'unsupported_extension', { '.tag': 'unsupported_extension' });
  });

  app.post('/2/files/upload', async (request, reply) => {
    const accountId = accountOf(request, reply);
    if (!accountId) return reply;
    const arg = headerArg(request);
    if (!arg) return badArg(reply, 'upload');
    const body = request.body;
    if (!Buffer.isBuffer(body)) return reply.status(400).type('text/plain').send('Bad HTTP "Content-Type" header: expecting application/octet-stream');
    if (body.length > 150 * 1024 * 1024) return error(reply, 413, 'payload_too_large', { '.tag': 'payload_too_large' });
    let file = resolve(accountId, arg.path);
    if (!file || arg.path === '') return error(reply, 400, 'Error in call to API function "files/upload"', 'path: bad format');
    if ((await exists(file)) && arg.mode !== 'overwrite') {
      if (arg.autorename !== true)
        return error(reply, 409, 'path/conflict/file', { '.tag': 'path', reason: { '.tag': 'conflict', conflict: { '.tag': 'file' } } });
      const ext = path.extname(file);
      const stem = file.slice(0, file.length - ext.length);
      for (let n = 1; await exists(file); n++) file = `${stem} (${n})${ext}`;
    }
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    return metadataOf(accountId, file, false);
  });

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    url: address.replace('0.0.0.0', '127.0.0.1'),
    root,
    folderOf,
    throttle(count, seconds = 1) {
      throttled = count;
      throttleSeconds = seconds;
    },
    tamper: (pathLower) => void tampered.add(pathLower),
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    calls,
    stop: () => app.close(),
  };
};

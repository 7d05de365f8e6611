import { CommonErrors, DomainError, DROPBOX_PAGE_SIZE, DROPBOX_UPLOAD_MAX_BYTES, IntegrationErrors } from '@axel/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context';
import { requireSelf, requireUser } from '../../../http/auth';
import { limitsFor } from '../../../http/rate-limits';
import { userActor } from '../../../http/request-meta';
import type { PlanOf } from '../../accounts/user-info';
import type { BytePipeline } from '../../files/uploads';
import {
  assertDropboxAllowed,
  configured,
  disconnectApp,
  dropboxAccessToken,
  loadIntegrations,
  openAuthorizationState,
  pkcePair,
  recordGrant,
  redirectUriOf,
  runIntegrationCommand,
  sealAuthorizationState,
  withDropboxToken,
  type IntegrationPorts,
} from '../integrations.service';
import { DropboxAuthBody, ImportBody, ProxyBody, ProxyParams, tags, UserParams } from '../integrations.schema';
import { headerSafeJson } from './dropbox.http';
import { importFromDropbox } from './dropbox.import';
import {
  DROPBOX_CONTENT_ENDPOINTS,
  DROPBOX_RPC_ENDPOINTS,
  DropboxRefusedError,
  isBytes,
  type DropboxAnswer,
  type DropboxContentEndpoint,
  type DropboxRpcEndpoint,
} from './dropbox.port';

const UploadArg = z.object({
  path: z.string().min(2).max(4096).startsWith('/'),
  mode: z.enum(['add', 'overwrite']).optional(),
  autorename: z.boolean().optional(),
});
const ContentHeaders = z.object({ 'dropbox-api-arg': z.string().max(8192).optional() });
const UploadHeaders = z.object({ 'dropbox-api-arg': z.string().min(2).max(8192), 'content-length': z.coerce.number().int().nonnegative().optional() });

/** Dropbox's own answer, handed on (spec §7: response bodies are returned directly), but never its 401 or a 5xx. */
const sendAnswer = (reply: FastifyReply, answer: DropboxAnswer) => {
  if (answer.status === 401) throw new DomainError(IntegrationErrors.notConnected, { app: 'dropbox' });
  if (answer.status >= 500) throw new DomainError(IntegrationErrors.providerFailed, { app: 'dropbox', status: answer.status });
  if (answer.retryAfter !== undefined) reply.header('retry-after', String(answer.retryAfter));
  return reply.status(answer.status).send(answer.body);
};

const parseArg = (raw: string | undefined, body: unknown): unknown => {
  if (raw === undefined) return body ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new DomainError(CommonErrors.validation, { fields: { 'dropbox-api-arg': 'invalid' } });
  }
};

/**
 * Dropbox (spec §2 files/dropbox, /app/dropbox/auth; §7): connecting with OAuth 2 code + PKCE, the
 * access token, revoking; the two proxies the web app's Dropbox clients call, with the user's
 * bearer token added here; uploads to Dropbox (150 MB at most) and imports into the storage.
 */
export const dropboxRoutes =
  (ctx: AppContext, deps: { readonly ports: IntegrationPorts; readonly planOf: PlanOf; readonly bytes: (ctx: AppContext) => BytePipeline }) =>
  async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { ports, planOf } = deps;
    const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
    const calls = limit({ perIp: 600, perAccount: 300 });
    const connects = limit({ perIp: 30, perAccount: 20 });
    // a server without Dropbox answers every Dropbox call 503, before reading what was sent
    fastify.addHook('onRequest', async () => void configured(ports.dropbox, 'dropbox'));
    fastify.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: DROPBOX_UPLOAD_MAX_BYTES }, (_request, body, done) =>
      done(null, body),
    );

    /** Configured (else 503), signed in, and allowed by the plan and the team (else the token is revoked, 403). */
    const allowed = async (request: FastifyRequest, userId?: string) => {
      const dropbox = configured(ports.dropbox, 'dropbox');
      const { user } = userId === undefined ? await requireUser(ctx, request) : await requireSelf(ctx, request, userId);
      const actor = userActor(request, user.id);
      await assertDropboxAllowed(ctx, planOf, ports, user.id, actor);
      return { dropbox, user, actor };
    };

    app.get(
      '/api/users/:id/dropbox/authorize',
      { schema: { tags, summary: "Where to send the browser to connect the user's Dropbox (code flow with PKCE)", params: UserParams }, config: connects },
      async (request) => {
        const { dropbox, user } = await allowed(request, request.params.id);
        const { verifier, challenge } = pkcePair();
        const state = sealAuthorizationState(ctx, { u: user.id, a: 'dropbox', v: verifier });
        return { url: dropbox.authorizeUrl({ state, codeChallenge: challenge, redirectUri: redirectUriOf(ctx, 'dropbox') }) };
      },
    );

    app.post(
      '/api/users/:id/dropbox/auth',
      {
        schema: { tags, summary: 'Connect Dropbox with the code it sent back to /app/dropbox/auth', params: UserParams, body: DropboxAuthBody },
        config: connects,
      },
      async (request) => {
        const { dropbox, user, actor } = await allowed(request, request.params.id);
        const state = openAuthorizationState(ctx, request.body.state, user.id, 'dropbox');
        let grant;
        try {
          grant = await dropbox.exchangeCode({ code: request.body.code, codeVerifier: state.v ?? '', redirectUri: redirectUriOf(ctx, 'dropbox') });
        } catch (error) {
          if (error instanceof DropboxRefusedError) throw new DomainError(IntegrationErrors.authorizationRefused, { app: 'dropbox' });
          throw new DomainError(IntegrationErrors.providerFailed, { app: 'dropbox' });
        }
        await recordGrant(ctx, user.id, { app: 'dropbox', region: null, ...grant }, actor);
        return { app: 'dropbox', connected: true };
      },
    );

    app.get(
      '/api/users/:id/dropbox/accesstoken',
      { schema: { tags, summary: 'A short-lived Dropbox access token of the user (refreshed by the server)', params: UserParams }, config: calls },
      async (request, reply) => {
        const { user, actor } = await allowed(request, request.params.id);
        const token = await dropboxAccessToken(ctx, ports, user.id, actor);
        reply.header('cache-control', 'no-store');
        return { accessToken: token.accessToken, expiresAt: token.expiresAt.toISOString() };
      },
    );

    app.post(
      '/api/users/:id/dropbox/revoke',
      { schema: { tags, summary: 'Disconnect Dropbox: the token is revoked at Dropbox and forgotten here', params: UserParams }, config: connects },
      async (request) => {
        configured(ports.dropbox, 'dropbox');
        const { user } = await requireSelf(ctx, request, request.params.id);
        await disconnectApp(ctx, ports, user.id, 'dropbox', 'user', userActor(request, user.id));
        return { app: 'dropbox', connected: false };
      },
    );

    app.post(
      '/api/users/:id/dropbox/import',
      {
        schema: {
          tags,
          summary: 'Import a Dropbox file into a storage: a finished upload, its bytes checked against Dropbox content_hash',
          params: UserParams,
          body: ImportBody,
        },
        config: limit({ perIp: 60, perAccount: 30 }),
      },
      async (request, reply) => {
        const { user, actor } = await allowed(request, request.params.id);
        const imported = await importFromDropbox(ctx, ports, deps.bytes(ctx), { userId: user.id, ...request.body }, actor);
        return reply.status(201).send(imported);
      },
    );

    app.post(
      '/api/dropboxapi/2/files/*',
      {
        schema: {
          tags,
          summary: 'Dropbox files API (list_folder, list_folder/continue, get_temporary_link, create_folder_v2, get_metadata) with the user token',
          params: ProxyParams,
          body: ProxyBody,
        },
        config: calls,
      },
      async (request, reply) => {
        const endpoint = request.params['*'] as DropboxRpcEndpoint;
        if (!DROPBOX_RPC_ENDPOINTS.includes(endpoint)) throw new DomainError(CommonErrors.notFound);
        const { dropbox, user, actor } = await allowed(request);
        // spec §9: the dropbox view pages by 500
        const args = endpoint === 'list_folder' ? { limit: DROPBOX_PAGE_SIZE, ...(request.body ?? {}) } : (request.body ?? null);
        return sendAnswer(reply, await withDropboxToken(ctx, ports, user.id, actor, (token) => dropbox.rpc(token, endpoint, args)));
      },
    );

    app.post(
      '/api/dropboxcontent/2/files/upload',
      {
        schema: {
          tags,
          summary: 'Upload a file to Dropbox (at most 150 MB; argument in the Dropbox-API-Arg header)',
          headers: UploadHeaders,
          body: z.custom<Buffer>((v) => Buffer.isBuffer(v), 'the file bytes, as application/octet-stream'),
        },
        config: limit({ perIp: 60, perAccount: 30 }),
        // refused before its bytes are read
        onRequest: async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > DROPBOX_UPLOAD_MAX_BYTES) {
            throw new DomainError(IntegrationErrors.uploadTooLarge, { max: DROPBOX_UPLOAD_MAX_BYTES });
          }
        },
      },
      async (request, reply) => {
        const { dropbox, user, actor } = await allowed(request);
        const arg = UploadArg.safeParse(parseArg(request.headers['dropbox-api-arg'], undefined));
        if (!arg.success) throw new DomainError(CommonErrors.validation, { fields: { 'dropbox-api-arg': 'invalid' } });
        const body = request.body;
        if (body.length > DROPBOX_UPLOAD_MAX_BYTES) throw new DomainError(IntegrationErrors.uploadTooLarge, { max: DROPBOX_UPLOAD_MAX_BYTES });
        if (!(await loadIntegrations(ctx, user.id)).connections.dropbox) throw new DomainError(IntegrationErrors.notConnected, { app: 'dropbox' });
        const answer = await withDropboxToken(ctx, ports, user.id, actor, (token) => dropbox.upload(token, arg.data, body));
        if (answer.status === 200) {
          const meta = answer.body as { path_display?: string; content_hash?: string; size?: number };
          await runIntegrationCommand(
            ctx,
            user.id,
            {
              type: 'RecordDropboxUpload',
              data: { path: meta.path_display ?? arg.data.path, contentHash: meta.content_hash ?? '', size: meta.size ?? body.length },
            },
            actor,
          );
        }
        return sendAnswer(reply, answer);
      },
    );

    app.post(
      '/api/dropboxcontent/2/files/*',
      {
        schema: {
          tags,
          summary: 'Dropbox content API (get_preview, download) with the user token',
          params: ProxyParams,
          headers: ContentHeaders,
          body: ProxyBody,
        },
        config: calls,
      },
      async (request, reply) => {
        const endpoint = request.params['*'] as DropboxContentEndpoint;
        if (!DROPBOX_CONTENT_ENDPOINTS.includes(endpoint)) throw new DomainError(CommonErrors.notFound);
        const { dropbox, user, actor } = await allowed(request);
        const args = parseArg(request.headers['dropbox-api-arg'], request.body);
        const answer = await withDropboxToken(ctx, ports, user.id, actor, async (token) => {
          const a = await dropbox.content(token, endpoint, args);
          return a;
        });
        if (!isBytes(answer)) return sendAnswer(reply, answer);
        reply.header('content-type', answer.contentType).header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-store');
        // a preview is HTML or PDF made by Dropbox: shown, never run as this site's page
        reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        if (answer.result) reply.header('dropbox-api-result', headerSafeJson(answer.result));
        return reply.status(200).send(answer.body);
      },
    );
  };

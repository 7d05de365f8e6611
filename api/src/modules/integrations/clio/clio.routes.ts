import { DomainError, IntegrationErrors } from '@axel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context';
import { requireSelf } from '../../../http/auth';
import { limitsFor } from '../../../http/rate-limits';
import { userActor } from '../../../http/request-meta';
import type { BytePipeline } from '../../files/uploads';
import {
  clioAccessToken,
  configured,
  openAuthorizationState,
  recordGrant,
  redirectUriOf,
  sealAuthorizationState,
  type IntegrationPorts,
} from '../integrations.service';
import { ClioAuthBody, ClioAuthorizeQuery, ClioCertificateBody, ClioFileBody, MattersQuery, tags, UserParams } from '../integrations.schema';
import { fileCertificate, fileStoredDocument, type CertificateOf } from './clio.filing';
import { ClioRefusedError } from './clio.port';

/** Clio (spec §2 /app/clio, /app/clio/auth; §7 clio/auth): connecting per region, matters, filing documents and certificates. */
export const clioRoutes =
  (ctx: AppContext, deps: { readonly ports: IntegrationPorts; readonly bytes: (ctx: AppContext) => BytePipeline; readonly certificateOf: CertificateOf }) =>
  async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { ports } = deps;
    const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
    const connects = limit({ perIp: 30, perAccount: 20 });
    // a server without Clio answers every Clio call 503, before reading what was sent
    fastify.addHook('onRequest', async () => void configured(ports.clio, 'clio'));
    const filings = limit({ perIp: 60, perAccount: 30 });

    const signedIn = async (request: Parameters<typeof requireSelf>[1], id: string) => {
      const clio = configured(ports.clio, 'clio');
      const { user } = await requireSelf(ctx, request, id);
      return { clio, user, actor: userActor(request, user.id) };
    };

    app.get(
      '/api/users/:id/clio/authorize',
      {
        schema: { tags, summary: "Where to send the browser to connect the user's Clio, in its region", params: UserParams, querystring: ClioAuthorizeQuery },
        config: connects,
      },
      async (request) => {
        const { clio, user } = await signedIn(request, request.params.id);
        const state = sealAuthorizationState(ctx, { u: user.id, a: 'clio', r: request.query.region });
        return { url: clio.authorizeUrl(request.query.region, { state, redirectUri: redirectUriOf(ctx, 'clio') }) };
      },
    );

    for (const path of ['/api/users/:id/clio/auth/', '/api/users/:id/clio/auth']) {
      app.post(
        path,
        { schema: { tags, summary: 'Connect Clio with the code it sent back to /app/clio/auth', params: UserParams, body: ClioAuthBody }, config: connects },
        async (request) => {
          const { clio, user, actor } = await signedIn(request, request.params.id);
          const region = request.body.state ? (openAuthorizationState(ctx, request.body.state, user.id, 'clio').r ?? 'app') : (request.body.region ?? 'app');
          try {
            const grant = await clio.exchangeCode(region, { code: request.body.code, redirectUri: redirectUriOf(ctx, 'clio') });
            const who = await clio.whoAmI(region, grant.accessToken);
            await recordGrant(ctx, user.id, { app: 'clio', accountId: who.id, region, ...grant }, actor);
            return { app: 'clio', connected: true, region, name: who.name };
          } catch (error) {
            if (error instanceof DomainError) throw error;
            if (error instanceof ClioRefusedError) throw new DomainError(IntegrationErrors.authorizationRefused, { app: 'clio' });
            throw new DomainError(IntegrationErrors.providerFailed, { app: 'clio' });
          }
        },
      );
    }

    app.get(
      '/api/users/:id/clio/matters',
      {
        schema: { tags, summary: "The open matters of the user's Clio, to file documents to", params: UserParams, querystring: MattersQuery },
        config: filings,
      },
      async (request) => {
        const { user, actor } = await signedIn(request, request.params.id);
        const { accessToken, region, clio } = await clioAccessToken(ctx, ports, user.id, actor);
        try {
          return { data: await clio.matters(region, accessToken, request.query.q) };
        } catch {
          throw new DomainError(IntegrationErrors.providerFailed, { app: 'clio' });
        }
      },
    );

    app.post(
      '/api/users/:id/clio/documents',
      { schema: { tags, summary: 'File a stored file to a Clio matter', params: UserParams, body: ClioFileBody }, config: filings },
      async (request, reply) => {
        const { user, actor } = await signedIn(request, request.params.id);
        const filed = await fileStoredDocument(ctx, ports, deps.bytes(ctx).content, { userId: user.id, ...request.body }, actor);
        return reply.status(201).send(filed);
      },
    );

    app.post(
      '/api/users/:id/clio/certificates',
      {
        schema: {
          tags,
          summary: 'File a Secure Fetch certificate of authenticity, with its hashes, to a Clio matter',
          params: UserParams,
          body: ClioCertificateBody,
        },
        config: filings,
      },
      async (request, reply) => {
        const { user, actor } = await signedIn(request, request.params.id);
        const filed = await fileCertificate(ctx, ports, deps.certificateOf, { userId: user.id, ...request.body }, actor);
        return reply.status(201).send(filed);
      },
    );
  };

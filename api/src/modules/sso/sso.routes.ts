import { AccountErrors, CommonErrors, DomainError, IntegrationErrors, type Locale } from '@axel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { SESSION_COOKIE, sessionCookieOptions } from '../../http/sessions';
import { findUser } from '@axel/projections/users/users.queries';
import { readDeviceCookie, setDeviceCookie } from '../accounts/device-cookie';
import { userInfo, type PlanOf } from '../accounts/user-info';
import { configuredProviders, OIDC_PROVIDERS, OidcClient, OidcError, type OidcProviderType } from './oidc';
import { ssoSignIn } from './sso-sign-in';
import { AuthorizeQuery, ErrorSchema, ProvidersAnswer, SsoAnswer, SsoBody, TypeParams } from './sso.schema';

const tags = ['sessions'];

/** The signed-in user's row once the read models hold the sign-in (read-your-writes). */
const freshUser = async (ctx: AppContext, userId: string, position: number) => {
  await ctx.caughtUp(position);
  const user = await findUser(ctx.pool, userId);
  if (!user) throw new DomainError(AccountErrors.userNotFound);
  return user;
};
const ROUND_COOKIE = 'axel_sso';
const ROUND_TTL_MS = 10 * 60_000;
const TWO_FACTOR_TTL_MS = 10 * 60_000;

interface SealedRound {
  type: OidcProviderType;
  state: string;
  nonce: string;
  codeVerifier: string;
  termsAccepted: boolean;
  locale: Locale;
  expiresAt: number;
}

/**
 * Single sign-on with OpenID Connect (spec §7 `POST /sso/{type}`): `GET /sso/{type}/authorize`
 * sends the browser to the provider (the round's state, nonce and PKCE verifier sealed in a
 * cookie); the provider returns it to the web app's `/signin/sso/{type}`, which posts the code
 * here. A provider without configuration answers 503 INTEGRATION_NOT_CONFIGURED.
 */
export const ssoRoutes = (ctx: AppContext, planOf: PlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const secure = ctx.config.publicUrl.startsWith('https://');
  const clients = new Map(configuredProviders(ctx.config).map((p) => [p.type, new OidcClient(p)]));
  const clientOf = (type: string): OidcClient => {
    if (!(OIDC_PROVIDERS as readonly string[]).includes(type)) throw new DomainError(CommonErrors.notFound, { type });
    const client = clients.get(type as OidcProviderType);
    if (!client) throw new DomainError(IntegrationErrors.notConfigured, { integration: `sso:${type}` });
    return client;
  };
  const redirectUri = (type: string) => `${ctx.config.publicUrl}/signin/sso/${type}`;
  const roundCookie = { path: '/api/sso/', httpOnly: true, sameSite: 'lax' as const, secure };

  app.get('/api/sso/', { schema: { tags, summary: 'The single sign-on providers configured here', response: { 200: ProvidersAnswer } } }, async () => ({
    data: [...clients.keys()].map((type) => ({ type, authorizeUrl: `/api/sso/${type}/authorize` })),
  }));

  app.get(
    '/api/sso/:type/authorize',
    {
      schema: {
        tags,
        summary: 'Start a sign-in with a provider (redirects to it)',
        params: TypeParams,
        querystring: AuthorizeQuery,
        response: { 503: ErrorSchema },
      },
      config: limit({ perIp: 60 }),
    },
    async (request, reply) => {
      const client = clientOf(request.params.type);
      const round = await OidcClient.newRound();
      let url: string;
      try {
        url = await client.authorizationUrl(redirectUri(client.provider.type), round);
      } catch (error) {
        ctx.log.warn({ err: error, provider: client.provider.type }, 'single sign-on provider unreachable');
        throw new DomainError(IntegrationErrors.signInProviderFailed);
      }
      const sealed: SealedRound = {
        type: client.provider.type,
        state: round.state,
        nonce: round.nonce,
        codeVerifier: round.codeVerifier,
        termsAccepted: request.query.termsAccepted === 'true',
        locale: request.query.locale,
        expiresAt: ctx.now().getTime() + ROUND_TTL_MS,
      };
      reply.setCookie(ROUND_COOKIE, ctx.secrets.encrypt(JSON.stringify(sealed)), { ...roundCookie, maxAge: ROUND_TTL_MS / 1000 });
      return reply.redirect(url, 302);
    },
  );

  const openRound = (request: FastifyRequest, type: string): SealedRound => {
    const raw = request.cookies[ROUND_COOKIE];
    try {
      const round = raw ? (JSON.parse(ctx.secrets.decrypt(raw)) as SealedRound) : null;
      if (round && round.type === type && round.expiresAt > ctx.now().getTime()) return round;
    } catch {
      /* not ours */
    }
    throw new DomainError(IntegrationErrors.signInRoundInvalid);
  };

  const openTwoFactor = (token: string, type: string): string => {
    try {
      const t = JSON.parse(ctx.secrets.decrypt(token)) as { userId: string; type: string; expiresAt: number };
      if (t.type === type && t.expiresAt > ctx.now().getTime()) return t.userId;
    } catch {
      /* not ours */
    }
    throw new DomainError(IntegrationErrors.signInRoundInvalid);
  };

  app.post(
    '/api/sso/:type',
    {
      schema: {
        tags,
        summary: 'Sign in with the code a provider returned (or finish it with the second factor)',
        params: TypeParams,
        body: SsoBody,
        response: { 200: SsoAnswer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 502: ErrorSchema, 503: ErrorSchema },
      },
      config: limit({ perIp: 30 }),
    },
    async (request, reply) => {
      const client = clientOf(request.params.type);
      const type = client.provider.type;
      const meta = requestMeta(request);
      const device = readDeviceCookie(request, ctx.secrets);
      const { code, state, twoFactorToken } = request.body;
      let result: Awaited<ReturnType<typeof ssoSignIn>>;
      if (twoFactorToken) {
        result = await ssoSignIn(ctx, { type, userId: openTwoFactor(twoFactorToken, type), code, termsAccepted: false, locale: 'en_us' }, meta, device);
      } else {
        const round = openRound(request, type);
        // a round is used once, whatever its outcome
        reply.clearCookie(ROUND_COOKIE, roundCookie);
        let identity: Awaited<ReturnType<OidcClient['identify']>>;
        try {
          identity = await client.identify(redirectUri(type), new URLSearchParams({ code, state: state ?? '' }), round);
        } catch (error) {
          if (!(error instanceof OidcError)) throw error;
          ctx.log.warn({ err: error, provider: type }, 'single sign-on refused');
          throw new DomainError(IntegrationErrors.signInProviderFailed);
        }
        result = await ssoSignIn(ctx, { type, identity, termsAccepted: round.termsAccepted, locale: round.locale }, meta, device);
      }
      if (result.kind === 'two_factor_required') {
        const sealed = ctx.secrets.encrypt(JSON.stringify({ userId: result.userId, type, expiresAt: ctx.now().getTime() + TWO_FACTOR_TTL_MS }));
        return { twoFactorRequired: true as const, method: result.method, twoFactorToken: sealed };
      }
      const user = await freshUser(ctx, result.userId, result.position);
      reply.setCookie(SESSION_COOKIE, result.token, sessionCookieOptions(secure));
      setDeviceCookie(reply, ctx.secrets, result.device, secure);
      return { user: await userInfo(ctx, planOf, user) };
    },
  );
};

import { createHmac } from 'node:crypto';
import { DomainError, IntegrationErrors } from '@axel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { safeEqual } from '../../secrets';
import type { PushStore } from './push.store';
import { ErrorSchema, FcmTokenBody, IdParams, SlackAnswer, SlackLinkBody, SlackWebhookBody } from './push.schema';
import { hostAllowed, type VapidKeys } from './web-push.adapter';

const tags = ['notifications'];
/** Users whose plan is unpaid get no push binding (spec §6). */
const UNPAID_STATUSES = new Set(['unpaid', 'abandoned']);
const SLACK_LINK_TTL_MS = 15 * 60_000;
const SLACK_CLOCK_SKEW_S = 5 * 60;

const slackLinkMac = (ctx: AppContext, slackUserId: string, expires: number) => ctx.secrets.mac(`slack-link\0${slackUserId}\0${expires}`);

/** A link that binds a Slack user to whichever account opens it (signed, 15 minutes). */
export const slackLink = (ctx: AppContext, slackUserId: string): string => {
  const expires = ctx.now().getTime() + SLACK_LINK_TTL_MS;
  const query = new URLSearchParams({ expires: String(expires), signature: slackLinkMac(ctx, slackUserId, expires) });
  return `${ctx.config.publicUrl}/slack-auth/${encodeURIComponent(slackUserId)}?${query}`;
};

/** Slack's request signing (v0): HMAC-SHA256 of `v0:timestamp:body` under the app's signing secret. */
export const slackSignatureValid = (secret: string, timestamp: string, body: string, signature: string, nowS: number): boolean => {
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowS - ts) > SLACK_CLOCK_SKEW_S) return false;
  const expected = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return safeEqual(expected, signature);
};

/**
 * `POST /users/{id}/fcm-tokens/` binds a browser's push subscription; Slack: the `/axel` command
 * answers a signed link to `/slack-auth/{slackUserId}`, whose page binds the Slack user to the
 * signed-in account, then sets the incoming webhook that hears of arrivals.
 */
export const pushRoutes = (ctx: AppContext, store: PushStore, vapid: VapidKeys) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.get(
    '/api/push/vapid-public-key',
    {
      schema: { tags, summary: "The server's VAPID public key, for a browser's pushManager.subscribe", response: { 200: z.object({ publicKey: z.string() }) } },
    },
    async () => ({ publicKey: vapid.publicKey }),
  );

  app.post(
    '/api/users/:id/fcm-tokens/',
    {
      schema: {
        tags,
        summary: "Bind this browser's push subscription (fcmToken) to the account",
        params: IdParams,
        body: FcmTokenBody,
        response: { 200: z.object({ bound: z.boolean() }), 400: ErrorSchema },
      },
      config: limit({ perAccount: 30 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      if (UNPAID_STATUSES.has(user.status)) return { bound: false };
      const s = request.body.fcmToken;
      if (!hostAllowed(s.endpoint, ctx.config.PUSH_SERVICE_HOSTS)) throw new DomainError(IntegrationErrors.destinationRefused, { field: 'fcmToken' });
      await store.bind(user.id, { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth }, ctx.now());
      return { bound: true };
    },
  );

  app.delete(
    '/api/users/:id/fcm-tokens/',
    {
      schema: { tags, summary: "Unbind this browser's push subscription", params: IdParams, body: FcmTokenBody },
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await store.unbind(user.id, request.body.fcmToken.endpoint);
      return reply.status(204).send();
    },
  );

  // ---- Slack ----------------------------------------------------------------------------------

  const slackSecret = (): string => {
    const secret = ctx.config.SLACK_SIGNING_SECRET;
    if (!secret) throw new DomainError(IntegrationErrors.notConfigured, { integration: 'slack' });
    return secret;
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 65_536 }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/slack/commands',
      {
        schema: {
          tags,
          summary: "Slack's `/axel` command: answers the signed link that connects the Slack user",
          response: { 200: z.object({ response_type: z.literal('ephemeral'), text: z.string() }), 401: ErrorSchema, 503: ErrorSchema },
        },
        config: { signedWebhook: true, ...limit({ perIp: 60 }) },
      },
      async (request) => {
        const secret = slackSecret();
        const raw = typeof request.body === 'string' ? request.body : '';
        const valid = slackSignatureValid(
          secret,
          String(request.headers['x-slack-request-timestamp'] ?? ''),
          raw,
          String(request.headers['x-slack-signature'] ?? ''),
          Math.floor(ctx.now().getTime() / 1000),
        );
        const slackUserId = new URLSearchParams(raw).get('user_id') ?? '';
        if (!valid || !SlackLinkBody.shape.slackUserId.safeParse(slackUserId).success) {
          throw new DomainError({ code: 'SLACK_SIGNATURE_INVALID', status: 401, message: 'The request is not signed by Slack' });
        }
        return { response_type: 'ephemeral' as const, text: `Connect your AXEL Drive account: ${slackLink(ctx, slackUserId)}` };
      },
    );
  });

  app.post(
    '/api/users/:id/slack/',
    {
      schema: {
        tags,
        summary: 'Link the Slack user of a signed /slack-auth link to the account',
        params: IdParams,
        body: SlackLinkBody,
        response: { 200: SlackAnswer, 400: ErrorSchema, 503: ErrorSchema },
      },
      config: limit({ perAccount: 20 }),
    },
    async (request) => {
      slackSecret();
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { slackUserId, expires, signature } = request.body;
      if (expires <= ctx.now().getTime() || !safeEqual(slackLinkMac(ctx, slackUserId, expires), signature)) {
        throw new DomainError(IntegrationErrors.signInRoundInvalid);
      }
      await store.linkSlack(user.id, slackUserId, ctx.now());
      return { slackUserId, webhookUrl: null };
    },
  );

  app.put(
    '/api/users/:id/slack/webhook',
    {
      schema: {
        tags,
        summary: 'Set (or clear) the Slack incoming webhook that hears of arrivals',
        params: IdParams,
        body: SlackWebhookBody,
        response: { 200: SlackAnswer, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const url = request.body.webhookUrl;
      if (url !== null && !hostAllowed(url, ctx.config.SLACK_WEBHOOK_HOSTS))
        throw new DomainError(IntegrationErrors.destinationRefused, { field: 'webhookUrl' });
      if (!(await store.setSlackWebhook(user.id, url, ctx.now())))
        throw new DomainError({ code: 'SLACK_NOT_LINKED', status: 404, message: 'No Slack user is linked to this account' });
      return { slackUserId: (await store.slackOf(user.id))!.slack_user_id, webhookUrl: url };
    },
  );

  app.get(
    '/api/users/:id/slack/',
    { schema: { tags, summary: 'The linked Slack user and webhook', params: IdParams, response: { 200: SlackAnswer, 404: ErrorSchema } } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const link = await store.slackOf(user.id);
      if (!link) throw new DomainError({ code: 'SLACK_NOT_LINKED', status: 404, message: 'No Slack user is linked to this account' });
      return { slackUserId: link.slack_user_id, webhookUrl: link.webhook_url };
    },
  );

  app.delete('/api/users/:id/slack/', { schema: { tags, summary: 'Unlink Slack', params: IdParams } }, async (request, reply) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    await store.unlinkSlack(user.id);
    return reply.status(204).send();
  });
};

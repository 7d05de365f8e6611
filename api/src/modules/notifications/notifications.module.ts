import {
  MAX_IDS_PER_CALL,
  notificationEventDefinitions,
  notificationsDecider,
  notificationsStreamName,
  NOTIFICATIONS_PAGE_SIZE,
  renderNotice,
  type NoticeParams,
  type NotificationCommand,
} from '@axel/domain';
import type { Migration } from '@axel/platform';
import { handleCommand } from '@axel/platform';
import { notificationsProjection } from '@axel/projections';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import { requestMeta } from '../../http/request-meta';
import { requireSelf } from '../../http/auth';

const tags = ['notifications'];
const IdParams = z.object({ id: z.string().min(1).max(64) });
const Ids = z.object({ ids: z.array(z.string().min(1).max(64)).max(MAX_IDS_PER_CALL) });
const NotificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  seen: z.boolean(),
  createdAt: z.string(),
});

const routes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users/:id/notifications/count/',
    { schema: { tags, summary: 'Unseen notifications', params: IdParams, response: { 200: z.object({ count: z.number() }) } } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { rows } = await ctx.pool.query<{ n: number }>('select count(*)::int as n from notifications where user_id = $1 and not seen and not deleted', [
        user.id,
      ]);
      return { count: rows[0]?.n ?? 0 };
    },
  );

  app.get(
    '/api/users/:id/notifications/',
    {
      schema: {
        tags,
        summary: 'Notifications, newest first, 20 a page after `startFrom`',
        params: IdParams,
        querystring: z.object({
          perPage: z.coerce.number().int().min(1).max(100).default(NOTIFICATIONS_PAGE_SIZE),
          startFrom: z.string().max(64).optional(),
        }),
        response: { 200: z.object({ data: z.array(NotificationSchema) }) },
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { perPage, startFrom } = request.query;
      const { rows } = await ctx.pool.query<{ id: string; type: string; params: NoticeParams; seen: boolean; created_at: Date }>(
        `select id, type, params, seen, created_at from notifications n
         where user_id = $1 and not deleted
           and ($2::text is null or (created_at, id) < (select created_at, id from notifications where id = $2 and user_id = $1))
         order by created_at desc, id desc limit $3`,
        [user.id, startFrom ?? null, perPage],
      );
      // in the reader's language as it is now, so a change of language applies to earlier notices too
      return {
        data: rows.map((r) => ({
          id: r.id,
          type: r.type,
          ...renderNotice(r.type, r.params, user.locale),
          seen: r.seen,
          createdAt: r.created_at.toISOString(),
        })),
      };
    },
  );

  const change = (method: 'POST' | 'DELETE', type: NotificationCommand['type'], summary: string) =>
    app.route({
      method,
      url: '/api/users/:id/notifications/',
      schema: { tags, summary, params: IdParams, body: Ids },
      handler: async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const meta = requestMeta(request);
        const result = await handleCommand(
          ctx.commands,
          notificationsDecider,
          notificationsStreamName(user.id),
          { type, data: { ids: request.body.ids }, metadata: { now: ctx.now() } } as NotificationCommand,
          { actorId: user.id, actorKind: 'user', ip: meta.ip, userAgent: meta.userAgent, client: meta.client, correlationId: meta.correlationId },
        );
        if (result.position) await ctx.caughtUp(result.position);
        return reply.status(204).send();
      },
    });
  change('POST', 'MarkNotificationsSeen', 'Mark notifications seen');
  change('DELETE', 'DeleteNotifications', 'Delete notifications');
};

/**
 * Notices were once stored as English words; they are now a kind and parameters. The table is
 * dropped and its checkpoint forgotten, so the projection rebuilds it from the events at start.
 */
const migrations: Migration[] = [
  {
    id: 'notifications-001-notices-as-kind-and-params',
    sql: `drop table if exists notifications; drop table if exists notifications__next;
          delete from projection_checkpoints where name = 'notifications'`,
  },
];

export const notificationsModule: Module = {
  name: 'notifications',
  events: notificationEventDefinitions,
  migrations,
  projections: [notificationsProjection],
  routes,
};

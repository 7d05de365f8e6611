import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';

export interface HealthExtras {
  processes?: () => Promise<unknown>;
  /** The blob store: degraded, with the reasons, while replicas are missing or a shard fails. */
  blobs?: () => Promise<{ status: 'ok' | 'degraded'; reasons: readonly unknown[] } | undefined>;
}

const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  time: z.string(),
  uptimeSeconds: z.number(),
  adapters: z.object({
    database: z.string(),
    eventStore: z.string(),
    processes: z.string(),
    mail: z.string(),
    blobs: z.string(),
  }),
  eventStore: z.object({ headPosition: z.number() }),
  projections: z.array(
    z.object({
      name: z.string(),
      position: z.number(),
      behind: z.number(),
      lagMs: z.number(),
      running: z.boolean(),
      lastError: z.string().nullable(),
    }),
  ),
  processes: z.unknown().optional(),
  blobs: z
    .object({
      status: z.enum(['ok', 'degraded']),
      reasons: z.array(
        z.object({ code: z.string(), shard: z.string().nullable(), detail: z.string().nullable(), count: z.number(), at: z.string().nullable() }),
      ),
    })
    .optional(),
});

export const healthRoutes =
  (ctx: AppContext, extras: HealthExtras = {}) =>
  async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/health',
      {
        schema: {
          tags: ['system'],
          summary: 'Adapters in use, event store head, each projection position and lag',
          response: { 200: HealthSchema },
        },
      },
      async () => {
        const [head, projections, processes, blobs] = await Promise.all([
          ctx.store.headPosition(),
          ctx.runner.status(),
          extras.processes?.(),
          extras.blobs?.(),
        ]);
        const degraded = projections.some((p) => p.lastError || !p.running) || blobs?.status === 'degraded';
        return {
          status: degraded ? ('degraded' as const) : ('ok' as const),
          time: ctx.now().toISOString(),
          uptimeSeconds: Math.round(process.uptime()),
          adapters: ctx.adapters,
          eventStore: { headPosition: head },
          projections,
          ...(processes === undefined ? {} : { processes }),
          ...(blobs === undefined ? {} : { blobs: blobs as z.infer<typeof HealthSchema>['blobs'] }),
        };
      },
    );
  };

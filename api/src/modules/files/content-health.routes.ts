import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth';
import { lastCollection } from './blob-maintenance';
import type { BytePipeline } from './uploads';

const scrubReport = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  checked: z.number(),
  repaired: z.number(),
  lost: z.number(),
  lostChunks: z.array(z.string()).readonly(),
  unreferenced: z.number().optional(),
  failed: z.number().optional(),
  shardFaults: z
    .array(z.object({ shard: z.string(), operation: z.string(), reason: z.string() }))
    .readonly()
    .optional(),
});

const collectReport = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  stored: z.number(),
  unreferenced: z.number(),
  chunksDeleted: z.number(),
  keysDestroyed: z.number(),
  waiting: z.number(),
  skipped: z.string().nullable(),
});

/**
 * Staff: whether the store is degraded and why, each shard's chunks, bytes, free space and problem, the
 * faults recorded since the last clean scrub, what the last scrub found and what the last collection deleted.
 */
export const blobHealthRoutes = (ctx: AppContext, pipeline: BytePipeline) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/admin/blobs/health',
    {
      schema: {
        tags: ['admin'],
        summary: 'Blob store health: shards and the last scrub',
        response: {
          200: z.object({
            adapter: z.enum(['local', 's3']),
            replicas: z.number(),
            nodeId: z.string(),
            status: z.enum(['ok', 'degraded']),
            reasons: z.array(
              z.object({ code: z.string(), shard: z.string().nullable(), detail: z.string().nullable(), count: z.number(), at: z.string().nullable() }),
            ),
            shards: z.array(
              z.object({ shard: z.string(), chunks: z.number(), bytes: z.number(), freeBytes: z.number().nullable(), problem: z.string().nullable() }),
            ),
            faults: z.array(
              z.object({
                at: z.string(),
                kind: z.string(),
                shard: z.string().nullable(),
                detail: z.string(),
                cid: z.string().nullable(),
                itemId: z.string().nullable(),
              }),
            ),
            lastScrub: scrubReport.nullable(),
            lastCollection: collectReport.nullable(),
          }),
        },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      const { status, reasons } = await pipeline.faults.status(pipeline.blobs);
      return {
        adapter: pipeline.blobsKind,
        replicas: pipeline.blobs.replicas,
        nodeId: pipeline.nodeId,
        status,
        reasons: [...reasons],
        shards: await pipeline.blobs.health(),
        faults: await pipeline.faults.recentFaults(),
        lastScrub: await pipeline.lastScrub(),
        lastCollection: await lastCollection(ctx),
      };
    },
  );
};

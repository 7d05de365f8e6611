import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireStaff } from '../accounts/auth';
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

/** Staff: each shard's chunks, bytes and free space, what the last scrub found and what the last collection deleted. */
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
            shards: z.array(z.object({ shard: z.string(), chunks: z.number(), bytes: z.number(), freeBytes: z.number().nullable() })),
            lastScrub: scrubReport.nullable(),
            lastCollection: collectReport.nullable(),
          }),
        },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      return {
        adapter: pipeline.blobsKind,
        replicas: pipeline.blobs.replicas,
        nodeId: pipeline.nodeId,
        shards: await pipeline.blobs.health(),
        lastScrub: await pipeline.lastScrub(),
        lastCollection: await lastCollection(ctx),
      };
    },
  );
};

import { blobMaintenanceEventDefinitions } from '@axel/domain';
import { fileKeyMigrations } from '@axel/platform/blobs/index';
import type { Module } from '../../app';
import type { AppContext } from '../../context';
import { blobCollectMigrations } from './blob-collect';
import { blobFaultMigrations, type BlobHealthStatus } from './blob-faults';
import { bindBlobMaintenance, scheduleBlobMaintenance } from './blob-maintenance';
import { blobHealthRoutes } from './content-health.routes';
import { createBytePipeline, type BytePipeline } from './uploads';
import { startPipelineJobs } from './uploads.jobs';
import { uploadMigrations } from './uploads.migrations';
import { uploadRoutes } from './uploads.routes';
import { bindStorageBytes } from './storage.bytes';
import { storageFileManifests } from './storage.module';
import { storagePlacements, storageQuotaGate } from './storage.quota-gate';

/**
 * Files: the byte pipeline (blob store, encryption at rest, tus uploads, verified reads, scrub)
 * and, wired to it through `contracts.ts`, the storage slice.
 */
export const createFilesModule = (): Module & { pipeline(): BytePipeline | undefined; blobStatus(): Promise<BlobHealthStatus | undefined> } => {
  let pipeline: BytePipeline | undefined;
  let stopJobs: (() => Promise<void>) | undefined;
  const build = (ctx: AppContext) => (pipeline ??= createBytePipeline(ctx, { quota: storageQuotaGate(ctx), placements: storagePlacements(ctx), fileManifests: () => storageFileManifests(ctx) }));

  return {
    events: blobMaintenanceEventDefinitions,
    migrations: [...fileKeyMigrations, ...uploadMigrations, ...blobCollectMigrations, ...blobFaultMigrations],
    pipeline: () => pipeline,
    blobStatus: async () => (pipeline ? pipeline.faults.status(pipeline.blobs) : undefined),
    routes: (ctx) => async (app) => {
      const p = build(ctx);
      bindStorageBytes(ctx, p);
      bindBlobMaintenance(ctx, p);
      await app.register(uploadRoutes(ctx, { store: p.store, locker: p.locker, quota: p.quota }));
      await app.register(blobHealthRoutes(ctx, p));
    },
    async start(ctx, roles) {
      const p = build(ctx);
      bindBlobMaintenance(ctx, p);
      if (roles.has('worker')) {
        stopJobs = startPipelineJobs(ctx, p);
        // the scrub and the collection run as the blob-maintenance process: its schedule starts it
        if (ctx.adapters.processes !== 'none') await scheduleBlobMaintenance(ctx);
      }
    },
    async stop() {
      await stopJobs?.();
      await pipeline?.close();
    },
    async health() {
      if (!pipeline) return undefined;
      return { adapter: pipeline.blobsKind, shards: pipeline.blobs.shards.length, replicas: pipeline.blobs.replicas };
    },
  };
};

import { blobMaintenanceEventDefinitions } from '@axel/domain';
import { fileKeyMigrations } from '@axel/platform/blobs/index';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import type { DispatchContext, ProcessCommand } from '@axel/workflows';
import { blobCollectMigrations } from './blob-collect';
import { blobFaultMigrations, type BlobHealthStatus } from './blob-faults';
import { blobMaintenanceCommand, scheduleBlobMaintenance } from './blob-maintenance';
import { blobHealthRoutes } from './content-health.routes';
import { residencyReportRoutes } from './residency-report.routes';
import { createBytePipeline, type BytePipeline } from './uploads';
import { startPipelineJobs } from './uploads.jobs';
import { uploadMigrations } from './uploads.migrations';
import { uploadRoutes } from './uploads.routes';
import type { SecureFetchUploadGate } from './contracts';
import { storageFileManifests } from './storage.module';
import { storagePlacements, storageQuotaGate } from './storage.quota-gate';

/** The files module as `app.ts` wires it: a module, and the pipeline other modules are given. */
export interface FilesModule extends Module {
  /** The byte pipeline of the app (built on first use): the storage's uploads and content. */
  readonly bytes: (ctx: AppContext) => BytePipeline;
  /** The pipeline once built, if it is. */
  pipeline(): BytePipeline | undefined;
  blobStatus(): Promise<BlobHealthStatus | undefined>;
  /** The blob-maintenance process's commands (`ScrubBlobs`, `CollectBlobs`). */
  maintenance(ctx: AppContext, command: ProcessCommand, dctx: DispatchContext): Promise<{ position: number }>;
}

/**
 * Files: the byte pipeline (blob store, encryption at rest, tus uploads, verified reads, scrub)
 * and, wired to it through `contracts.ts`, the storage slice. Anonymous tus creations are admitted
 * by the Secure Fetch gate it is built with.
 */
export const createFilesModule = (deps: { readonly secureFetchGate: (ctx: AppContext) => SecureFetchUploadGate }): FilesModule => {
  let pipeline: BytePipeline | undefined;
  let stopJobs: (() => Promise<void>) | undefined;
  const build = (ctx: AppContext) =>
    (pipeline ??= createBytePipeline(ctx, {
      quota: storageQuotaGate(ctx),
      placements: storagePlacements(ctx),
      fileManifests: () => storageFileManifests(ctx),
    }));

  return {
    name: 'files',
    events: blobMaintenanceEventDefinitions,
    migrations: [...fileKeyMigrations, ...uploadMigrations, ...blobCollectMigrations, ...blobFaultMigrations],
    bytes: build,
    pipeline: () => pipeline,
    maintenance: (ctx, command, dctx) => blobMaintenanceCommand(ctx, build(ctx), command, dctx),
    blobStatus: async () => (pipeline ? pipeline.faults.status(pipeline.blobs) : undefined),
    routes: (ctx) => async (app) => {
      const p = build(ctx);
      await app.register(uploadRoutes(ctx, { store: p.store, locker: p.locker, quota: p.quota, secureFetchGate: deps.secureFetchGate(ctx) }));
      await app.register(blobHealthRoutes(ctx, p));
      await app.register(residencyReportRoutes(ctx, p.blobs));
    },
    async start(ctx, roles) {
      const p = build(ctx);
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

import { AUTOMATIC_REGION, isStorageRegion, residencyDecider, residencyStreamName, resolveRegion } from '@axel/domain';
import { FileKeys, loadMasterKeys, openBlobStore, parseRegionShards, scrub, type RegionRoutedBlobStore, type ScrubReport } from '@axel/platform/blobs/index';
import { createPool, loadState, type Pool } from '@axel/platform';
import type { AppContext } from '../../context';
import { BlobFaults } from './blob-faults';
import { ChunkedFileContent, loadNodeId } from './content';
import type { FileContent, FileManifest, FinishedUpload, QuotaGate, UploadPlacements, Uploads } from './contracts';
import { EncryptingDataStore, PgLocker } from './uploads.store';

export interface BytePipelineOptions {
  readonly quota: QuotaGate;
  /** Whether a claimed upload's file was made, for claims that outlive the expiry. */
  readonly placements?: UploadPlacements;
  /** The manifests of every file version the storage slice keeps, for the scrub. */
  readonly fileManifests?: () => AsyncIterable<Pick<FileManifest, 'chunks'>>;
}

/** Blob store, keys, the tus data store and the read side, built once per process. */
export interface BytePipeline {
  readonly nodeId: string;
  /** Every shard, home and regional; `forRegion` places a region's chunks. */
  readonly blobs: RegionRoutedBlobStore;
  readonly blobsKind: 'local' | 's3';
  readonly keys: FileKeys;
  readonly store: EncryptingDataStore;
  readonly locker: PgLocker;
  readonly uploads: Uploads;
  readonly content: FileContent;
  readonly quota: QuotaGate;
  /** Faults of the blob store recorded for staff, and the health made of them. */
  readonly faults: BlobFaults;
  /** Walks every manifest, repairs what it can, records and answers the report. */
  scrub(): Promise<ScrubReport>;
  lastScrub(): Promise<ScrubReport | null>;
  close(): Promise<void>;
}

export const createBytePipeline = (ctx: AppContext, options: BytePipelineOptions): BytePipeline => {
  const { config } = ctx;
  const faults = new BlobFaults(ctx);
  const opened = openBlobStore({
    dataDir: config.dataDir,
    shards: config.BLOB_SHARDS,
    replicas: config.BLOB_REPLICAS,
    regions: config.BLOB_REGIONS && !config.S3_ENDPOINT ? parseRegionShards(config.BLOB_REGIONS, isStorageRegion) : undefined,
    s3: config.S3_ENDPOINT
      ? {
          endpoint: config.S3_ENDPOINT,
          bucket: config.S3_BUCKET,
          accessKeyId: config.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? '',
          region: config.S3_REGION,
        }
      : undefined,
    onBadReplica: ({ cid, shard, state }) => ctx.log.warn({ component: 'blobs', cid, shard, state }, 'chunk replica missing or damaged: served from another'),
    onShardFault: (fault) => faults.shardFault(fault),
  });
  const masterKeys = () => loadMasterKeys({ masterKeyHex: config.MASTER_KEY, previousHex: config.MASTER_KEY_PREVIOUS, dataDir: config.dataDir });
  const keys = new FileKeys(ctx.pool, masterKeys(), masterKeys);
  // advisory locks hold a connection for a whole request: their own pool, so uploads cannot starve queries
  const lockPool: Pool = createPool(ctx.databaseUrl, { max: 50, applicationName: 'axel-upload-locks' });
  const locker = new PgLocker(lockPool);
  const nodeId = loadNodeId(config.dataDir);
  const store = new EncryptingDataStore({
    pool: ctx.pool,
    blobs: opened.store,
    regionOf: async (userId) => resolveRegion((await loadState(ctx.commands, residencyDecider, residencyStreamName(userId))).state.region, AUTOMATIC_REGION),
    storeOfRegion: (region) => opened.store.forRegion(region),
    keys,
    quota: options.quota,
    placements: options.placements,
    nodeId,
    expiryMs: config.UPLOAD_EXPIRY_HOURS * 3_600_000,
    now: ctx.now,
    onError: (message, meta) => ctx.log.error({ component: 'uploads', ...meta }, message),
  });
  locker.beforeUnlock = (id) => store.settled(id);

  const uploads: Uploads = {
    async finished(uploadId, userId): Promise<FinishedUpload | null> {
      const found = await store.finished(uploadId, userId);
      return found ? { uploadId, userId, ...found } : null;
    },
    async claim(uploadId, userId, secureFetchLinkId): Promise<FinishedUpload | null> {
      const found = await store.claim(uploadId, userId, secureFetchLinkId);
      return found ? { uploadId, userId, ...found } : null;
    },
    unclaim: (uploadId, secureFetchLinkId) => store.unclaim(uploadId, secureFetchLinkId),
    consumed: (uploadId) => store.consumed(uploadId),
    endLink: async (linkId) => {
      await store.endLink(linkId);
    },
    linkClaimsBefore: (claimedBefore) => store.linkClaimsBefore(claimedBefore),
    discardClaim: (uploadId, linkId, claimedBefore) => store.discardClaim(uploadId, linkId, claimedBefore),
  };

  async function* allManifests() {
    yield* store.manifests();
    if (options.fileManifests) yield* options.fileManifests();
  }

  return {
    nodeId,
    blobs: opened.store,
    blobsKind: opened.kind,
    keys,
    store,
    locker,
    uploads,
    content: new ChunkedFileContent(opened.store, keys, faults),
    quota: options.quota,
    faults,
    async scrub() {
      const report = await scrub(opened.store, allManifests(), ctx.now);
      await ctx.pool.query('insert into blob_scrubs (started_at, finished_at, report) values ($1, $2, $3)', [report.startedAt, report.finishedAt, report]);
      if (report.lost) ctx.log.error({ component: 'blobs', lost: report.lost }, 'scrub found chunks without an intact replica');
      if (report.failed || report.shardFaults?.length)
        ctx.log.error({ component: 'blobs', failed: report.failed, shardFaults: report.shardFaults }, 'scrub passed over failing shards');
      return report;
    },
    async lastScrub() {
      const { rows } = await ctx.pool.query<{ report: ScrubReport }>('select report from blob_scrubs order by id desc limit 1');
      return rows[0]?.report ?? null;
    },
    async close() {
      await faults.flushed();
      opened.close();
      await lockPool.end();
    },
  };
};

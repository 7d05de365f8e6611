import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StorageRegion } from '@axel/domain';
import type { BlobStore } from './blobstore';
import { LocalFolderBlobStore, SHARD_MARKER } from './local';
import { RegionalBlobStore, RegionRoutedBlobStore } from './regions';
import { ReplicatedBlobStore, type ReplicaState, type ShardFault } from './replicated';
import { S3BlobStore, type S3BlobStoreOptions } from './s3';

export interface BlobStoreSettings {
  readonly dataDir: string;
  readonly shards: number;
  readonly replicas: number;
  /** When given, chunks go to this S3-compatible bucket (which keeps its own redundancy) instead of local shards. */
  readonly s3?: S3BlobStoreOptions;
  /**
   * Local shard folders per region (absolute, or under DATA_DIR/blobs): a region's chunks are kept
   * on its own folders only. Regions not named use the home shards. Not used with S3.
   */
  readonly regions?: ReadonlyMap<StorageRegion, readonly string[]>;
  readonly onBadReplica?: (info: { cid: string; shard: string; state: ReplicaState }) => void;
  /** A shard that failed an operation (reported, then passed over). */
  readonly onShardFault?: (fault: ShardFault) => void;
}

/**
 * The local shards, `DATA_DIR/blobs/shard-<n>`. When none is marked yet (a new installation, or one
 * from before the marker) every shard is marked as it stands; after that a shard without its marker
 * was lost and made again (see `LocalFolderBlobStore.check`).
 */
export const localShards = (dataDir: string, shards: number): BlobStore[] => {
  const stores = Array.from({ length: shards }, (_, i) => new LocalFolderBlobStore(path.join(dataDir, 'blobs', `shard-${i}`)));
  if (!stores.some((s) => existsSync(path.join(s.dir, SHARD_MARKER)))) {
    for (const s of stores) {
      mkdirSync(s.dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(s.dir, SHARD_MARKER), `${s.name}\n`, { mode: 0o600 });
    }
  }
  return stores;
};

/** A region's shard folders, each named `<region>-<folder>` (or its folder's name when it starts so) and marked like the home shards. */
export const regionShards = (dataDir: string, region: StorageRegion, dirs: readonly string[]): BlobStore[] => {
  const stores = dirs.map((dir) => {
    const full = path.isAbsolute(dir) ? dir : path.join(dataDir, 'blobs', dir);
    const base = path.basename(full);
    return new LocalFolderBlobStore(full, base.startsWith(`${region}-`) ? base : `${region}-${base}`);
  });
  if (!stores.some((s) => existsSync(path.join(s.dir, SHARD_MARKER)))) {
    for (const s of stores) {
      mkdirSync(s.dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(s.dir, SHARD_MARKER), `${s.name}\n`, { mode: 0o600 });
    }
  }
  return stores;
};

export const openBlobStore = (settings: BlobStoreSettings): { store: RegionRoutedBlobStore; kind: 'local' | 's3'; close(): void } => {
  if (settings.s3) {
    const s3 = new S3BlobStore(settings.s3);
    const home = new ReplicatedBlobStore([s3], 1, settings.onBadReplica, settings.onShardFault);
    return { store: new RegionRoutedBlobStore(home, undefined, settings.onBadReplica, settings.onShardFault), kind: 's3', close: () => s3.close() };
  }
  const home = new ReplicatedBlobStore(localShards(settings.dataDir, settings.shards), settings.replicas, settings.onBadReplica, settings.onShardFault);
  const regional = settings.regions?.size
    ? new RegionalBlobStore(
        new Map(
          [...settings.regions].map(([region, dirs]) => [
            region,
            new ReplicatedBlobStore(regionShards(settings.dataDir, region, dirs), settings.replicas, settings.onBadReplica, settings.onShardFault),
          ]),
        ),
      )
    : undefined;
  return { store: new RegionRoutedBlobStore(home, regional, settings.onBadReplica, settings.onShardFault), kind: 'local', close: () => undefined };
};

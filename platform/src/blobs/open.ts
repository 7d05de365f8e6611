import path from 'node:path';
import type { BlobStore } from './blobstore';
import { LocalFolderBlobStore } from './local';
import { ReplicatedBlobStore, type ReplicaState } from './replicated';
import { S3BlobStore, type S3BlobStoreOptions } from './s3';

export interface BlobStoreSettings {
  readonly dataDir: string;
  readonly shards: number;
  readonly replicas: number;
  /** When given, chunks go to this S3-compatible bucket (which keeps its own redundancy) instead of local shards. */
  readonly s3?: S3BlobStoreOptions;
  readonly onBadReplica?: (info: { cid: string; shard: string; state: ReplicaState }) => void;
}

export const localShards = (dataDir: string, shards: number): BlobStore[] =>
  Array.from({ length: shards }, (_, i) => new LocalFolderBlobStore(path.join(dataDir, 'blobs', `shard-${i}`)));

export const openBlobStore = (settings: BlobStoreSettings): { store: ReplicatedBlobStore; kind: 'local' | 's3'; close(): void } => {
  if (settings.s3) {
    const s3 = new S3BlobStore(settings.s3);
    return { store: new ReplicatedBlobStore([s3], 1, settings.onBadReplica), kind: 's3', close: () => s3.close() };
  }
  return {
    store: new ReplicatedBlobStore(localShards(settings.dataDir, settings.shards), settings.replicas, settings.onBadReplica),
    kind: 'local',
    close: () => undefined,
  };
};

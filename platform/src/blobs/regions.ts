import type { StorageRegion } from '@axel/domain';
import type { BlobBytes } from './blobstore';
import { cidOf } from './cid';
import { ChunkLostError, type ReplicatedBlobStore, type RepairOutcome, type ShardFault } from './replicated';

/**
 * Chunks kept inside a region: one replicated store per region, each over that region's own shards
 * (local folders or S3 endpoints configured per region). A chunk put for a region is placed, fallen
 * back and repaired only among that region's shards, since each region's store knows no other
 * shard. Content addressing holds per region: the same chunk in two regions is two copies.
 */
export class RegionalBlobStore {
  constructor(private readonly regions: ReadonlyMap<StorageRegion, ReplicatedBlobStore>) {
    if (!regions.size) throw new Error('no region');
    const names = [...regions.values()].flatMap((s) => s.shards.map((shard) => shard.name));
    if (new Set(names).size !== names.length) throw new Error('a shard belongs to one region only');
  }

  get configured(): StorageRegion[] {
    return [...this.regions.keys()];
  }

  storeOf(region: StorageRegion): ReplicatedBlobStore {
    const store = this.regions.get(region);
    if (!store) throw new Error(`no shards are configured for region ${region}`);
    return store;
  }

  put(region: StorageRegion, bytes: BlobBytes): Promise<string> {
    return this.storeOf(region).put(bytes);
  }

  get(region: StorageRegion, cid: string): Promise<Buffer> {
    return this.storeOf(region).get(cid);
  }

  repair(region: StorageRegion, cid: string, faults?: Map<string, ShardFault>): Promise<RepairOutcome> {
    return this.storeOf(region).repair(cid, faults);
  }

  delete(region: StorageRegion, cid: string): Promise<void> {
    return this.storeOf(region).delete(cid);
  }

  /** Where a chunk is, shard by shard, in every region (the residency report). */
  async locate(cid: string): Promise<{ region: StorageRegion; shard: string }[]> {
    const found: { region: StorageRegion; shard: string }[] = [];
    for (const [region, store] of this.regions) {
      for (const shard of store.shards) if (await shard.has(cid).catch(() => false)) found.push({ region, shard: shard.name });
    }
    return found;
  }

  /**
   * Moves a chunk to another region without re-encrypting it: copy, verify the copy against its CID,
   * then delete the old replicas. Answers false (nothing deleted) when the copy does not verify.
   */
  async move(cid: string, from: StorageRegion, to: StorageRegion): Promise<boolean> {
    if (from === to) return true;
    const bytes = await this.get(from, cid);
    const copied = await this.put(to, bytes);
    if (copied !== cid) return false;
    const back = await this.get(to, cid).catch((error: unknown) => {
      if (error instanceof ChunkLostError) return null;
      throw error;
    });
    if (!back || cidOf(back) !== cid) return false;
    await this.delete(from, cid);
    return true;
  }
}

/**
 * Shards per region from configuration: `eu=eu-a,eu-b;us=us-a,us-b` (names of local shard folders
 * or S3 endpoints, as the deployment names them). Unknown regions are refused.
 */
export const parseRegionShards = (spec: string, isRegion: (r: string) => r is StorageRegion): Map<StorageRegion, string[]> => {
  const regions = new Map<StorageRegion, string[]>();
  for (const part of spec
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [region, shards] = part.split('=').map((s) => s.trim());
    if (!region || !isRegion(region)) throw new Error(`unknown region "${region}" in the region shard list`);
    const names = (shards ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!names.length) throw new Error(`region ${region} has no shard`);
    regions.set(region, names);
  }
  return regions;
};

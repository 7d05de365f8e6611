import type { StorageRegion } from '@axel/domain';
import type { BlobBytes, BlobStore } from './blobstore';
import { cidOf } from './cid';
import { ChunkLostError, ReplicatedBlobStore, type RepairOutcome, type ReplicaState, type ShardFault } from './replicated';

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

/**
 * The blob store of a deployment with regional shard sets: the home shards (every region without
 * shards of its own, and `automatic`) and each configured region's shards, seen as one store by
 * everything that reads, lists, deletes or checks chunks. New chunks are placed with `forRegion`
 * (the region's own store); a read or a repair finds the set holding the chunk and stays inside
 * it, so a scrub never copies a chunk out of the region it was put in.
 */
export class RegionRoutedBlobStore extends ReplicatedBlobStore {
  private readonly sets: { region: StorageRegion | null; store: ReplicatedBlobStore }[];
  private readonly regionByShard = new Map<string, StorageRegion>();

  constructor(
    readonly home: ReplicatedBlobStore,
    readonly regional: RegionalBlobStore | undefined,
    onBadReplica?: (info: { cid: string; shard: string; state: ReplicaState }) => void,
    onShardFault?: (fault: ShardFault) => void,
  ) {
    const own = regional ? regional.configured.flatMap((r) => regional.storeOf(r).shards) : [];
    super([...home.shards, ...own], home.replicas, onBadReplica, onShardFault);
    this.sets = [{ region: null, store: home }];
    if (regional)
      for (const region of regional.configured) {
        const store = regional.storeOf(region);
        this.sets.push({ region, store });
        for (const shard of store.shards) this.regionByShard.set(shard.name, region);
      }
  }

  /** Regions with shards of their own (the others use the home shards). */
  get regions(): StorageRegion[] {
    return this.regional?.configured ?? [];
  }

  /** Where a new chunk of this region goes: the region's own shards, or the home shards when it has none. */
  forRegion(region: StorageRegion | null | undefined): ReplicatedBlobStore {
    return region && this.regional?.configured.includes(region) ? this.regional.storeOf(region) : this.home;
  }

  /** The region a shard belongs to; null for the home shards. */
  regionOfShard(shard: string): StorageRegion | null {
    return this.regionByShard.get(shard) ?? null;
  }

  /** The set holding a chunk: the first whose placement has it, else the first with a copy anywhere; the home set when none has. */
  private async setOf(cid: string): Promise<ReplicatedBlobStore> {
    if (this.sets.length === 1) return this.home;
    const holds = (shards: readonly BlobStore[]) => Promise.all(shards.map((s) => s.has(cid).catch(() => false))).then((found) => found.includes(true));
    for (const { store } of this.sets) if (await holds(store.placementOf(cid))) return store;
    for (const { store } of this.sets) if (await holds(store.shards)) return store;
    return this.home;
  }

  /** Where a chunk is, shard by shard, with each shard's region (null: the home shards). */
  async locate(cid: string): Promise<{ shard: string; region: StorageRegion | null }[]> {
    const found = await Promise.all(this.shards.map((s) => s.has(cid).catch(() => false)));
    return this.shards.filter((_, i) => found[i]).map((s) => ({ shard: s.name, region: this.regionOfShard(s.name) }));
  }

  /** Without a region: the home shards (callers placing a region's chunks use `forRegion`). */
  override put(bytes: BlobBytes): Promise<string> {
    return this.home.put(bytes);
  }

  override async get(cid: string): Promise<Buffer> {
    return (await this.setOf(cid)).get(cid);
  }

  override async getInto(cid: string, target: Buffer, verify?: (bytes: Buffer) => string | Promise<string>): Promise<Buffer> {
    return (await this.setOf(cid)).getInto(cid, target, verify);
  }

  override async readLocal<T>(
    cid: string,
    read: (files: string[], direct: boolean) => Promise<{ passedOver: readonly ReplicaState[]; found?: T }>,
  ): Promise<T | undefined> {
    return (await this.setOf(cid)).readLocal(cid, read);
  }

  /** Repairs within the set holding the chunk: a chunk of a region is never copied outside it. */
  override async repair(cid: string, faults?: Map<string, ShardFault>): Promise<RepairOutcome> {
    return (await this.setOf(cid)).repair(cid, faults);
  }
}

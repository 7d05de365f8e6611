import { faultReason, type ReplicatedBlobStore, type ShardFault } from './replicated';

export interface ScrubReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Distinct chunks checked. */
  readonly checked: number;
  /** Chunks with at least one replica re-created. */
  readonly repaired: number;
  /** Chunks without any intact replica. */
  readonly lost: number;
  /** The first lost chunk ids (at most 100). */
  readonly lostChunks: readonly string[];
  /**
   * Stored chunks no manifest names (left by a request cut off between storing a chunk and
   * recording it, or by a crash during a deletion). Counted, never deleted by the scrub.
   */
  readonly unreferenced: number;
  /** Chunks left with fewer than R intact replicas because a shard refused them (absent from older reports). */
  readonly failed?: number;
  /** Shards that failed an operation during the scrub, one line each (absent from older reports). */
  readonly shardFaults?: readonly ShardFault[];
}

/**
 * Walks every chunk the given manifests name, once each, and re-creates missing or damaged
 * replicas from an intact one. A shard that fails (its folder gone and not to be made again, a
 * read-only disk) is reported and passed over: the scrub goes on with every other chunk and shard.
 * Each shard that took part without a fault is marked as checked whole (see `BlobStore.check`).
 */
export const scrub = async (
  store: ReplicatedBlobStore,
  manifests: AsyncIterable<{ readonly chunks: readonly { readonly cid: string }[] }>,
  now: () => Date = () => new Date(),
): Promise<ScrubReport> => {
  const startedAt = now().toISOString();
  const seen = new Set<string>();
  const faults = new Map<string, ShardFault>();
  let repaired = 0;
  let failed = 0;
  const lost: string[] = [];
  for await (const manifest of manifests) {
    for (const { cid } of manifest.chunks) {
      if (seen.has(cid)) continue;
      seen.add(cid);
      const outcome = await store.repair(cid, faults);
      if (outcome === 'repaired') repaired++;
      if (outcome === 'failed') failed++;
      if (outcome === 'lost') lost.push(cid);
    }
  }
  const stored = new Set<string>();
  for (const shard of store.shards) {
    try {
      for await (const cid of shard.list()) if (!seen.has(cid)) stored.add(cid);
    } catch (error) {
      faults.set(shard.name, { shard: shard.name, operation: 'list', reason: faultReason(error) });
    }
  }
  for (const shard of store.shards) {
    if (faults.has(shard.name) || !shard.markIntact) continue;
    await shard.markIntact().catch((error: unknown) => faults.set(shard.name, { shard: shard.name, operation: 'repair', reason: faultReason(error) }));
  }
  return {
    startedAt,
    finishedAt: now().toISOString(),
    checked: seen.size,
    repaired,
    lost: lost.length,
    lostChunks: lost.slice(0, 100),
    unreferenced: stored.size,
    failed,
    shardFaults: [...faults.values()],
  };
};

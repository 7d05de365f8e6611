import type { ReplicatedBlobStore } from './replicated';

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
}

/**
 * Walks every chunk the given manifests name, once each, and re-creates missing or damaged
 * replicas from an intact one.
 */
export const scrub = async (
  store: ReplicatedBlobStore,
  manifests: AsyncIterable<{ readonly chunks: readonly { readonly cid: string }[] }>,
  now: () => Date = () => new Date(),
): Promise<ScrubReport> => {
  const startedAt = now().toISOString();
  const seen = new Set<string>();
  let repaired = 0;
  const lost: string[] = [];
  for await (const manifest of manifests) {
    for (const { cid } of manifest.chunks) {
      if (seen.has(cid)) continue;
      seen.add(cid);
      const outcome = await store.repair(cid);
      if (outcome === 'repaired') repaired++;
      if (outcome === 'lost') lost.push(cid);
    }
  }
  const stored = new Set<string>();
  for (const shard of store.shards) for await (const cid of shard.list()) if (!seen.has(cid)) stored.add(cid);
  return {
    startedAt,
    finishedAt: now().toISOString(),
    checked: seen.size,
    repaired,
    lost: lost.length,
    lostChunks: lost.slice(0, 100),
    unreferenced: stored.size,
  };
};

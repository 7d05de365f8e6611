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
  return {
    startedAt,
    finishedAt: now().toISOString(),
    checked: seen.size,
    repaired,
    lost: lost.length,
    lostChunks: lost.slice(0, 100),
  };
};

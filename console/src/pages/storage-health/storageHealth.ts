import { browserFetch, requestJson, type FetchLike } from '../../api/http';

export interface ShardHealth {
  readonly shard: string;
  readonly chunks: number;
  readonly bytes: number;
  readonly freeBytes: number | null;
  /** What is wrong with the shard itself (its folder gone, or made again and missing replicas); absent from older servers. */
  readonly problem?: string | null;
}

export interface ScrubReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly checked: number;
  readonly repaired: number;
  readonly lost: number;
  readonly lostChunks: readonly string[];
  /** Stored chunks no file or upload names (absent from reports older than this count). */
  readonly unreferenced?: number;
  /** Chunks left with fewer replicas than wanted because a shard refused them. */
  readonly failed?: number;
  readonly shardFaults?: readonly { readonly shard: string; readonly operation: string; readonly reason: string }[];
}

/** What a collection of chunks and keys no file or upload uses found and deleted. */
export interface CollectReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly stored: number;
  readonly unreferenced: number;
  readonly chunksDeleted: number;
  readonly keysDestroyed: number;
  readonly waiting: number;
  readonly skipped: string | null;
}

/** Why the store is degraded, as the server names it. */
export interface HealthReason {
  readonly code: 'shard-problem' | 'shard-fault' | 'chunk-lost' | 'chunks-lost' | 'repairs-failed' | 'upkeep-failed';
  readonly shard: string | null;
  readonly detail: string | null;
  readonly count: number;
  readonly at: string | null;
}

/** A fault recorded since the last clean scrub. */
export interface BlobFault {
  readonly at: string;
  readonly kind: string;
  readonly shard: string | null;
  readonly detail: string;
  readonly cid: string | null;
  readonly itemId: string | null;
}

export interface BlobHealth {
  /** Absent from older servers. */
  readonly status?: 'ok' | 'degraded';
  readonly reasons?: readonly HealthReason[];
  readonly faults?: readonly BlobFault[];
  readonly adapter: 'local' | 's3';
  readonly replicas: number;
  readonly nodeId: string;
  readonly shards: readonly ShardHealth[];
  readonly lastScrub: ScrubReport | null;
  /** Absent from servers older than the collection. */
  readonly lastCollection?: CollectReport | null;
}

export const fetchBlobHealth = async (fetchImpl: FetchLike = browserFetch): Promise<BlobHealth> =>
  (await requestJson<BlobHealth>(fetchImpl, '/api/admin/blobs/health')).json;

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in the largest binary unit that keeps the number at or above 1. */
export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
};

export type HealthLevel = 'ok' | 'warning' | 'error';

/** A shard with under 10 % of its disk free is a warning, under 2 % an error; a store without free-space figures is fine. */
export const shardLevel = (shard: ShardHealth): HealthLevel => {
  if (shard.freeBytes === null) return 'ok';
  const total = shard.freeBytes + shard.bytes;
  const freeShare = total > 0 ? shard.freeBytes / total : 1;
  if (shard.freeBytes < 1024 ** 3 && freeShare < 0.02) return 'error';
  if (freeShare < 0.1 && shard.freeBytes < 10 * 1024 ** 3) return 'warning';
  return 'ok';
};

/** Lost chunks are an error; a scrub that repaired something, could not repair some, passed over a failing shard, or none yet, a warning. */
export const scrubLevel = (report: ScrubReport | null): HealthLevel => {
  if (!report) return 'warning';
  if (report.lost > 0) return 'error';
  if ((report.failed ?? 0) > 0 || (report.shardFaults?.length ?? 0) > 0) return 'warning';
  return report.repaired > 0 ? 'warning' : 'ok';
};

/** A shard whose folder is gone or was made again (replicas missing until a scrub) is an error, whatever its disk. */
export const shardStatus = (shard: ShardHealth): HealthLevel => (shard.problem ? 'error' : shardLevel(shard));

/** The translation key and values of a reason the store is degraded (`console.storageHealth.reasons.<code>`). */
export const reasonMessage = (reason: HealthReason): { key: string; values: Record<string, string | number> } => ({
  key: `reasons.${reason.code}`,
  values: { shard: reason.shard ?? '', detail: reason.detail ?? '', count: reason.count },
});

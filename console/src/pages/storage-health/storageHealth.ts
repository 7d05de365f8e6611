import { browserFetch, requestJson, type FetchLike } from '../../api/http';

export interface ShardHealth {
  readonly shard: string;
  readonly chunks: number;
  readonly bytes: number;
  readonly freeBytes: number | null;
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

export interface BlobHealth {
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

/** Lost chunks are an error; a scrub that repaired something, or none yet, a warning. */
export const scrubLevel = (report: ScrubReport | null): HealthLevel => {
  if (!report) return 'warning';
  if (report.lost > 0) return 'error';
  return report.repaired > 0 ? 'warning' : 'ok';
};

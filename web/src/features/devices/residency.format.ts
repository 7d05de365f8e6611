import { formatSize } from '@axel/domain/shared/sizes';
import type { ResidencyFile, ResidencyReport } from './devices.api';

/** A region as the texts name it: one of the spec's regions, or `home` for the deployment's own shards. */
export type PlaceKey = 'us' | 'eu' | 'asia' | 'africa' | 'home';

const placeOf = (region: string | null): PlaceKey => (region === 'us' || region === 'eu' || region === 'asia' || region === 'africa' ? region : 'home');

export interface TotalLine {
  /** The region recorded on the files (`home`: stored before regions were recorded). */
  readonly recorded: PlaceKey;
  /** Where their chunks are kept: the region's own shards, or the home shards when it has none. */
  readonly keptIn: PlaceKey;
  readonly files: number;
  readonly chunks: number;
  readonly size: string;
}

/** The report's totals, one line per recorded region, sizes in the reader's number format. */
export const totalLines = (report: Pick<ResidencyReport, 'totals'>, localeTag: string): TotalLine[] =>
  report.totals.map((t) => ({
    recorded: placeOf(t.region),
    keptIn: placeOf(t.keptIn),
    files: t.files,
    chunks: t.chunks,
    size: formatSize(t.bytes, localeTag) ?? '',
  }));

/**
 * Where one file's chunks are: each place holding some of them, with how many of its chunks and on
 * how many shards there; `missing` counts chunks no shard holds.
 */
export const placesOfFile = (file: Pick<ResidencyFile, 'chunks'>): { places: { place: PlaceKey; chunks: number; shards: number }[]; missing: number } => {
  const byPlace = new Map<PlaceKey, { chunks: number; shards: Set<string> }>();
  let missing = 0;
  for (const chunk of file.chunks) {
    if (!chunk.shards.length) missing++;
    const seen = new Set<PlaceKey>();
    for (const { shard, region } of chunk.shards) {
      const place = placeOf(region);
      const entry = byPlace.get(place) ?? { chunks: 0, shards: new Set<string>() };
      entry.shards.add(shard);
      if (!seen.has(place)) entry.chunks++;
      seen.add(place);
      byPlace.set(place, entry);
    }
  }
  return { places: [...byPlace].map(([place, e]) => ({ place, chunks: e.chunks, shards: e.shards.size })), missing };
};

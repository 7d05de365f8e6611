import type { EventMetadata } from '@axel/domain';
import type { RecordedEvent } from './port';

/** One row of the PostgreSQL event store's `es_events` table, as `pg` returns it. */
export interface EsEventRow {
  position: number;
  stream_name: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

/** The columns an append writes, which are also what the audit chain covers, in the table's order. */
const WRITTEN_COLUMNS = ['position', 'stream_name', 'stream_revision', 'event_id', 'event_type', 'schema_version', 'data', 'metadata'] as const;
const ALL_COLUMNS = [...WRITTEN_COLUMNS, 'recorded_at'] as const;

/** An `es_events` row without the time of its commit: the fields an append writes. */
export type EsEventWrittenRow = Omit<EsEventRow, 'recorded_at'>;

/**
 * The column list of `es_events` for a select or an insert, each column prefixed with `alias.`
 * when one is given: every column, or (`written`) the ones an append writes.
 */
export const esEventColumns = (alias?: string, { written = false }: { written?: boolean } = {}): string =>
  (written ? WRITTEN_COLUMNS : ALL_COLUMNS).map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

/** A row as the port's recorded event. */
export const recordedEventOf = (r: EsEventRow): RecordedEvent => ({
  id: r.event_id,
  type: r.event_type,
  data: r.data,
  schemaVersion: r.schema_version,
  metadata: r.metadata,
  streamName: r.stream_name,
  revision: r.stream_revision,
  position: r.position,
  recordedAt: r.recorded_at,
});

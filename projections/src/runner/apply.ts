import type { DomainEvent, EventRegistry } from '@axel/domain';
import type { PoolClient, RecordedEvent } from '@axel/platform';
import type { ProjectedEvent, Projection, TableNames } from './projection';

export const decodeEvents = (registry: EventRegistry, events: readonly RecordedEvent[]): ProjectedEvent[] =>
  events.map((e) => ({ ...e, ...registry.decode(e.type, e.schemaVersion, e.data) }) as ProjectedEvent);

/** Creates the projection's tables (and checkpoint row) when missing. */
export const ensureTables = async (tx: PoolClient, projection: Projection, tables: TableNames, checkpointName: string) => {
  for (const [logical, ddl] of Object.entries(projection.tables)) {
    const physical = tables[logical]!;
    const { rowCount } = await tx.query('select 1 from pg_tables where schemaname = current_schema() and tablename = $1', [physical]);
    if (!rowCount) await tx.query(ddl(physical));
  }
  await tx.query('insert into projection_checkpoints(name) values ($1) on conflict do nothing', [checkpointName]);
};

/**
 * Applies one page in the caller's transaction. The checkpoint row is locked first, so writers of
 * the same projection serialise, and events at or below it are skipped: a page delivered twice
 * (after a crash, or by a rebuild that overtook the live runner) is written once.
 */
export const applyPage = async (
  tx: PoolClient,
  projection: Projection,
  tables: TableNames,
  checkpointName: string,
  events: readonly ProjectedEvent<DomainEvent>[],
  pageCheckpoint: number,
): Promise<number> => {
  const { rows } = await tx.query<{ position: number }>('select position from projection_checkpoints where name = $1 for update', [checkpointName]);
  const current = rows[0]?.position ?? 0;
  if (pageCheckpoint <= current) return current;
  const fresh = events.filter((e) => e.position > current);
  if (fresh.length) await projection.apply(tx, fresh, tables);
  await tx.query('update projection_checkpoints set position = $2, updated_at = now() where name = $1', [checkpointName, pageCheckpoint]);
  return pageCheckpoint;
};

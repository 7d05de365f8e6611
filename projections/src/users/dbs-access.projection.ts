import type { DbsAccessActivated, DbsAccessCancelled } from '@axel/domain/accounts/accounts.events';
import type { ProjectedEvent } from '../runner/projection';
import { defineRowProjection } from '../runner/row-projection';

type DbsAccessEvent = DbsAccessActivated | DbsAccessCancelled;

/** A row of the database access read model: one per account staff ever gave access. */
export interface DbsAccessRow<D = Date | string> {
  id: string;
  active: boolean;
  /** When access was last given, and by which staff member. */
  activated_at: D;
  activated_by: string | null;
  cancelled_at: D | null;
  cancelled_by: string | null;
  last_position: number;
}

export const evolveDbsAccessRow = (row: DbsAccessRow | undefined, e: ProjectedEvent<DbsAccessEvent>): DbsAccessRow | undefined => {
  const by = e.metadata.actorId ?? null;
  if (e.type === 'DbsAccessActivated') {
    return {
      id: e.streamName.slice('user-'.length),
      active: true,
      activated_at: e.data.at,
      activated_by: by,
      cancelled_at: null,
      cancelled_by: null,
      last_position: e.position,
    };
  }
  if (!row) return row;
  return { ...row, active: false, cancelled_at: e.data.at, cancelled_by: by, last_position: e.position };
};

/**
 * Who has the database-as-a-service offer (`hasDbsAccess`): the console's Databases section and
 * the user info read it. Its own table beside `users`, so adding it rebuilt nothing else.
 */
export const dbsAccessProjection = defineRowProjection<DbsAccessRow, DbsAccessEvent>({
  name: 'dbs_access',
  table: 'dbs_access',
  handles: ['DbsAccessActivated', 'DbsAccessCancelled'],
  keyOf: (e) => e.streamName.slice('user-'.length),
  evolve: evolveDbsAccessRow,
  ddl: (t) => `create table "${t}" (
      id text primary key,
      active boolean not null,
      activated_at timestamptz not null,
      activated_by text,
      cancelled_at timestamptz,
      cancelled_by text,
      last_position bigint not null
    );
    create index on "${t}" (activated_at desc) where active;`,
});

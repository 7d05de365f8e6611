import type { DomainEvent } from '@axel/domain';
import type { PoolClient, RecordedEvent } from '@axel/platform';

/** A stored event whose data has been upcast and validated to its newest schema. */
export type ProjectedEvent<E extends DomainEvent = DomainEvent> = Omit<RecordedEvent, 'type' | 'data'> & E;

/** Logical table name -> physical name (live tables, or their `__next` copies during a rebuild). */
export type TableNames<K extends string = string> = Readonly<Record<K, string>>;

export interface Projection<K extends string = string, E extends DomainEvent = DomainEvent> {
  readonly name: string;
  /** Event types this projection reads; the runner skips every other type. */
  readonly handles: readonly E['type'][];
  /**
   * DDL per logical table, given its physical name. Leave indexes and constraints unnamed so a
   * rebuild's copies never collide with the live ones.
   */
  readonly tables: Readonly<Record<K, (table: string) => string>>;
  /** Writes one page of events inside the runner's transaction (which also moves the checkpoint). */
  apply(tx: PoolClient, events: readonly ProjectedEvent<E>[], tables: TableNames<K>): Promise<void>;
}

export const defineProjection = <K extends string, E extends DomainEvent>(p: Projection<K, E>): Projection<K, E> => p;

export const liveTables = <K extends string>(p: Projection<K, DomainEvent>): TableNames<K> =>
  Object.fromEntries(Object.keys(p.tables).map((k) => [k, k])) as TableNames<K>;

export const nextTables = <K extends string>(p: Projection<K, DomainEvent>): TableNames<K> =>
  Object.fromEntries(Object.keys(p.tables).map((k) => [k, `${k}__next`])) as TableNames<K>;

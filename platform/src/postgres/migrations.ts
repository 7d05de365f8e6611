import type pg from 'pg';

export interface Migration {
  /** Unique and ordered: `<package>-<nnn>-<what>`. */
  readonly id: string;
  readonly sql: string;
}

const LOCK_KEY = 7_310_001;

/** Applies the migrations not applied yet, in order, under an advisory lock (safe with several processes). */
export const migrate = async (pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> => {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query('create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())');
    const { rows } = await client.query<{ id: string }>('select id from schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('begin');
      try {
        await client.query(m.sql);
        await client.query('insert into schema_migrations(id) values ($1)', [m.id]);
        await client.query('commit');
        applied.push(m.id);
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${m.id} failed: ${(error as Error).message}`);
      }
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  return applied;
};

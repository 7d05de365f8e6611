import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPool, databaseUrlWithName, dropDatabase, ensureDatabase, type Pool } from '../platform/src/postgres/pool';
import { migrate, type Migration } from '../platform/src/postgres/migrations';
import { PostgresEventStore } from '../platform/src/eventstore/postgres';
import { eventStoreMigrations } from '../platform/src/eventstore/postgres.migrations';

export interface TestDatabase {
  readonly url: string;
  readonly serverUrl: string;
  readonly pool: Pool;
  drop(): Promise<void>;
}

/** A fresh database on the run's server, with the given migrations applied. */
export const createTestDatabase = async (migrations: readonly Migration[] = []): Promise<TestDatabase> => {
  const serverUrl = inject('databaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(serverUrl, name);
  const url = databaseUrlWithName(serverUrl, name);
  const pool = createPool(url, { max: 30 });
  await migrate(pool, migrations);
  return {
    url,
    serverUrl,
    pool,
    drop: async () => {
      await pool.end();
      await dropDatabase(serverUrl, name);
    },
  };
};

/** A fresh database with the event store (and any further migrations) and a store on it. */
export const createTestStore = async (migrations: readonly Migration[] = []) => {
  const db = await createTestDatabase([...eventStoreMigrations, ...migrations]);
  const store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
  return {
    db,
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
};

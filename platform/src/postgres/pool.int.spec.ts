import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { closePool, createPool } from './pool';

/*
 * At shutdown the app closes its pools, then stops the embedded PostgreSQL. `pool.end()` settles
 * while its connections are still open: PostgreSQL stopping then terminates them with an error.
 * `closePool` settles only once every connection is closed.
 */
const admin = new pg.Client({ connectionString: inject('databaseUrl') });
afterAll(async () => {
  await admin.end().catch(() => undefined);
});

const backendsOf = async (applicationName: string) =>
  Number((await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where application_name = $1', [applicationName])).rows[0]!.n);

describe('closing a pool', () => {
  it('settles once every connection is closed, busy or idle, so PostgreSQL may stop right after', async () => {
    await admin.connect();
    for (let round = 0; round < 5; round++) {
      const name = `axel-close-${round}-${Date.now()}`;
      const pool = createPool(inject('databaseUrl'), { max: 8, applicationName: name });
      // eight connections, half of them busy when the pool is closed
      const held = await Promise.all(Array.from({ length: 8 }, () => pool.connect()));
      for (const c of held.slice(0, 4)) c.release();
      const busy = held.slice(4).map((c) => c.query('select pg_sleep(0.05)').finally(() => c.release()));
      expect(await backendsOf(name)).toBe(8);
      const sockets = held.map((c) => (c as unknown as { connection: { stream: { destroyed: boolean; readyState?: string } } }).connection.stream);
      await closePool(pool);
      await Promise.all(busy);
      // every socket is closed when closePool settles (pool.end() alone settles with them still open)
      expect(sockets.filter((s) => !s.destroyed && s.readyState !== 'closed')).toEqual([]);
      // and PostgreSQL has let them all go
      for (let i = 0; i < 50 && (await backendsOf(name)) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await backendsOf(name)).toBe(0);
    }
  });
});

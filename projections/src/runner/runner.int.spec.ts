import { defineEvent, EventRegistry, type EventOf } from '@axel/domain';
import { expected, newId, PostgresEventStore, eventStoreMigrations, type Pool } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { testMetadata } from '../../../platform/src/eventstore/eventstore.contract';
import { projectionMigrations } from './checkpoints';
import { defineProjection } from './projection';
import { rebuildProjection } from './rebuild';
import { ProjectionRunner } from './runner';

const Deposited = defineEvent('Deposited', z.object({ account: z.string(), amount: z.number().int() }));
/** Version 2 of Renamed; version 1 called the field `title`. */
const Renamed = defineEvent('Renamed', z.object({ account: z.string(), name: z.string() }), {
  version: 2,
  upcasters: { 1: (d) => ({ account: (d as { account: string }).account, name: (d as { title: string }).title }) },
});
const Ignored = defineEvent('Ignored', z.object({}));
type Ev = EventOf<typeof Deposited> | EventOf<typeof Renamed>;
const registry = new EventRegistry().register(Deposited, Renamed, Ignored);

const accounts = defineProjection<'test_accounts', Ev>({
  name: 'test_accounts',
  handles: ['Deposited', 'Renamed'],
  tables: {
    test_accounts: (t) =>
      `create table "${t}" (id text primary key, name text, balance bigint not null default 0, last_position bigint not null, updated_at timestamptz not null)`,
  },
  async apply(tx, events, t) {
    for (const e of events) {
      if (e.type === 'Deposited') {
        await tx.query(
          `insert into "${t.test_accounts}"(id, balance, last_position, updated_at) values ($1, $2, $3, $4)
           on conflict (id) do update set balance = "${t.test_accounts}".balance + excluded.balance, last_position = excluded.last_position, updated_at = excluded.updated_at`,
          [e.data.account, e.data.amount, e.position, e.recordedAt],
        );
      } else {
        await tx.query(
          `insert into "${t.test_accounts}"(id, name, last_position, updated_at) values ($1, $2, $3, $4)
           on conflict (id) do update set name = excluded.name, last_position = excluded.last_position, updated_at = excluded.updated_at`,
          [e.data.account, e.data.name, e.position, e.recordedAt],
        );
      }
    }
  },
});

const append = (store: PostgresEventStore, account: string, type: string, data: unknown, schemaVersion = 1) =>
  store.append(`account-${account}`, [{ id: newId(), type, data, schemaVersion, metadata: testMetadata() }], expected.any);

const dump = async (pool: Pool) => JSON.stringify((await pool.query('select * from test_accounts order by id')).rows);

describe('projection runner', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;
  beforeAll(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...projectionMigrations]);
    store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
  });
  afterAll(async () => {
    await runner?.stop();
    await store.close();
    await db.drop();
  });

  it('catches up from stored events, upcasting old versions, then follows live appends', async () => {
    await append(store, 'a', 'Deposited', { account: 'a', amount: 5 });
    await append(store, 'a', 'Renamed', { account: 'a', title: 'Alice' }, 1);
    await append(store, 'b', 'Ignored', {});
    runner = new ProjectionRunner({ pool: db.pool, store, registry, projections: [accounts] });
    await runner.start();
    const last = await append(store, 'a', 'Deposited', { account: 'a', amount: 7 });
    expect(await runner.waitFor(last.position, { timeoutMs: 5000 })).toBe(true);
    const { rows } = await db.pool.query('select id, name, balance from test_accounts');
    expect(rows).toEqual([{ id: 'a', name: 'Alice', balance: 12 }]);
  });

  it('moves its checkpoint past events of types it does not handle', async () => {
    const ignored = await append(store, 'c', 'Ignored', {});
    expect(await runner.waitFor(ignored.position, { timeoutMs: 5000 })).toBe(true);
    const [status] = await runner.status();
    expect(status).toMatchObject({ name: 'test_accounts', behind: 0, running: true, lastError: null });
    expect(status!.position).toBeGreaterThanOrEqual(ignored.position);
  });

  it('answers false when a position is not reached within the timeout', async () => {
    expect(await runner.waitFor(Number.MAX_SAFE_INTEGER, { timeoutMs: 50 })).toBe(false);
  });

  it('rebuilds from position 0 into byte-identical rows while the live tables keep serving', async () => {
    for (let i = 0; i < 300; i++) await append(store, `r${i % 17}`, 'Deposited', { account: `r${i % 17}`, amount: i });
    const head = await store.headPosition();
    expect(await runner.waitFor(head, { timeoutMs: 10_000 })).toBe(true);
    const before = await dump(db.pool);

    let reads = 0;
    let serving = true;
    const reader = (async () => {
      while (serving) {
        await db.pool.query('select count(*) from test_accounts');
        reads++;
      }
    })();
    const rebuilt = rebuildProjection({ pool: db.pool, store, registry, projection: accounts, pageSize: 50 });
    // writes keep arriving during the rebuild; the live runner and the swap must not lose them
    const during = await append(store, 'late', 'Deposited', { account: 'late', amount: 1 });
    const result = await rebuilt;
    serving = false;
    await reader;

    expect(reads).toBeGreaterThan(0);
    expect(result.events).toBeGreaterThan(300);
    expect(await runner.waitFor(during.position, { timeoutMs: 5000 })).toBe(true);
    const after = JSON.parse(await dump(db.pool)) as { id: string }[];
    expect(after.find((r) => r.id === 'late')).toMatchObject({ balance: 1 });
    expect(JSON.stringify(after.filter((r) => r.id !== 'late'))).toBe(before);

    // a rebuild with no new events reproduces exactly the same bytes, checkpoint included
    const again = await dump(db.pool);
    await rebuildProjection({ pool: db.pool, store, registry, projection: accounts });
    expect(await dump(db.pool)).toBe(again);
    const { rows } = await db.pool.query("select count(*)::int as n from pg_tables where tablename like '%__next'");
    expect(rows[0].n).toBe(0);
  });

  it('writes a page delivered twice only once', async () => {
    const { applyPage, decodeEvents } = await import('./apply');
    const { withTransaction } = await import('@axel/platform');
    const r = await append(store, 'twice', 'Deposited', { account: 'twice', amount: 3 });
    await runner.waitFor(r.position);
    const page = await store.readAll({ from: r.position - 1, types: accounts.handles });
    const events = decodeEvents(
      registry,
      page.events.filter((e) => e.position === r.position),
    );
    await withTransaction(db.pool, (tx) => applyPage(tx, accounts, { test_accounts: 'test_accounts' }, accounts.name, events, r.position));
    const { rows } = await db.pool.query("select balance from test_accounts where id = 'twice'");
    expect(rows[0].balance).toBe(3);
  });
});

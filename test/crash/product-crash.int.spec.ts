import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountEventDefinitions, EventRegistry } from '@axel/domain';
import { eventStoreMigrations, expected, freePort, migrate, newId, PostgresEventStore } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../db';
import { dropAfterSecretScan } from '../scanned-drop';
import { exited, ProductProcess, until } from './product-process';

const USERS = 200;
const DAY = 86_400_000;
const registry = new EventRegistry().register(...accountEventDefinitions);

let db: TestDatabase;
let product: ProductProcess;
let port = 0;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-crash-'));
const startProduct = () => product.start();

const health = async (): Promise<{ processes?: { running: number; completed: number; deadLetter: number } } | null> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    return res.ok ? ((await res.json()) as never) : null;
  } catch {
    return null;
  }
};

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
  product = new ProductProcess({ databaseUrl: db.url, port, dataDir, env: { ACCOUNT_RETENTION_DAYS: '30' } });
});
afterAll(async () => {
  await product?.kill();
  await dropAfterSecretScan(db, product?.environment);
});

describe('crash: the product killed with 200 pending purge timers', () => {
  it('fires every timer exactly once after a restart, and applies no command twice', async () => {
    // 200 accounts deleted 30 days ago minus a few seconds: their purge timers fall due shortly
    await migrate(db.pool, eventStoreMigrations);
    const store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    const dueAt = Date.now() + 12_000;
    const deletedAt = new Date(dueAt - 30 * DAY).toISOString();
    const meta = {
      actorId: null,
      actorKind: 'system' as const,
      ip: null,
      userAgent: null,
      client: 'seed',
      correlationId: newId(),
      causationId: null,
      time: deletedAt,
    };
    const ids: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const id = newId();
      ids.push(id);
      const email = `crash.${i}@example.com`;
      const events = [
        {
          type: 'UserRegistered',
          data: {
            userId: id,
            email,
            passwordHash: 'x',
            authMethods: ['password'],
            role: 'user',
            locale: 'nl',
            termsAccepted: true,
            emailVerified: true,
            registrationApp: 'seed',
            userAgent: null,
            ip: null,
            createdByStaffId: null,
            registeredAt: deletedAt,
          },
        },
        { type: 'AccountDeleted', data: { by: 'user', deleterId: id, email, at: deletedAt } },
      ].map((e) => ({ id: newId(), ...registry.encode(e), metadata: meta }));
      await store.append(`user-${id}`, events, expected.noStream);
    }
    await store.close();

    // other processes run beside them (blob maintenance): count the account deletions
    const deletions = async (status: 'running' | 'completed') => {
      try {
        const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from wf_processes where process_type = $1 and status = $2', [
          'account-deletion',
          status,
        ]);
        return rows[0]!.n;
      } catch {
        return -1; // the runtime has not created its tables yet
      }
    };
    const first = await startProduct();
    await until(async () => (await deletions('running')) === USERS, 60_000, '200 running account deletions');
    expect(Date.now()).toBeLessThan(dueAt);
    first.kill('SIGKILL');
    await exited(first);

    // the due time passes while the product is down
    await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now()) + 1000));
    const second = await startProduct();
    // a purge starts further processes (the storage purge) for the same accounts: count this one's
    await until(async () => (await deletions('completed')) === USERS, 120_000, '200 completed account deletions');
    expect((await health())?.processes?.deadLetter).toBe(0);
    second.kill('SIGINT');
    await exited(second);

    const { rows: purges } = await db.pool.query<{ stream_name: string; n: number }>(
      "select stream_name, count(*)::int as n from es_events where event_type = 'AccountPurged' group by stream_name",
    );
    expect(purges).toHaveLength(USERS);
    expect(purges.every((p) => p.n === 1)).toBe(true);
    expect(new Set(purges.map((p) => p.stream_name))).toEqual(new Set(ids.map((id) => `user-${id}`)));
    const { rows: mails } = await db.pool.query<{ user_id: string; n: number }>(
      "select data->>'userId' as user_id, count(*)::int as n from es_events where event_type = 'MailRequested' and data->>'template' = 'account-purged' group by 1",
    );
    expect(mails).toHaveLength(USERS);
    expect(mails.every((m) => m.n === 1)).toBe(true);
  }, 240_000);
});

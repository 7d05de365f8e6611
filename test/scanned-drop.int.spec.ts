import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { eventStoreMigrations } from '../platform/src/eventstore/postgres.migrations';
import { databaseUrlWithName } from '../platform/src/postgres/pool';
import { createTestDatabase } from './db';
import { dropAfterSecretScan } from './scanned-drop';

const append = (db: { pool: pg.Pool }, type: string, data: unknown) =>
  db.pool.query(`select * from es_append($1, 'any', null, array[$2::uuid], array[$3], array[1], array[$4::jsonb], array['{}'::jsonb])`, [
    `probe-${randomUUID()}`,
    randomUUID(),
    type,
    JSON.stringify(data),
  ]);

const exists = async (url: string) => {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrlWithName(url, 'postgres') });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
};

describe("a spawned product's database, scanned for secrets when its test drops it", () => {
  it('fails naming the event that holds the password the product was started with, and still drops the database', async () => {
    const db = await createTestDatabase(eventStoreMigrations);
    await append(db, 'AccountOpened', { email: 'root@axel.test' });
    await append(db, 'CarelessNote', { note: 'the admin password is Wide-open-42' });
    await expect(dropAfterSecretScan(db, { ADMIN_PASSWORD: 'Wide-open-42', LOG_LEVEL: 'warn' })).rejects.toThrow(
      /CarelessNote at \d+ holds a password, key or mailed token/,
    );
    expect(await exists(db.url)).toBe(false);
  });

  it('fails on anything secret-shaped, and passes a clean log', async () => {
    const shaped = await createTestDatabase(eventStoreMigrations);
    await append(shaped, 'KeyPasted', { value: '-----BEGIN PRIVATE KEY-----' });
    await expect(dropAfterSecretScan(shaped)).rejects.toThrow(/KeyPasted at \d+ holds something shaped like/);

    const clean = await createTestDatabase(eventStoreMigrations);
    await append(clean, 'AccountOpened', { email: 'root@axel.test' });
    await expect(dropAfterSecretScan(clean, { ADMIN_PASSWORD: 'Wide-open-42' })).resolves.toBeUndefined();
    expect(await exists(clean.url)).toBe(false);
  });
});

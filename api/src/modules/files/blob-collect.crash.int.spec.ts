import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBlobStore } from '@axel/platform/blobs/index';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { exited, startProductProcess } from '../../../../test/product-process';
import { dropAfterSecretScan } from '../../../../test/scanned-drop';
import { onlineStorageId } from './storage.service';

const TUS = { 'tus-resumable': '1.0.0', 'x-requested-with': 'XMLHttpRequest' };
const JSON_WRITE = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

let db: TestDatabase;
let port = 0;
let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-delete-crash-'));
const base = () => `http://127.0.0.1:${port}`;

/** The whole product (`api/src/main.ts`) in its own Node process, so a failpoint can kill it. */
const startProduct = async (env: Record<string, string> = {}) => {
  child = await startProductProcess({
    port,
    databaseUrl: db.url,
    dataDir,
    // a collection every 1.8 s of the product's clock
    env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', COLLECT_INTERVAL_HOURS: '0.0005', ...env },
  });
  return child;
};

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  // the events the product wrote, scanned for secrets as every test app's are
  await dropAfterSecretScan(db, { ADMIN_PASSWORD: 'Root-pass-123' });
});

const signIn = async () => {
  const res = await fetch(`${base()}/api/sessions/`, {
    method: 'POST',
    headers: JSON_WRITE,
    body: JSON.stringify({ email: 'root@axel.test', password: 'Root-pass-123' }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
};

describe('a crash between recording a deletion and removing the content', () => {
  it('SIGKILL after the delete event: the chunks and key stay, and the collection on the process runtime removes them after the restart', async () => {
    await startProduct({ AXEL_FAILPOINT: 'storage.delete.before-content-destroyed' });
    let cookie = await signIn();
    const me = (await (await fetch(`${base()}/api/sessions/this/`, { headers: { cookie } })).json()) as { user: { id: string } };
    const userId = me.user.id;
    const storageId = onlineStorageId(userId);
    const file = randomBytes(2 * 1024 * 1024 + 99);
    const created = await fetch(`${base()}/api/uploads/`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(file.length), 'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}` },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const patched = await fetch(base() + location, {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: file,
    });
    expect(patched.status).toBe(204);
    const made = await fetch(`${base()}/api/users/${userId}/storages/${storageId}/items/`, {
      method: 'POST',
      headers: { ...JSON_WRITE, cookie },
      body: JSON.stringify({ label: 'file', name: 'doomed.bin', uploadId: location.split('/').pop() }),
    });
    expect(made.status).toBe(201);
    const itemId = ((await made.json()) as { id: string }).id;
    const { rows } = await db.pool.query<{ manifest: { keyId: string; chunks: { cid: string }[] } }>('select manifest from storage_items where id = $1', [
      itemId,
    ]);
    const manifest = rows[0]!.manifest;
    expect(manifest.chunks.length).toBe(3);

    const task = (action: string) =>
      fetch(`${base()}/api/users/${userId}/storage-tasks/`, {
        method: 'POST',
        headers: { ...JSON_WRITE, cookie },
        body: JSON.stringify({ action, itemIds: [itemId] }),
      }).catch(() => null);
    const trashed = await task('trash');
    expect(trashed?.status).toBe(201);
    // the deletion is recorded, then the product dies before it removes the content
    await task('delete');
    await exited(child!);
    expect(child!.signalCode).toBe('SIGKILL');
    const { rows: events } = await db.pool.query(`select 1 from es_events where stream_name = $1 and event_type = 'ItemDeleted'`, [`storage-${storageId}`]);
    expect(events.length).toBe(1);

    const opened = openBlobStore({ dataDir, shards: 4, replicas: 2 });
    const { store } = opened;
    const replicas = async (cid: string) => (await Promise.all(store.shards.map((s) => s.has(cid)))).filter(Boolean).length;
    const wrapped = async () =>
      (await db.pool.query<{ wrapped: boolean }>('select wrapped_key is not null as wrapped from file_keys where key_id = $1', [manifest.keyId])).rows[0]!
        .wrapped;
    for (const { cid } of manifest.chunks) expect(await replicas(cid)).toBe(2);
    expect(await wrapped()).toBe(true);

    // restarted: the collection marks what nobody names; restarted again two hours later (the
    // product's clock), the next scheduled collection removes it
    await startProduct();
    const marked = async () =>
      (
        await db.pool.query<{ n: number }>(`select count(*)::int as n from blob_orphans where kind = 'chunk' and id = any($1)`, [
          manifest.chunks.map((c) => c.cid),
        ])
      ).rows[0]!.n;
    for (let i = 0; i < 300 && (await marked()) < manifest.chunks.length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await marked()).toBe(manifest.chunks.length);
    child!.kill('SIGINT');
    await exited(child!);
    await startProduct({ AXEL_TEST_CLOCK_OFFSET_MS: String(2 * 3_600_000) });
    const left = async () => (await Promise.all(manifest.chunks.map((c) => replicas(c.cid)))).reduce((a, b) => a + b, 0);
    for (let i = 0; i < 300 && ((await left()) > 0 || (await wrapped())); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await left()).toBe(0);
    expect(await wrapped()).toBe(false);
    cookie = await signIn();
    const health = (await (await fetch(`${base()}/api/admin/blobs/health`, { headers: { cookie } })).json()) as {
      lastCollection: { chunksDeleted: number } | null;
    };
    expect(health.lastCollection).not.toBeNull();
    opened.close();
  }, 240_000);
});

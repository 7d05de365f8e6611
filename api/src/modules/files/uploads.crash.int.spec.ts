import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHUNK_PLAIN_SIZE, FileKeys, loadMasterKeys, openBlobStore, readPlaintext } from '@axel/platform/blobs/index';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { exited, startProductProcess } from '../../../../test/product-process';
import { dropAfterSecretScan } from '../../../../test/scanned-drop';
import { onlineStorageId } from './storage.service';

const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0', 'x-requested-with': 'XMLHttpRequest' };

let db: TestDatabase;
let port = 0;
let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-upload-crash-'));

/** The whole product (`api/src/main.ts`) in its own Node process, so SIGKILL hits it mid-upload. */
const startProduct = async () => {
  child = await startProductProcess({ port, databaseUrl: db.url, dataDir, env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } });
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
  const res = await fetch(`http://127.0.0.1:${port}/api/sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: 'root@axel.test', password: 'Root-pass-123' }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
};

describe('an upload across a crash of the server', () => {
  it('SIGKILL in the middle of a PATCH: after the restart the upload resumes from the reported offset and is byte-identical', async () => {
    await startProduct();
    const cookie = await signIn();
    const base = `http://127.0.0.1:${port}`;
    const me = (await (await fetch(`${base}/api/sessions/this/`, { headers: { cookie } })).json()) as { user: { id: string } };
    const storageId = onlineStorageId(me.user.id);
    const file = randomBytes(5 * MiB + 4321);
    const created = await fetch(`${base}/api/uploads/`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(file.length), 'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}` },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;

    // the client sends 3.5 MiB and keeps the request open; the server is killed while it waits
    const sent = 3 * MiB + MiB / 2;
    let pushed = 0;
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => (release = r));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pushed >= sent) {
          await hold;
          controller.error(new Error('client gave up'));
          return;
        }
        const piece = file.subarray(pushed, Math.min(sent, pushed + 256 * 1024));
        pushed += piece.length;
        controller.enqueue(piece);
      },
    });
    const inFlight = fetch(base + location, {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    while (pushed < sent) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 1500));
    child!.kill('SIGKILL');
    await exited(child!);
    release();
    await inFlight;

    await startProduct();
    const cookie2 = await signIn();
    const head = await fetch(base + location, { method: 'HEAD', headers: { ...TUS, cookie: cookie2 } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    // every whole chunk that reached its shards before the kill counts; nothing beyond what was sent
    expect(offset).toBeGreaterThanOrEqual(CHUNK_PLAIN_SIZE);
    expect(offset).toBeLessThanOrEqual(sent);

    const rest = await fetch(base + location, {
      method: 'PATCH',
      headers: { ...TUS, cookie: cookie2, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: file.subarray(offset),
    });
    expect(rest.status).toBe(204);
    expect(Number(rest.headers.get('upload-offset'))).toBe(file.length);
    child!.kill('SIGINT');
    await exited(child!);

    // read back with the product's own parts, from the database and DATA_DIR the server left
    const id = location.split('/').pop()!;
    const { rows } = await db.pool.query<{ key_id: string; size: number; sha256: string; status: string }>(
      'select key_id, size, sha256, status from uploads where id = $1',
      [id],
    );
    expect(rows[0]).toMatchObject({ status: 'finished', size: file.length, sha256: createHash('sha256').update(file).digest('hex') });
    const { rows: chunks } = await db.pool.query<{ cid: string; size: number }>('select cid, size from upload_chunks where upload_id = $1 order by index', [
      id,
    ]);
    const { store } = openBlobStore({ dataDir, shards: 4, replicas: 2 });
    const keys = new FileKeys(db.pool, loadMasterKeys({ dataDir }));
    const parts: Buffer[] = [];
    for await (const p of readPlaintext(store, keys, { keyId: rows[0]!.key_id, chunkPlainSize: CHUNK_PLAIN_SIZE, chunks, size: file.length }))
      parts.push(p as Buffer);
    expect(Buffer.compare(Buffer.concat(parts), file)).toBe(0);
  }, 240_000);

  it('SIGKILL in the middle of an anonymous Secure Fetch PATCH: after the restart the certificate hashes go on from the stored states and equal node:crypto', async () => {
    await startProduct();
    const cookie = await signIn();
    const base = `http://127.0.0.1:${port}`;
    const me = (await (await fetch(`${base}/api/sessions/this/`, { headers: { cookie } })).json()) as { user: { id: string } };
    const made = await fetch(`${base}/api/users/${me.user.id}/secure-fetches/`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ note: 'Send the scans', includeMetadata: false, certificate: true }),
    });
    expect(made.status).toBe(201);
    const { linkId } = (await made.json()) as { linkId: string };
    const file = randomBytes(5 * MiB + 4321);
    // no cookie from here on: the uploader is anonymous
    const created = await fetch(`${base}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...TUS,
        'upload-length': String(file.length),
        'upload-metadata': `secureFetchId ${Buffer.from(linkId).toString('base64')},filename ${Buffer.from('scans.pdf').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;

    const sent = 3 * MiB + 777_777;
    let pushed = 0;
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => (release = r));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pushed >= sent) {
          await hold;
          controller.error(new Error('client gave up'));
          return;
        }
        const piece = file.subarray(pushed, Math.min(sent, pushed + 100_003));
        pushed += piece.length;
        controller.enqueue(piece);
      },
    });
    const inFlight = fetch(base + location, {
      method: 'PATCH',
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    while (pushed < sent) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 1500));
    child!.kill('SIGKILL');
    await exited(child!);
    release();
    await inFlight;

    await startProduct();
    const head = await fetch(base + location, { method: 'HEAD', headers: TUS });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(CHUNK_PLAIN_SIZE);
    expect(offset).toBeLessThanOrEqual(sent);
    // the rest in two requests of odd sizes
    const middle = offset + 1_234_567;
    for (const [from, to] of [
      [offset, middle],
      [middle, file.length],
    ] as const) {
      const res = await fetch(base + location, {
        method: 'PATCH',
        headers: { ...TUS, 'upload-offset': String(from), 'content-type': 'application/offset+octet-stream' },
        body: file.subarray(from, to),
      });
      expect(res.status).toBe(204);
    }
    const receipt = await fetch(`${base}/api/shares/${linkId}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ files: [{ uploadId: location.split('/').pop(), name: 'scans.pdf', size: file.length, mime: 'application/pdf' }] }),
    });
    expect(receipt.status).toBe(201);
    const { items } = (await receipt.json()) as { items: { md5: string; sha1: string; sha3_512: string }[] };
    expect(items[0]).toMatchObject({
      md5: createHash('md5').update(file).digest('hex'),
      sha1: createHash('sha1').update(file).digest('hex'),
      sha3_512: createHash('sha3-512').update(file).digest('hex'),
    });
    child!.kill('SIGINT');
    await exited(child!);
  }, 240_000);
});

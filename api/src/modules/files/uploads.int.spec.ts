import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cidOf, CHUNK_SIZE } from '@axel/platform/blobs/index';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';
import { onlineStorageId } from './storage.service';
import { storageQuotaGate } from './storage.quota-gate';
import { createBytePipeline, type BytePipeline } from './uploads';
import { pipelineTestApp } from './uploads.testing';

let t: TestApp;
let pipeline: BytePipeline;
pipelineTestApp({ UPLOAD_EXPIRY_HOURS: '1', ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' }, (running) => ({ t, pipeline } = running));
const { signUpConfirmed, signIn } = accountHelpers(() => t);

const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

const user = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  owners.set(http, id);
  return { http, id, cookie: (http as unknown as { cookies: Map<string, string> }).cookies };
};
const cookieHeader = (cookies: Map<string, string>) => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** A user's http client remembers whose it is, for their online storage's id. */
const owners = new WeakMap<HttpClient, string>();

const create = async (http: HttpClient, size: number, storageId = onlineStorageId(owners.get(http)!)) => {
  const res = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(size),
    'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')},filename ${Buffer.from('holiday photo.jpg').toString('base64')}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const location = res.headers.get('location')!;
  expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
  return location;
};

const patch = (http: HttpClient, location: string, offset: number, bytes: Uint8Array) =>
  http.request('PATCH', location, bytes, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

const head = async (http: HttpClient, location: string) => {
  const res = await http.request('HEAD', location, undefined, TUS);
  return { status: res.status, offset: Number(res.headers.get('upload-offset')) };
};

/** A PATCH whose connection breaks after `sendBytes` bytes have left the client. */
const brokenPatch = async (baseUrl: string, cookies: Map<string, string>, location: string, offset: number, bytes: Uint8Array, sendBytes: number) => {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= sendBytes) {
        controller.error(new Error('connection lost'));
        return;
      }
      const piece = bytes.subarray(sent, Math.min(sendBytes, sent + 64 * 1024));
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  await fetch(baseUrl + location, {
    method: 'PATCH',
    headers: {
      ...TUS,
      cookie: cookieHeader(cookies),
      'x-requested-with': 'XMLHttpRequest',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body,
    duplex: 'half',
  } as RequestInit).catch(() => undefined);
};

const readAll = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts);
};

const idOf = (location: string) => location.split('/').pop()!;

const shardFiles = async (cid: string) => {
  const found: string[] = [];
  for (const shard of pipeline.blobs.placementOf(cid)) {
    const file = path.join((shard as unknown as { dir: string }).dir, cid.slice(-2), cid);
    found.push(file);
  }
  return found;
};

describe('tus uploads', () => {
  it('an upload broken at an odd byte resumes from the offset the server reports, and reads back byte-identical', async () => {
    const { http, id, cookie } = await user();
    const file = randomBytes(6 * MiB + 12_345);
    const location = await create(http, file.length);

    const first = 2 * MiB + 777;
    expect((await patch(http, location, 0, file.subarray(0, first))).status).toBe(204);
    expect(await head(http, location)).toEqual({ status: 200, offset: first });

    await brokenPatch(t.url, cookie, location, first, file.subarray(first), 2 * MiB + 4_321);
    let resumeAt = first;
    for (let i = 0; i < 50; i++) {
      resumeAt = (await head(http, location)).offset;
      if (resumeAt > first) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(resumeAt).toBeGreaterThan(first);
    expect(resumeAt).toBeLessThanOrEqual(first + 2 * MiB + 4_321);

    const done = await patch(http, location, resumeAt, file.subarray(resumeAt));
    expect(done.status).toBe(204);
    expect(Number(done.headers.get('upload-offset'))).toBe(file.length);

    const finished = await pipeline.uploads.finished(idOf(location), id);
    expect(finished).not.toBeNull();
    const manifest = finished!.manifest;
    expect(finished!.storageId).toBe(onlineStorageId(id));
    expect(manifest.size).toBe(file.length);
    expect(manifest.sha256).toBe(createHash('sha256').update(file).digest('hex'));
    expect(manifest.chunks.length).toBe(Math.ceil(file.length / manifest.chunkPlainSize));
    for (const c of manifest.chunks.slice(0, -1)) expect(c.size).toBe(CHUNK_SIZE);
    expect(manifest.chunks.at(-1)!.size % 4096).toBe(0);

    expect(Buffer.compare(await readAll(pipeline.content.read(manifest)), file)).toBe(0);
    const range = { start: MiB - 5, end: 3 * MiB + 17 };
    expect(Buffer.compare(await readAll(pipeline.content.read(manifest, range)), file.subarray(range.start, range.end + 1))).toBe(0);

    // someone else's user id does not find it nor claim it; consumed only once claimed, then nobody finds it
    expect(await pipeline.uploads.finished(idOf(location), 'someone-else')).toBeNull();
    expect(await pipeline.uploads.claim(idOf(location), 'someone-else', null)).toBeNull();
    await pipeline.uploads.consumed(idOf(location));
    expect(await pipeline.uploads.finished(idOf(location), id)).not.toBeNull();
    expect((await pipeline.uploads.claim(idOf(location), id, null))!.manifest).toEqual(manifest);
    await pipeline.uploads.consumed(idOf(location));
    expect(await pipeline.uploads.finished(idOf(location), id)).toBeNull();
    expect(Buffer.compare(await readAll(pipeline.content.read(manifest)), file)).toBe(0);
  });

  it('tus-js-client uploads in pieces (as the web app does) and the bytes read back equal', async () => {
    const { Upload } = await import('tus-js-client');
    const { id, cookie } = await user();
    const file = randomBytes(3 * MiB + 1);
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new Upload(file, {
        endpoint: `${t.url}/api/uploads/`,
        chunkSize: MiB + 7,
        retryDelays: [0, 100],
        metadata: { storageId: onlineStorageId(id), filename: 'a.bin' },
        headers: { cookie: cookieHeader(cookie), 'X-Requested-With': 'XMLHttpRequest' },
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    const finished = await pipeline.uploads.finished(idOf(url), id);
    expect(Buffer.compare(await readAll(pipeline.content.read(finished!.manifest)), file)).toBe(0);
  });

  it('a finished upload read from another process computes the same hash (restart between requests)', async () => {
    const { http, id } = await user();
    const file = randomBytes(MiB + 99);
    const location = await create(http, file.length);
    expect((await patch(http, location, 0, file.subarray(0, 1000))).status).toBe(204);
    // the rest goes through a second data store, as a restarted server or another API process would
    const other = createBytePipeline(t.app.ctx, { quota: storageQuotaGate(t.app.ctx) });
    try {
      const { Readable } = await import('node:stream');
      const offset = await other.store.write(Readable.from([file.subarray(1000)]), idOf(location), 1000);
      expect(offset).toBe(file.length);
    } finally {
      await other.close();
    }
    const finished = await pipeline.uploads.finished(idOf(location), id);
    expect(finished!.manifest.sha256).toBe(createHash('sha256').update(file).digest('hex'));
  });

  it("another user's upload does not exist for them; errors are { code, message, data }", async () => {
    const owner = await user();
    const stranger = await user();
    const location = await create(owner.http, 100);
    for (const res of [await stranger.http.request('HEAD', location, undefined, TUS), await patch(stranger.http, location, 0, Buffer.alloc(100))]) {
      expect(res.status).toBe(404);
    }
    const refused = await patch(stranger.http, location, 0, Buffer.alloc(100));
    expect(Object.keys(refused.body).sort()).toEqual(['code', 'data', 'message']);
    const noVersion = await owner.http.request('PATCH', location, Buffer.alloc(10), {
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(noVersion.status).toBe(412);
    expect(noVersion.body.code).toBe('TUS_RESUMABLE_REQUIRED');
    const anonymous = await new HttpClient(t.url).request('POST', '/api/uploads/', undefined, { ...TUS, 'upload-length': '10' });
    expect(anonymous.status).toBe(401);
    const noStorage = await owner.http.request('POST', '/api/uploads/', undefined, { ...TUS, 'upload-length': '10' });
    expect(noStorage.status).toBe(400);
    expect(noStorage.body.code).toBe('VALIDATION_FAILED');
    const wrongOffset = await patch(owner.http, location, 50, Buffer.alloc(10));
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(wrongOffset.headers.get('cache-control')).toBe('no-store');
  });

  it('an upload larger than the room left in the storage is refused at creation, before a byte is stored', async () => {
    const { http, id } = await user();
    const res = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(11 * 1024 ** 3),
      'upload-metadata': `storageId ${Buffer.from(onlineStorageId(id)).toString('base64')}`,
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_SPACE', message: 'Insufficient space or quota' });
    const { rows } = await t.app.ctx.pool.query('select 1 from uploads where user_id = $1', [id]);
    expect(rows).toEqual([]);
    // someone else's storage is not a place to upload to
    const other = await user();
    const foreign = await other.http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `storageId ${Buffer.from(onlineStorageId(id)).toString('base64')}`,
    });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
  });

  it('terminating an upload collects its chunks and destroys its key', async () => {
    const { http } = await user();
    const file = randomBytes(2 * MiB);
    const location = await create(http, file.length + 10);
    expect((await patch(http, location, 0, file)).status).toBe(204);
    const { rows } = await t.app.ctx.pool.query<{ cid: string }>('select cid from upload_chunks where upload_id = $1', [idOf(location)]);
    expect(rows.length).toBe(2);
    const { rows: keys } = await t.app.ctx.pool.query<{ key_id: string }>('select key_id from uploads where id = $1', [idOf(location)]);
    expect((await http.request('DELETE', location, undefined, TUS)).status).toBe(204);
    expect((await head(http, location)).status).toBe(404);
    for (const { cid } of rows) for (const f of await shardFiles(cid)) await expect(fs.access(f)).rejects.toThrow();
    const { rows: destroyed } = await t.app.ctx.pool.query('select wrapped_key, destroyed_at from file_keys where key_id = $1', [keys[0]!.key_id]);
    expect(destroyed[0]).toMatchObject({ wrapped_key: null });
  });

  it('an abandoned upload expires and its chunks are collected', async () => {
    const { http } = await user();
    const location = await create(http, 3 * MiB);
    expect((await patch(http, location, 0, randomBytes(MiB + 5))).status).toBe(204);
    const { rows } = await t.app.ctx.pool.query<{ cid: string }>('select cid from upload_chunks where upload_id = $1', [idOf(location)]);
    expect(rows.length).toBe(1);
    t.clock.advance(2 * 3_600_000);
    expect(await pipeline.store.deleteExpired()).toBeGreaterThanOrEqual(1);
    await expect(pipeline.store.getUpload(idOf(location))).rejects.toMatchObject({ status_code: 404 });
    for (const f of await shardFiles(rows[0]!.cid)) await expect(fs.access(f)).rejects.toThrow();
  });
});

describe('replicas and scrub', () => {
  const uploaded = async (size: number) => {
    const { http, id } = await user();
    const file = randomBytes(size);
    const location = await create(http, size);
    expect((await patch(http, location, 0, file)).status).toBe(204);
    const finished = await pipeline.uploads.finished(idOf(location), id);
    return { file, manifest: finished!.manifest };
  };

  it('a missing replica is read around, and the scrub re-creates it', async () => {
    const { file, manifest } = await uploaded(2 * MiB + 3);
    const cid = manifest.chunks[1]!.cid;
    const [firstReplica] = await shardFiles(cid);
    await fs.rm(firstReplica!);
    expect(Buffer.compare(await readAll(pipeline.content.read(manifest)), file)).toBe(0);
    const report = await pipeline.scrub();
    expect(report.repaired).toBeGreaterThanOrEqual(1);
    expect(report.lost).toBe(0);
    expect(cidOf(await fs.readFile(firstReplica!))).toBe(cid);
  });

  it('a replica with a flipped byte is refused and the other one served; the scrub replaces it', async () => {
    const { file, manifest } = await uploaded(MiB + 500);
    const cid = manifest.chunks[0]!.cid;
    for (const replica of await shardFiles(cid)) {
      const good = await fs.readFile(replica);
      const bad = Buffer.from(good);
      bad[1000]! ^= 0x01;
      await fs.writeFile(replica, bad);
      // each replica damaged in turn: the read still gives the exact bytes from the other
      expect(Buffer.compare(await readAll(pipeline.content.read(manifest)), file)).toBe(0);
      expect((await pipeline.scrub()).repaired).toBeGreaterThanOrEqual(1);
      expect(cidOf(await fs.readFile(replica))).toBe(cid);
    }
  });

  it('a chunk with no intact replica is reported lost and the read fails rather than serve bad bytes', async () => {
    const { manifest } = await uploaded(5000);
    const cid = manifest.chunks[0]!.cid;
    for (const replica of await shardFiles(cid)) await fs.rm(replica);
    const report = await pipeline.scrub();
    expect(report.lostChunks).toContain(cid);
    await expect(readAll(pipeline.content.read(manifest))).rejects.toThrow(/no intact replica/);
    // the health page shows it to staff; users and strangers are refused
    expect((await new HttpClient(t.url).get('/api/admin/blobs/health')).status).toBe(401);
    expect((await (await user()).http.get('/api/admin/blobs/health')).status).toBe(403);
    const staff = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const health = await staff.get('/api/admin/blobs/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ adapter: 'local', replicas: 2 });
    expect(health.body.shards.map((s: { shard: string }) => s.shard)).toEqual(['shard-0', 'shard-1', 'shard-2', 'shard-3']);
    const { rows: stored } = await t.app.ctx.pool.query<{ n: number }>('select count(*)::int as n from upload_chunks');
    expect(health.body.shards.reduce((n: number, s: { chunks: number }) => n + s.chunks, 0)).toBeGreaterThanOrEqual((stored[0]!.n - 1) * 2); // every chunk on two shards, but the lost one
    expect(health.body.shards.every((s: { freeBytes: number }) => s.freeBytes > 0)).toBe(true);
    expect(health.body.lastScrub.lostChunks).toContain(cid);
  });

  it('destroying a file version erases its key and collects its chunks', async () => {
    const { manifest } = await uploaded(MiB + 1);
    await pipeline.content.destroy(manifest);
    for (const c of manifest.chunks) for (const f of await shardFiles(c.cid)) await expect(fs.access(f)).rejects.toThrow();
    await expect(readAll(pipeline.content.read(manifest))).rejects.toThrow();
  });
});

describe('no plaintext at rest', () => {
  /** Every file under `root` (written since `since`, in seconds): `find` walks a busy temp folder far faster than Node. */
  const filesUnder = async (root: string, since?: number) => {
    const { execFile } = await import('node:child_process');
    const args = [root, '-xdev', '-type', 'f', ...(since ? ['-newermt', `@${since}`] : [])];
    const out = await new Promise<string>((resolve) => execFile('find', args, { maxBuffer: 256 * MiB }, (_e, stdout) => resolve(stdout)));
    return out.split('\n').filter(Boolean);
  };

  it('the bytes of uploads, finished and unfinished, appear nowhere under DATA_DIR or the temp folder', async () => {
    const since = Math.floor(Date.now() / 1000) - 2;
    const { http } = await user();
    // a recognisable pattern: a random block repeated, so any stored fragment of the plaintext holds
    // it; 8 KiB, beyond the reach of PostgreSQL's compression, so a leak could not hide compressed
    const block = randomBytes(8192);
    const file = Buffer.concat(Array.from({ length: Math.ceil((2 * MiB + 333) / 8192) }, () => block)).subarray(0, 2 * MiB + 333);
    const finishedAt = await create(http, file.length);
    expect((await patch(http, finishedAt, 0, file)).status).toBe(204);
    const partAt = await create(http, file.length);
    expect((await patch(http, partAt, 0, file.subarray(0, MiB + 100_001))).status).toBe(204);
    await t.app.ctx.pool.query('checkpoint');

    const needle = block.subarray(100, 164);
    // in the shared temp folder, only what was written while these uploads ran can hold their bytes
    // and the database's own files: the unfinished upload's tail lives there
    const { rows } = await t.app.ctx.pool.query<{ setting: string }>(`select setting from pg_settings where name = 'data_directory'`);
    const files = new Set([
      ...(await filesUnder(t.app.ctx.config.dataDir)),
      ...(await filesUnder(os.tmpdir(), since)),
      ...(rows[0]?.setting ? await filesUnder(rows[0].setting, since) : []),
    ]);
    expect([...files].some((f) => f.includes('/blobs/shard-'))).toBe(true);
    const hits: string[] = [];
    for (const f of files) {
      const bytes = await fs.readFile(f).catch(() => null);
      if (bytes && bytes.indexOf(needle) >= 0) hits.push(f);
    }
    expect(hits).toEqual([]);
  }, 180_000);
});

describe('the scrub on the worker role', () => {
  it('runs by itself every SCRUB_INTERVAL_HOURS, repairs a missing replica and records its report for staff', async () => {
    const app = await startTestApp({ env: { SCRUB_INTERVAL_HOURS: '0.0005' } });
    try {
      const own = createBytePipeline(app.app.ctx, { quota: storageQuotaGate(app.app.ctx) });
      const helpers = accountHelpers(() => app);
      const { email, id } = await helpers.signUpConfirmed();
      const signedIn = (await helpers.signIn(email)).http;
      owners.set(signedIn, id);
      const location = await create(signedIn, 5000);
      expect((await patch(signedIn, location, 0, randomBytes(5000))).status).toBe(204);
      const manifest = (await own.uploads.finished(idOf(location), id))!.manifest;
      const cid = manifest.chunks[0]!.cid;
      const replica = path.join((own.blobs.placementOf(cid)[0] as unknown as { dir: string }).dir, cid.slice(-2), cid);
      await fs.rm(replica);
      let report: { repaired: number } | null = null;
      for (let i = 0; i < 150 && !(report && report.repaired > 0); i++) {
        await new Promise((r) => setTimeout(r, 100));
        report = await own.lastScrub();
      }
      expect(report?.repaired).toBeGreaterThanOrEqual(1);
      expect(cidOf(await fs.readFile(replica))).toBe(cid);
      await own.close();
    } finally {
      await app.stop();
    }
  });
});

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { cidOf, type BlobStore, type LocalFolderBlobStore } from '@axel/platform/blobs/index';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { TestApp } from '../../testing/harness';
import { onlineStorageId } from './storage.service';
import { pipelineTestApp } from './uploads.testing';

let t: TestApp;
pipelineTestApp({ ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '100' }, (running) => ({ t } = running));
const { signUpConfirmed, signIn } = accountHelpers(() => t);

const MiB = 1024 * 1024;
const HOUR = 3_600_000;
const TUS = { 'tus-resumable': '1.0.0' };

/** The pipeline the server itself runs (its shards, its faults). */
const server = () => t.app.files.bytes(t.app.ctx);
const shardDir = (shard: BlobStore) => (shard as LocalFolderBlobStore).dir;
const replicaFile = (shard: BlobStore, cid: string) => path.join(shardDir(shard), cid.slice(-2), cid);

const runtime = () => {
  const rt = t.app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/**
 * Makes a shard's writes and deletions fail with `code` while `on` (a read-only disk: EROFS). Tests
 * run as root, which a read-only mode does not stop: the failure is injected into the shard itself.
 */
const failingWrites = (shard: BlobStore, code: string) => {
  const state = { on: true };
  const put = shard.put.bind(shard);
  const del = shard.delete.bind(shard);
  const refuse = () => Object.assign(new Error(`${code}: read-only file system, open '${shardDir(shard)}/ab/.x.tmp'`), { code });
  shard.put = async (cid, bytes) => {
    if (state.on) throw refuse();
    return put(cid, bytes);
  };
  shard.delete = async (cid) => {
    if (state.on) throw refuse();
    return del(cid);
  };
  return {
    restore() {
      shard.put = put;
      shard.delete = del;
    },
  };
};

const user = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storageId = onlineStorageId(id);
  const base = `/api/users/${id}/storages/${storageId}`;
  /** Uploads `bytes` and makes a file of them: the upload's status and, when it worked, the file. */
  const file = async (name: string, bytes: Buffer) => {
    const res = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(bytes.length),
      'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const location = res.headers.get('location')!;
    const patched = await http.request('PATCH', location, bytes, { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
    if (patched.status !== 204) return { status: patched.status, body: patched.body };
    const made = await http.post(`${base}/items/`, { label: 'file', name, uploadId: location.split('/').pop()! });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { rows } = await t.app.ctx.pool.query<{ manifest: { keyId: string; chunks: { cid: string }[] } }>(
      'select manifest from storage_items where id = $1',
      [made.body.id],
    );
    return { status: 204, id: made.body.id as string, manifest: rows[0]!.manifest };
  };
  const download = (fileId: string) => http.get(`${base}/files/${fileId}/sources/`);
  return { http, id, base, file, download };
};

const staff = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

/** Runs one scrub the way the maintenance process does (its timer's command). */
const scheduledScrub = async () => {
  let maintenance = await runtime().getProcess('blob-maintenance', 'blobs');
  for (let i = 0; i < 100 && !maintenance?.timers.scrub; i++) {
    await new Promise((r) => setTimeout(r, 50));
    maintenance = await runtime().getProcess('blob-maintenance', 'blobs');
  }
  t.clock.advance(Date.parse(maintenance!.timers.scrub!.at) - t.clock.now().getTime() + 1000);
  await runtime().fireDueTimers();
  await runtime().whenIdle();
};

describe('the blob store heals itself', () => {
  it('a shard folder deleted mid-life: uploads go on, health says degraded with the shard until the scheduled scrub re-creates its replicas, then ok', async () => {
    const u = await user();
    const before = await Promise.all(Array.from({ length: 4 }, (_, i) => u.file(`before-${i}.bin`, randomBytes(MiB + 100 * i))));
    const lost = server().blobs.shards[2]!;
    await fs.rm(shardDir(lost), { recursive: true, force: true });

    const health = async () => (await u.http.get('/api/health')).body;
    expect(await health()).toMatchObject({
      status: 'degraded',
      blobs: { status: 'degraded', reasons: [{ code: 'shard-problem', shard: lost.name, detail: 'folder missing' }] },
    });

    // every upload right after the loss is stored and reads back
    const files = [];
    for (let i = 0; i < 6; i++) {
      const bytes = randomBytes(2 * MiB + 7 * i);
      const made = await u.file(`after-${i}.bin`, bytes);
      expect(made.status, JSON.stringify(made.body)).toBe(204);
      files.push({ ...made, bytes });
    }
    for (const f of files) expect(Buffer.compare(Buffer.from(await (await fetchBytes(u, f.id!)).arrayBuffer()), f.bytes)).toBe(0);
    expect((await health()).blobs.reasons).toEqual([
      expect.objectContaining({ code: 'shard-problem', shard: lost.name, detail: expect.stringMatching(/made again/) }),
    ]);
    const admin = await staff();
    const shown = (await admin.get('/api/admin/blobs/health')).body;
    expect(shown).toMatchObject({ status: 'degraded' });
    expect(shown.shards.find((s: { shard: string }) => s.shard === lost.name).problem).toMatch(/made again/);

    await scheduledScrub();
    const held = before.flatMap((f) => f.manifest!.chunks.map((c) => c.cid)).filter((cid) => server().blobs.placementOf(cid).includes(lost));
    expect(held.length).toBeGreaterThan(0);
    for (const cid of held) expect(cidOf(await fs.readFile(replicaFile(lost, cid)))).toBe(cid);
    expect(await health()).toMatchObject({ status: 'ok', blobs: { status: 'ok', reasons: [] } });
    const after = (await (await staff()).get('/api/admin/blobs/health')).body;
    expect(after).toMatchObject({ status: 'ok', lastScrub: { lost: 0, failed: 0, shardFaults: [] } });
    expect(after.lastScrub.repaired).toBeGreaterThanOrEqual(held.length);
  });

  it('a read-only shard: every upload succeeds on the next shards, the shard is reported to staff and health, and reads find the chunks where they went', async () => {
    const u = await user();
    const readOnly = server().blobs.shards[1]!;
    const fault = failingWrites(readOnly, 'EROFS');
    try {
      const files = [];
      for (let i = 0; i < 8; i++) {
        const bytes = randomBytes(MiB + 4096 * i);
        const made = await u.file(`ro-${i}.bin`, bytes);
        expect(made.status, JSON.stringify(made.body)).toBe(204);
        files.push({ ...made, bytes });
      }
      const placedThere = files.flatMap((f) => f.manifest!.chunks).filter(({ cid }) => server().blobs.placementOf(cid).includes(readOnly));
      expect(placedThere.length).toBeGreaterThan(0);
      for (const f of files) {
        const res = await fetchBytes(u, f.id!);
        expect(res.status).toBe(200);
        expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), f.bytes)).toBe(0);
      }
      const health = (await u.http.get('/api/health')).body;
      expect(health).toMatchObject({ status: 'degraded' });
      expect(health.blobs.reasons).toContainEqual(expect.objectContaining({ code: 'shard-fault', shard: readOnly.name, detail: 'put: EROFS' }));
      const shown = (await (await staff()).get('/api/admin/blobs/health')).body;
      expect(shown.faults).toContainEqual(expect.objectContaining({ kind: 'shard', shard: readOnly.name, detail: 'put: EROFS' }));
      // no path of the server in what staff or anyone is shown
      expect(JSON.stringify(shown)).not.toContain(t.app.ctx.config.dataDir);
    } finally {
      fault.restore();
    }
  });

  it('a failing scrub is recorded, never holds the collection or the next scrub, and the process keeps its timers', async () => {
    const pipeline = server();
    const scrub = pipeline.scrub;
    let failures = 0;
    pipeline.scrub = async () => {
      failures++;
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${t.app.ctx.config.dataDir}/blobs/shard-2/ly/.x.tmp'`), { code: 'ENOENT' });
    };
    try {
      const collectionsBefore = Number((await t.app.ctx.pool.query('select count(*) from blob_collections')).rows[0].count);
      await scheduledScrub();
      expect(failures).toBe(1);
      const process = (await runtime().getProcess('blob-maintenance', 'blobs'))!;
      expect(process).toMatchObject({ status: 'running', pendingCommands: 0, lastError: null });
      expect(process.timers.scrub).toBeDefined();
      expect(process.timers.collect).toBeDefined();
      // the collection due meanwhile ran
      t.clock.advance(6 * HOUR);
      await runtime().fireDueTimers();
      await runtime().whenIdle();
      expect(Number((await t.app.ctx.pool.query('select count(*) from blob_collections')).rows[0].count)).toBeGreaterThan(collectionsBefore);
      const health = (await (await staff()).get('/api/health')).body;
      expect(health.blobs.reasons).toContainEqual(expect.objectContaining({ code: 'upkeep-failed', detail: 'scrub: Error ENOENT' }));
      expect(JSON.stringify(health)).not.toContain('shard-2/ly');
    } finally {
      pipeline.scrub = scrub;
    }
    // the next scrub runs at its time and, finding nothing wrong, settles what was recorded
    await scheduledScrub();
    expect((await (await staff()).get('/api/health')).body).toMatchObject({ status: 'ok' });
  });

  it('a maintenance process dead-lettered by an older version takes its timers again when the worker starts', async () => {
    const ref = ['blob-maintenance', 'blobs'] as const;
    await t.app.ctx.pool.query(`update wf_processes set status = 'dead_letter', last_error = 'ENOENT' where process_type = $1 and process_id = $2`, [...ref]);
    const { scheduleBlobMaintenance } = await import('./blob-maintenance');
    await scheduleBlobMaintenance(t.app.ctx);
    expect(await runtime().getProcess(...ref)).toMatchObject({ status: 'running' });
    const scrubsBefore = ((await runtime().getProcess(...ref))!.state as { scrubs: number }).scrubs;
    await scheduledScrub();
    expect(((await runtime().getProcess(...ref))!.state as { scrubs: number }).scrubs).toBe(scrubsBefore + 1);
  });
});

describe('downloads of a file that cannot be read', () => {
  it('every replica of its first chunk damaged: FILE_DAMAGED naming the file, as JSON; staff see the chunk and the file', async () => {
    const u = await user();
    const made = await u.file('damaged.bin', randomBytes(3 * MiB));
    const cid = made.manifest!.chunks[0]!.cid;
    for (const shard of server().blobs.shards) await fs.writeFile(replicaFile(shard, cid), 'damaged').catch(() => undefined);
    const res = await u.download(made.id!);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({
      code: 'FILE_DAMAGED',
      message: 'This file is damaged: part of its content cannot be read',
      data: { fileId: made.id, name: 'damaged.bin' },
    });
    const shown = (await (await staff()).get('/api/admin/blobs/health')).body;
    expect(shown.faults).toContainEqual(expect.objectContaining({ kind: 'chunk-lost', cid, itemId: made.id }));
    expect(shown.status).toBe('degraded');
  });

  it('its key destroyed: a clear error, not a 500', async () => {
    const u = await user();
    const made = await u.file('keyless.bin', randomBytes(MiB));
    await server().keys.destroy(made.manifest!.keyId);
    const res = await u.download(made.id!);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'FILE_DELETED', data: { fileId: made.id } });
  });

  it('a chunk in the middle without an intact replica: the connection is cut and the loss recorded for staff', async () => {
    const u = await user();
    const made = await u.file('cut.bin', randomBytes(40 * MiB));
    const cid = made.manifest!.chunks[30]!.cid;
    for (const shard of server().blobs.shards) await fs.rm(replicaFile(shard, cid), { force: true });
    const res = await fetchBytes(u, made.id!);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    await server().faults.flushed();
    const shown = (await (await staff()).get('/api/admin/blobs/health')).body;
    expect(shown.faults).toContainEqual(expect.objectContaining({ kind: 'chunk-lost', cid, itemId: made.id }));
  });
});

/** The raw response of a download (its body not read yet). */
const fetchBytes = async (u: Awaited<ReturnType<typeof user>>, fileId: string) => {
  const url = await u.http.get(`/api/urls/storage-download/?userId=${u.id}&storageId=${onlineStorageId(u.id)}&fileId=${fileId}`);
  expect(url.status, JSON.stringify(url.body)).toBe(200);
  // signed URLs are paths on the page's own origin
  return fetch(new URL(url.body.url, t.url));
};

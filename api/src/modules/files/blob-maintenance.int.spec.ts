import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { cidOf } from '@axel/platform/blobs/index';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { TestApp } from '../../testing/harness';
import type { FileManifest } from './contracts';
import { collectBlobs } from './blob-maintenance';
import { onlineStorageId } from './storage.service';
import type { BytePipeline } from './uploads';
import { pipelineTestApp } from './uploads.testing';

let t: TestApp;
let pipeline: BytePipeline;
pipelineTestApp({ ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '100' }, (running) => ({ t, pipeline } = running));
const { signUpConfirmed, signIn } = accountHelpers(() => t);

const MiB = 1024 * 1024;
const HOUR = 3_600_000;
const TUS = { 'tus-resumable': '1.0.0' };

const runtime = () => {
  const rt = t.app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

const user = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storageId = onlineStorageId(id);
  const base = `/api/users/${id}/storages/${storageId}`;
  /** A tus upload of `bytes`, sent up to `send` bytes. */
  const upload = async (bytes: Buffer, send = bytes.length) => {
    const res = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(bytes.length),
      'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const location = res.headers.get('location')!;
    const patched = await http.request('PATCH', location, bytes.subarray(0, send), {
      ...TUS,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(patched.status).toBe(204);
    return location.split('/').pop()!;
  };
  const file = async (name: string, bytes: Buffer) => {
    const uploadId = await upload(bytes);
    const made = await http.post(`${base}/items/`, { label: 'file', name, uploadId });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { rows } = await t.app.ctx.pool.query<{ manifest: { keyId: string; chunks: { cid: string }[] } }>(
      'select manifest from storage_items where id = $1',
      [made.body.id],
    );
    return { id: made.body.id as string, manifest: rows[0]!.manifest };
  };
  const task = async (body: Record<string, unknown>) => {
    const started = await http.post(`/api/users/${id}/storage-tasks/`, body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    let state = (await http.get(started.body.stateURL)).body;
    for (let i = 0; i < 100 && state.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await http.get(started.body.stateURL)).body;
    }
    expect(state.status).toBe('done');
  };
  /** The session ends while the test clock jumps hours: a new one. */
  const again = async () => (await signIn(email)).http;
  return { http, id, base, upload, file, task, again };
};

const replicaFiles = (cid: string) => pipeline.blobs.shards.map((shard) => path.join((shard as unknown as { dir: string }).dir, cid.slice(-2), cid));
const storedReplicas = async (cid: string) => {
  const found: string[] = [];
  for (const f of replicaFiles(cid))
    if (
      await fs.access(f).then(
        () => true,
        () => false,
      )
    )
      found.push(f);
  return found;
};
/** The file's bytes as the download route serves them (every chunk verified). */
const readBack = async (manifest: unknown) => {
  const parts: Buffer[] = [];
  for await (const p of pipeline.content.read(manifest as FileManifest)) parts.push(p as Buffer);
  return Buffer.concat(parts);
};

describe('blob maintenance on the process runtime', () => {
  it('the scheduled scrub repairs a damaged replica when the clock reaches its time, and staff see its report', async () => {
    const u = await user();
    const bytes = randomBytes(MiB + 777);
    const { manifest } = await u.file('scrubbed.bin', bytes);
    const cid = manifest.chunks[0]!.cid;
    const [replica] = await storedReplicas(cid);
    const good = await fs.readFile(replica!);
    const bad = Buffer.from(good);
    bad[4242]! ^= 0x80;
    await fs.writeFile(replica!, bad);

    // the schedule written by the worker at start has started the process, waiting for its timers
    let maintenance = await runtime().getProcess('blob-maintenance', 'blobs');
    for (let i = 0; i < 100 && !maintenance?.timers.scrub; i++) {
      await new Promise((r) => setTimeout(r, 50));
      maintenance = await runtime().getProcess('blob-maintenance', 'blobs');
    }
    expect(maintenance).toMatchObject({ status: 'running', state: { scrubEveryMs: 24 * HOUR, collectEveryMs: 6 * HOUR } });
    const scrubAt = Date.parse(maintenance!.timers.scrub!.at);

    // not yet: an hour before its time nothing has been repaired
    t.clock.advance(scrubAt - t.clock.now().getTime() - HOUR);
    await runtime().fireDueTimers();
    await runtime().whenIdle();
    expect(Buffer.compare(await fs.readFile(replica!), bad)).toBe(0);

    t.clock.advance(2 * HOUR);
    await runtime().fireDueTimers();
    await runtime().whenIdle();
    expect(cidOf(await fs.readFile(replica!))).toBe(cid);
    expect(Buffer.compare(await readBack(manifest), bytes)).toBe(0);

    const after = (await runtime().getProcess('blob-maintenance', 'blobs'))!;
    expect(after).toMatchObject({ status: 'running', state: { scrubs: 1 } });
    // the next run one interval after this one
    expect(Math.abs(Date.parse(after.timers.scrub!.at) - (t.clock.now().getTime() + 24 * HOUR))).toBeLessThan(60_000);
    const staff = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const health = await staff.get('/api/admin/blobs/health');
    expect(health.body.lastScrub).toMatchObject({ lost: 0 });
    expect(health.body.lastScrub.repaired).toBeGreaterThanOrEqual(1);
    expect(health.body.lastCollection).toMatchObject({ skipped: null });
  });

  it('collects the content of a deleted file left behind by a crash, keeps kept files and the chunks of a live upload (recorded or in flight), and collects the unrecorded chunk once the upload is gone', async () => {
    const u = await user();
    const keptBytes = randomBytes(2 * MiB + 5);
    const kept = await u.file('kept.bin', keptBytes);
    const gone = await u.file('gone.bin', randomBytes(MiB + 99));

    // the file is deleted for ever; then the state a crash between the delete event and the removal
    // of its content leaves: every replica of its chunks, and its key, still there
    const saved = await Promise.all(
      gone.manifest.chunks.map(async ({ cid }) => Promise.all((await storedReplicas(cid)).map(async (f) => ({ f, bytes: await fs.readFile(f) })))),
    );
    const { rows: keyRows } = await t.app.ctx.pool.query<{ wrapped_key: Buffer }>('select wrapped_key from file_keys where key_id = $1', [gone.manifest.keyId]);
    await u.task({ action: 'trash', itemIds: [gone.id] });
    await u.task({ action: 'delete', itemIds: [gone.id] });
    for (const replicas of saved) {
      for (const { f, bytes } of replicas) {
        await fs.mkdir(path.dirname(f), { recursive: true });
        await fs.writeFile(f, bytes);
      }
    }
    await t.app.ctx.pool.query('update file_keys set wrapped_key = $2, destroyed_at = null where key_id = $1', [gone.manifest.keyId, keyRows[0]!.wrapped_key]);
    for (const { cid } of gone.manifest.chunks) expect((await storedReplicas(cid)).length).toBe(2);

    // a first collection only marks what nobody names
    const first = await collectBlobs(t.app.ctx, pipeline);
    expect(first).toMatchObject({ chunksDeleted: 0, keysDestroyed: 0, skipped: null });
    expect(first.unreferenced).toBeGreaterThanOrEqual(gone.manifest.chunks.length);

    // an upload goes on meanwhile: one chunk recorded, one stored but not yet recorded (its request in flight)
    const live = await u.upload(randomBytes(3 * MiB), MiB + 10);
    const { rows: liveChunks } = await t.app.ctx.pool.query<{ cid: string }>('select cid from upload_chunks where upload_id = $1', [live]);
    expect(liveChunks.length).toBe(1);
    const inFlight = await pipeline.blobs.put(randomBytes(5000));
    // marked too, as nobody names it yet
    expect((await collectBlobs(t.app.ctx, pipeline)).chunksDeleted).toBe(0);

    // past the grace period: what was marked before the live upload began goes; what it may own stays
    t.clock.advance(2 * HOUR);
    const second = await collectBlobs(t.app.ctx, pipeline);
    expect(second.chunksDeleted).toBeGreaterThanOrEqual(gone.manifest.chunks.length);
    expect(second.keysDestroyed).toBeGreaterThanOrEqual(1);
    for (const { cid } of gone.manifest.chunks) expect(await storedReplicas(cid)).toEqual([]);
    const { rows: goneKey } = await t.app.ctx.pool.query('select wrapped_key from file_keys where key_id = $1', [gone.manifest.keyId]);
    expect(goneKey[0]).toMatchObject({ wrapped_key: null });

    // the live upload's chunks stay, recorded or not, and so does every kept file
    expect((await storedReplicas(liveChunks[0]!.cid)).length).toBe(2);
    expect((await storedReplicas(inFlight)).length).toBe(2);
    for (const { cid } of kept.manifest.chunks) expect((await storedReplicas(cid)).length).toBe(2);
    expect(Buffer.compare(await readBack(kept.manifest), keptBytes)).toBe(0);
    const http = await u.again();
    const resumed = await http.request('PATCH', `/api/uploads/${live}`, randomBytes(10), {
      ...TUS,
      'upload-offset': String(MiB + 10),
      'content-type': 'application/offset+octet-stream',
    });
    expect(resumed.status).toBe(204);

    // once the upload is gone (terminated), the chunk it never recorded is collected too
    expect((await http.request('DELETE', `/api/uploads/${live}`, undefined, TUS)).status).toBe(204);
    const third = await collectBlobs(t.app.ctx, pipeline);
    expect(third.chunksDeleted).toBeGreaterThanOrEqual(1);
    expect(await storedReplicas(inFlight)).toEqual([]);
    expect(Buffer.compare(await readBack(kept.manifest), keptBytes)).toBe(0);
  });
});

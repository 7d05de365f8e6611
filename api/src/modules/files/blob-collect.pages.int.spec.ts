import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { TestApp } from '../../testing/harness';
import { collectUnreferenced } from './blob-collect';
import type { FileManifest } from './contracts';
import { onlineStorageId } from './storage.service';
import type { BytePipeline } from './uploads';
import { pipelineTestApp } from './uploads.testing';

let t: TestApp;
let pipeline: BytePipeline;
pipelineTestApp({ RATE_LIMIT_FACTOR: '100' }, (running) => ({ t, pipeline } = running));
const { signUpConfirmed, signIn } = accountHelpers(() => t);

const MiB = 1024 * 1024;
const HOUR = 3_600_000;
const TUS = { 'tus-resumable': '1.0.0' };

const replicas = async (cid: string) => (await Promise.all(pipeline.blobs.shards.map((s) => s.has(cid)))).filter(Boolean).length;
const readBack = async (manifest: FileManifest) => {
  const parts: Buffer[] = [];
  for await (const p of pipeline.content.read(manifest)) parts.push(p as Buffer);
  return Buffer.concat(parts);
};
const allStored = async () => {
  const seen = new Set<string>();
  for (const shard of pipeline.blobs.shards) for await (const cid of shard.list()) seen.add(cid);
  return seen;
};

describe('the collection in pages', () => {
  it('with pages of 3 over 20 unreferenced chunks and 4 unreferenced keys, collects exactly those, and keeps a file of 3 chunks', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = onlineStorageId(id);
    const bytes = randomBytes(2 * MiB + 4321);
    const created = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(bytes.length),
      'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect((await http.request('PATCH', location, bytes, { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' })).status).toBe(
      204,
    );
    const made = await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: 'kept.bin', uploadId: location.split('/').pop() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { rows } = await t.app.ctx.pool.query<{ manifest: FileManifest }>('select manifest from storage_items where id = $1', [made.body.id]);
    const kept = rows[0]!.manifest;
    expect(kept.chunks.length).toBe(3);

    // 20 chunks and 4 data keys that nothing names (what a crash mid-deletion leaves)
    const strays = new Set<string>();
    for (let i = 0; i < 20; i++) strays.add(await pipeline.blobs.put(randomBytes(4096 + i)));
    expect(strays.size).toBe(20);
    const strayKeys: string[] = [];
    for (let i = 0; i < 4; i++) strayKeys.push((await pipeline.keys.create()).keyId);
    const stored = await allStored();
    expect(stored.size).toBe(23);

    const first = await collectUnreferenced(t.app.ctx, pipeline.blobs, pipeline.keys, { pageSize: 3 });
    expect(first).toMatchObject({ stored: 23, unreferenced: 20, chunksDeleted: 0, keysDestroyed: 0, waiting: 24, skipped: null });
    const { rows: marks } = await t.app.ctx.pool.query<{ kind: string; id: string }>('select kind, id from blob_orphans order by kind, id');
    expect(marks.filter((m) => m.kind === 'chunk').map((m) => m.id)).toEqual([...strays].sort());
    expect(marks.filter((m) => m.kind === 'key').map((m) => m.id)).toEqual([...strayKeys].sort());

    t.clock.advance(2 * HOUR);
    const second = await collectUnreferenced(t.app.ctx, pipeline.blobs, pipeline.keys, { pageSize: 3 });
    expect(second).toMatchObject({ stored: 23, unreferenced: 20, chunksDeleted: 20, keysDestroyed: 4, waiting: 0, skipped: null });
    expect([...(await allStored())].sort()).toEqual(kept.chunks.map((c) => c.cid).sort());
    for (const { cid } of kept.chunks) expect(await replicas(cid)).toBe(2);
    const { rows: keyRows } = await t.app.ctx.pool.query<{ key_id: string; wrapped: boolean }>(
      'select key_id, wrapped_key is not null as wrapped from file_keys',
    );
    const wrapped = new Map(keyRows.map((r) => [r.key_id, r.wrapped]));
    for (const k of strayKeys) expect(wrapped.get(k)).toBe(false);
    expect(wrapped.get(kept.keyId)).toBe(true);
    expect(Buffer.compare(await readBack(kept), bytes)).toBe(0);
    expect((await t.app.ctx.pool.query('select 1 from blob_orphans')).rows).toEqual([]);

    // nothing left to collect
    expect(await collectUnreferenced(t.app.ctx, pipeline.blobs, pipeline.keys, { pageSize: 3 })).toMatchObject({
      stored: 3,
      unreferenced: 0,
      chunksDeleted: 0,
      keysDestroyed: 0,
      waiting: 0,
    });
  });
});

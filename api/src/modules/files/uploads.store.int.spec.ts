import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CHUNK_PLAIN_SIZE, LocalFolderBlobStore, readPlaintext, ReplicatedBlobStore, type BlobBytes } from '@axel/platform/blobs/index';
import { Upload } from '@tus/utils';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing/harness';
import type { BytePipeline } from './uploads';
import { CHUNKS_IN_FLIGHT, EncryptingDataStore } from './uploads.store';
import { pipelineTestApp } from './uploads.testing';

let t: TestApp;
let pipeline: BytePipeline;
pipelineTestApp({}, (running) => ({ t, pipeline } = running));

const root = mkdtempSync(path.join(os.tmpdir(), 'axel-upload-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Shards whose writes are held until the test lets them go, in any order, or fail. */
class HeldShard extends LocalFolderBlobStore {
  readonly held: { cid: string; go: () => void; fail: (e: Error) => void }[] = [];
  hold = true;
  override async put(cid: string, bytes: BlobBytes): Promise<void> {
    if (this.hold) await new Promise<void>((go, fail) => this.held.push({ cid, go, fail }));
    return super.put(cid, bytes);
  }
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
};

const setUp = async (name: string) => {
  const shard = new HeldShard(path.join(root, name), name);
  const blobs = new ReplicatedBlobStore([shard], 1);
  const real = t.app.ctx.pool;
  // counts the statements that record chunks
  const records = { count: 0 };
  const pool = new Proxy(real, {
    get: (target, prop) =>
      prop === 'query'
        ? (...args: unknown[]) => {
            if (typeof args[0] === 'string' && args[0].includes('insert into upload_chunks')) records.count++;
            return (target.query as (...a: unknown[]) => unknown)(...args);
          }
        : Reflect.get(target, prop),
  });
  const store = new EncryptingDataStore({
    pool,
    blobs,
    keys: pipeline.keys,
    quota: pipeline.quota,
    nodeId: 'node-test',
    expiryMs: 3_600_000,
    now: () => new Date(),
  });
  return { shard, blobs, store, records };
};

const stored = async (id: string) => {
  const { rows } = await t.app.ctx.pool.query<{ offset: string; chunks: string }>(
    `select "offset", (select count(*) from upload_chunks c where c.upload_id = u.id) as chunks from uploads u where id = $1`,
    [id],
  );
  return { offset: Number(rows[0]!.offset), chunks: Number(rows[0]!.chunks) };
};

describe('the upload data store', () => {
  it(`stores up to ${CHUNKS_IN_FLIGHT} chunks at once; chunks that become durable out of order are recorded in order, several in one record, and the bytes read back`, async () => {
    const { shard, blobs, store, records } = await setUp('out-of-order');
    const size = 3 * CHUNK_PLAIN_SIZE + 12_345;
    const data = randomBytes(size);
    const id = randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size, offset: 0, metadata: { userId: 'user-1', storageId: 'storage-1' } }));

    const writing = store.write(Readable.from([data.subarray(0, 3 * CHUNK_PLAIN_SIZE)]), id, 0);
    // the three whole chunks go to their shard together, before any of them is durable
    await until(() => shard.held.length === 3);
    expect(await stored(id)).toEqual({ offset: 0, chunks: 0 });
    // the later chunks are durable first: nothing can be recorded before the first
    shard.held[2]!.go();
    shard.held[1]!.go();
    await new Promise((r) => setTimeout(r, 100));
    expect(await stored(id)).toEqual({ offset: 0, chunks: 0 });
    shard.held[0]!.go();
    expect(await writing).toBe(3 * CHUNK_PLAIN_SIZE);
    expect(await stored(id)).toEqual({ offset: 3 * CHUNK_PLAIN_SIZE, chunks: 3 });
    // all three were durable when the first could be recorded: one statement recorded them
    expect(records.count).toBe(1);

    shard.hold = false;
    expect(await store.write(Readable.from([data.subarray(3 * CHUNK_PLAIN_SIZE)]), id, 3 * CHUNK_PLAIN_SIZE)).toBe(size);
    const done = await store.finished(id, 'user-1');
    expect(done!.manifest.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    const back: Buffer[] = [];
    for await (const part of readPlaintext(blobs, pipeline.keys, done!.manifest)) back.push(part as Buffer);
    expect(Buffer.concat(back).equals(data)).toBe(true);
  });

  it('a chunk whose shard write fails stops the request: only the chunks before it are recorded, a later chunk already on disk is not, and the upload resumes from the recorded offset', async () => {
    const { shard, store } = await setUp('failing');
    const size = 3 * CHUNK_PLAIN_SIZE;
    const data = randomBytes(size);
    const id = randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size, offset: 0, metadata: { userId: 'user-1', storageId: 'storage-1' } }));

    const writing = store.write(Readable.from([data]), id, 0);
    writing.catch(() => undefined);
    await until(() => shard.held.length === 3);
    shard.held[0]!.go();
    shard.held[2]!.go();
    shard.held[1]!.fail(new Error('disk full'));
    await expect(writing).rejects.toThrow('disk full');
    expect(await stored(id)).toEqual({ offset: CHUNK_PLAIN_SIZE, chunks: 1 });
    expect((await store.getUpload(id)).offset).toBe(CHUNK_PLAIN_SIZE);

    shard.hold = false;
    expect(await store.write(Readable.from([data.subarray(CHUNK_PLAIN_SIZE)]), id, CHUNK_PLAIN_SIZE)).toBe(size);
    const done = await store.finished(id, 'user-1');
    expect(done!.manifest.chunks).toHaveLength(3);
    expect(done!.manifest.sha256).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_PLAIN_SIZE, encryptChunkParts } from './chunks';
import { DIRECT_READ_MIN_CHUNKS, readBufferCounts, readPlaintext } from './content';
import type { FileKeys } from './keys';
import { localShards } from './open';
import { ReplicatedBlobStore } from './replicated';

const root = mkdtempSync(path.join(os.tmpdir(), 'axel-content-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const key = randomBytes(32);
const keys = { get: async () => key } as unknown as FileKeys;

/**
 * A file of `size` random bytes stored as the upload stores it: sealed chunks on 2 of 3 shards. With
 * `opaque` the shards do not say which file holds a blob (as a store elsewhere would not), so chunks
 * are read by the calling thread into shared buffers; otherwise a chunk worker reads each itself.
 */
const storedFile = async (name: string, size: number, opaque: boolean) => {
  const bad: { cid: string; shard: string; state: string }[] = [];
  const shards = localShards(path.join(root, `${name}-${opaque ? 'opaque' : 'files'}`), 3).map((s) =>
    opaque ? Object.assign(Object.create(s), { fileOf: undefined }) : s,
  );
  const store = new ReplicatedBlobStore(shards, 2, (info) => bad.push(info));
  const plain = randomBytes(size);
  const chunks = [];
  for (let index = 0, at = 0; at < size; index++, at += CHUNK_PLAIN_SIZE) {
    const end = Math.min(size, at + CHUNK_PLAIN_SIZE);
    const parts = encryptChunkParts(key, 'k1', index, plain.subarray(at, end), end === size);
    chunks.push({ cid: await store.put(parts), size: parts.reduce((n, p) => n + p.length, 0) });
  }
  return { store, plain, bad, manifest: { keyId: 'k1', chunkPlainSize: CHUNK_PLAIN_SIZE, chunks, size } };
};

const readAll = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(Buffer.from(p as Buffer));
  return Buffer.concat(parts);
};

describe.each([
  ['a chunk worker reading local replicas itself', false],
  ['chunks read into shared buffers by the calling thread', true],
])('reading a file back: %s', (_, opaque) => {
  it('gives the exact bytes of a file of many chunks, and of ranges across chunk edges, though read buffers are reused from chunk to chunk', async () => {
    const { store, plain, manifest } = await storedFile('many', 7 * CHUNK_PLAIN_SIZE + 4321, opaque);
    expect((await readAll(readPlaintext(store, keys, manifest))).equals(plain)).toBe(true);
    const start = CHUNK_PLAIN_SIZE - 10;
    const end = 5 * CHUNK_PLAIN_SIZE + 77;
    expect((await readAll(readPlaintext(store, keys, manifest, { start, end }))).equals(plain.subarray(start, end + 1))).toBe(true);
  });

  // a short file's chunks are read through the page cache, a long one's (the damaged chunk among them) directly
  const lengths = [2, DIRECT_READ_MIN_CHUNKS + 1];

  it.each(lengths)('a replica longer than its chunk (bytes appended) is refused as damaged and the other replica served (%i chunks)', async (chunks) => {
    const { store, plain, manifest, bad } = await storedFile(`longer${chunks}`, (chunks - 1) * CHUNK_PLAIN_SIZE + 100, opaque);
    const cid = manifest.chunks[0]!.cid;
    const [first] = store.placementOf(cid) as unknown as { dir: string }[];
    const file = path.join(first!.dir, cid.slice(-2), cid);
    await fs.appendFile(file, randomBytes(4096));
    expect((await readAll(readPlaintext(store, keys, manifest))).equals(plain)).toBe(true);
    expect(bad).toEqual([{ cid, shard: store.placementOf(cid)[0]!.name, state: 'damaged' }]);
  });

  it.each(lengths)('a replica cut short is refused as damaged, a missing one as missing, and the other served (%i chunks)', async (chunks) => {
    const { store, plain, manifest, bad } = await storedFile(`short${chunks}`, chunks * CHUNK_PLAIN_SIZE, opaque);
    const [c0, c1] = manifest.chunks.map((c) => c.cid);
    const [s0] = store.placementOf(c0!) as unknown as { dir: string; name: string }[];
    const [s1] = store.placementOf(c1!) as unknown as { dir: string; name: string }[];
    await fs.truncate(path.join(s0!.dir, c0!.slice(-2), c0!), 1000);
    await fs.rm(path.join(s1!.dir, c1!.slice(-2), c1!));
    expect((await readAll(readPlaintext(store, keys, manifest))).equals(plain)).toBe(true);
    // chunks are read ahead, so in either order
    expect(bad).toHaveLength(2);
    expect(bad).toEqual(
      expect.arrayContaining([
        { cid: c0, shard: s0!.name, state: 'damaged' },
        { cid: c1, shard: s1!.name, state: 'missing' },
      ]),
    );
  });

  it('chunks that fail authentication (swapped in the manifest) end the read with an error and none of their bytes is given', async () => {
    const { store, plain, manifest } = await storedFile('swapped', 4 * CHUNK_PLAIN_SIZE, opaque);
    const chunks = [...manifest.chunks];
    [chunks[2], chunks[3]] = [chunks[3]!, chunks[2]!];
    // decrypted into a buffer of its own, and over the sealed bytes in the shared read buffer (a consumer
    // that has written out every chunk it was given, as an HTTP reply reports)
    for (const options of [{}, { flushed: () => true }]) {
      const received: Buffer[] = [];
      const read = async () => {
        for await (const p of readPlaintext(store, keys, { ...manifest, chunks }, undefined, options)) received.push(Buffer.from(p as Buffer));
      };
      await expect(read()).rejects.toThrow(/authenticate/);
      // the first two chunks are intact and given; nothing of the swapped ones
      expect(Buffer.concat(received).equals(plain.subarray(0, 2 * CHUNK_PLAIN_SIZE))).toBe(true);
    }
    // under another key nothing at all is given
    const other = { get: async () => randomBytes(32) } as unknown as FileKeys;
    const none: Buffer[] = [];
    await expect(
      (async () => {
        for await (const p of readPlaintext(store, other, manifest)) none.push(p as Buffer);
      })(),
    ).rejects.toThrow(/authenticate/);
    expect(none).toHaveLength(0);
  });

  it('many reads at once each give their own exact bytes (the shared read buffers and worker threads are not mixed up)', async () => {
    const { store, plain, manifest } = await storedFile('concurrent', 5 * CHUNK_PLAIN_SIZE + 999, opaque);
    const ranges = Array.from({ length: 8 }, (_, i) => ({ start: i * 333_333, end: plain.length - 1 - i * 77_777 }));
    const got = await Promise.all(ranges.map((r) => readAll(readPlaintext(store, keys, manifest, r))));
    for (const [i, bytes] of got.entries()) expect(bytes.equals(plain.subarray(ranges[i]!.start, ranges[i]!.end + 1))).toBe(true);
  });

  it('piped to an HTTP reply that reports when it has written everything out, buffers are used again and every byte arrives exact, also for a slow reader', async () => {
    const { store, plain, manifest } = await storedFile('reply', 13 * CHUNK_PLAIN_SIZE + 12_345, opaque);
    const ranges = [undefined, { start: 777, end: 11 * CHUNK_PLAIN_SIZE + 5 }];
    const server = createServer((req, res) => {
      const range = ranges[Number(req.url!.slice(1))];
      readPlaintext(store, keys, manifest, range, { flushed: () => res.writableLength === 0 }).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      for (const [i, range] of ranges.entries()) {
        for (const slow of [false, true]) {
          const res = await fetch(`http://127.0.0.1:${port}/${i}`);
          const parts: Buffer[] = [];
          for await (const p of res.body as unknown as AsyncIterable<Uint8Array>) {
            parts.push(Buffer.from(p));
            if (slow) await new Promise((r) => setTimeout(r, 2));
          }
          const want = range ? plain.subarray(range.start, range.end + 1) : plain;
          expect(Buffer.concat(parts).equals(want)).toBe(true);
        }
      }
    } finally {
      server.close();
    }
  });

  it('downloads through HTTP replies that say how much they have not yet written out take their read buffers from one pool: after the first, a download makes almost none, and concurrent ones each get their exact bytes', async () => {
    const { store, plain, manifest } = await storedFile('pooled', 40 * CHUNK_PLAIN_SIZE + 4_321, opaque);
    const server = createServer((_req, res) => {
      readPlaintext(store, keys, manifest, undefined, { unsent: () => res.writableLength }).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const download = async (slow: boolean) => {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      const parts: Buffer[] = [];
      let n = 0;
      for await (const p of res.body as unknown as AsyncIterable<Uint8Array>) {
        parts.push(Buffer.from(p));
        if (slow && n++ % 8 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      return Buffer.concat(parts);
    };
    try {
      expect((await download(false)).equals(plain)).toBe(true);
      const before = readBufferCounts().made;
      for (let round = 0; round < 2; round++) expect((await download(round === 1)).equals(plain)).toBe(true);
      // 80 chunks read: a buffer per chunk would make 80; only those a reply still held at its end are new
      expect(readBufferCounts().made - before).toBeLessThan(16);
      const both = await Promise.all([download(false), download(true)]);
      for (const bytes of both) expect(bytes.equals(plain)).toBe(true);
      expect(readBufferCounts().pooled).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlobBytes, BlobStore } from './blobstore';
import { partsOf } from './blobstore';
import { cidOf } from './cid';
import { localShards } from './open';
import { ReplicatedBlobStore } from './replicated';

const root = mkdtempSync(path.join(os.tmpdir(), 'axel-replicated-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sealedChunk = (size = 1024 * 1024) => [randomBytes(12), randomBytes(size - 28), randomBytes(16)];

/** A shard kept in memory that copies what it is given only after `delayMs`, or refuses every put. */
const memoryShard = (name: string, behaviour: { delayMs?: number; refuse?: boolean }) => {
  const held = new Map<string, Buffer>();
  const shard: BlobStore = {
    name,
    async put(cid: string, bytes: BlobBytes) {
      if (behaviour.refuse) throw new Error(`${name} refuses`);
      await new Promise((r) => setTimeout(r, behaviour.delayMs ?? 0));
      held.set(cid, Buffer.concat(partsOf(bytes)));
    },
    get: async (cid) => held.get(cid) ?? null,
    has: async (cid) => held.has(cid),
    delete: async (cid) => void held.delete(cid),
    async *list() {
      yield* held.keys();
    },
    usage: async () => ({ chunks: held.size, bytes: 0, freeBytes: null }),
  };
  return { shard, held };
};

describe('storing chunks on their shards', () => {
  it('stores many chunks at once, each under the CID of its own bytes, on R shards, byte-exact', async () => {
    const shards = localShards(path.join(root, 'many'), 4);
    const store = new ReplicatedBlobStore(shards, 2);
    const chunks = Array.from({ length: 40 }, (_, i) => sealedChunk(i % 5 === 0 ? 8192 : 1024 * 1024));
    const cids = await Promise.all(chunks.map((parts) => store.put(parts)));
    for (const [i, parts] of chunks.entries()) {
      const whole = Buffer.concat(parts);
      expect(cids[i]).toBe(cidOf(whole));
      const placed = store.placementOf(cids[i]!);
      expect(placed).toHaveLength(2);
      for (const shard of placed) expect(Buffer.compare((await shard.get(cids[i]!))!, whole)).toBe(0);
    }
  });

  it('a shard refusing a chunk fails the put only once every other shard has its bytes, so the caller may reuse its buffers when the put settles', async () => {
    const refusing = memoryShard('refusing', { refuse: true });
    const slow = memoryShard('slow', { delayMs: 100 });
    const store = new ReplicatedBlobStore([refusing.shard, slow.shard], 2);
    const first = sealedChunk();
    const firstPut = store.put(first);
    await expect(firstPut).rejects.toThrow('refusing refuses');
    // the slow shard had the bytes when the put failed
    expect(Buffer.compare(slow.held.get(cidOf(first))!, Buffer.concat(first))).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from './blobstore';
import { cidOf } from './cid';
import type { LocalFolderBlobStore } from './local';
import { localShards } from './open';
import { ReplicatedBlobStore, type ShardFault } from './replicated';
import { scrub } from './scrub';

async function* manifests(...chunks: string[][]) {
  for (const c of chunks) yield { chunks: c.map((cid) => ({ cid })) };
}

describe('scrub', () => {
  it('checks each named chunk once, repairs, reports lost ones, and counts stored chunks nobody names without deleting them', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-scrub-'));
    const store = new ReplicatedBlobStore(localShards(dir, 4), 2);
    const [a, b, orphan, gone] = await Promise.all([0, 1, 2, 3].map(() => store.put(randomBytes(5000))));
    const firstOfB = store.placementOf(b!)[0] as unknown as { dir: string };
    await fs.rm(path.join(firstOfB.dir, b!.slice(-2), b!));
    await store.delete(gone!);

    const report = await scrub(store, manifests([a!, b!], [b!, gone!]));
    expect(report).toMatchObject({ checked: 3, repaired: 1, lost: 1, lostChunks: [gone], unreferenced: 1 });
    expect(await store.get(orphan!)).toBeInstanceOf(Buffer);
    expect((await scrub(store, manifests([a!, b!]))).repaired).toBe(0);
  });
});

/** Makes a shard's writes fail with `code` (EROFS, ENOENT) while `on`, as a read-only or failed disk does (tests run as root: permissions stop nothing). */
const failingWrites = (shard: BlobStore, code: string) => {
  const switchOn = { on: false };
  const put = shard.put.bind(shard);
  const del = shard.delete.bind(shard);
  const refuse = () => Object.assign(new Error(`${code}: operation refused, open '${shard.name}/xx/.tmp'`), { code });
  shard.put = async (cid, bytes) => {
    if (switchOn.on) throw refuse();
    return put(cid, bytes);
  };
  shard.delete = async (cid) => {
    if (switchOn.on) throw refuse();
    return del(cid);
  };
  return switchOn;
};

describe('scrub of a store whose shards fail', () => {
  it('a shard folder deleted mid-life: the shard says so, puts make it again, and one scrub re-creates every replica it held and marks it checked', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-scrub-lost-'));
    const shards = localShards(dir, 3);
    const store = new ReplicatedBlobStore(shards, 2);
    const cids = await Promise.all(Array.from({ length: 60 }, () => store.put(randomBytes(5000))));
    const lostShard = shards[2] as LocalFolderBlobStore;
    const held = cids.filter((cid) => store.placementOf(cid).includes(lostShard));
    expect(held.length).toBeGreaterThan(10);
    expect(await lostShard.check()).toBeNull();

    await fs.rm(lostShard.dir, { recursive: true, force: true });
    expect(await lostShard.check()).toBe('folder missing');
    // a put placed on it makes its folder again (its cached subfolders are gone too)
    const placedOnLost = (size: number) => {
      for (;;) {
        const bytes = randomBytes(size);
        if (store.placementOf(cidOf(bytes)).includes(lostShard)) return bytes;
      }
    };
    const fresh = await store.put(placedOnLost(7000));
    const afterPut = await store.put(placedOnLost(9000));
    expect(await lostShard.check()).toMatch(/made again/);
    for (const cid of [fresh, afterPut]) expect((await store.get(cid)).length).toBeGreaterThan(0);

    const report = await scrub(store, manifests([...cids, fresh, afterPut]));
    expect(report).toMatchObject({ lost: 0, failed: 0, shardFaults: [] });
    expect(report.repaired).toBe(held.length);
    for (const cid of held) expect(await lostShard.has(cid)).toBe(true);
    expect(await lostShard.check()).toBeNull();
    expect((await store.health()).map((h) => h.problem)).toEqual([null, null, null]);
  });

  it('a read-only shard: puts fall back to the next shard of the ranking and are read back; the scrub reports it, goes on, and moves replicas home once it takes writes again', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-scrub-erofs-'));
    const shards = localShards(dir, 4);
    const faults: ShardFault[] = [];
    const store = new ReplicatedBlobStore(shards, 2, undefined, (f) => faults.push(f));
    const readOnly = failingWrites(shards[1]!, 'EROFS');
    const before = await Promise.all(Array.from({ length: 20 }, () => store.put(randomBytes(5000))));
    readOnly.on = true;
    const blobs = Array.from({ length: 40 }, () => randomBytes(6000));
    const cids = await Promise.all(blobs.map((b) => store.put(b)));
    const fellBack = cids.filter((cid) => store.placementOf(cid).includes(shards[1]!));
    expect(fellBack.length).toBeGreaterThan(5);
    expect(faults.length).toBe(fellBack.length);
    expect(faults[0]).toEqual({ shard: shards[1]!.name, operation: 'put', reason: 'EROFS' });
    for (const [i, cid] of cids.entries()) {
      expect(Buffer.compare(await store.get(cid), blobs[i]!)).toBe(0);
      // R replicas, on the next shards of the ranking where the placed one refused
      const holding = await Promise.all(shards.map((s) => s.has(cid)));
      expect(holding.filter(Boolean).length).toBe(2);
    }
    // every replica the read-only shard held is damaged meanwhile: the scrub cannot put them back there
    const onIt = before.filter((cid) => store.placementOf(cid).includes(shards[1]!));
    for (const cid of onIt) await fs.writeFile(path.join((shards[1] as LocalFolderBlobStore).dir, cid.slice(-2), cid), 'bad');

    const report = await scrub(store, manifests([...before, ...cids]));
    expect(report.shardFaults).toEqual([{ shard: shards[1]!.name, operation: 'repair', reason: 'EROFS' }]);
    expect(report).toMatchObject({ lost: 0, failed: 0 });
    for (const cid of onIt) expect((await Promise.all(shards.map((s) => s.get(cid)))).filter((b) => b && cidOf(b) === cid).length).toBe(2);

    readOnly.on = false;
    const healed = await scrub(store, manifests([...before, ...cids]));
    expect(healed).toMatchObject({ lost: 0, failed: 0, shardFaults: [] });
    for (const cid of [...fellBack, ...onIt]) expect(cidOf((await shards[1]!.get(cid))!)).toBe(cid);
  });
});

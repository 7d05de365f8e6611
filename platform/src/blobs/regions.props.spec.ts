import { isStorageRegion, STORAGE_REGIONS, type StorageRegion } from '@axel/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partsOf, type BlobBytes, type BlobStore } from './blobstore';
import { cidOf as cidOfBytes } from './cid';
import { parseRegionShards, RegionalBlobStore } from './regions';
import { ReplicatedBlobStore } from './replicated';

/** A shard in memory that records every write it takes, and can be made to refuse writes or lose blobs. */
class RecordingShard implements BlobStore {
  readonly blobs = new Map<string, Buffer>();
  refuses = false;
  constructor(
    readonly name: string,
    private readonly writes: { shard: string; cid: string }[],
  ) {}
  async put(cid: string, bytes: BlobBytes) {
    if (this.refuses) throw Object.assign(new Error('read-only'), { code: 'EROFS' });
    this.writes.push({ shard: this.name, cid });
    this.blobs.set(cid, Buffer.concat(partsOf(bytes)));
  }
  async get(cid: string) {
    return this.blobs.get(cid) ?? null;
  }
  async has(cid: string) {
    return this.blobs.has(cid);
  }
  async delete(cid: string) {
    this.blobs.delete(cid);
  }
  async *list() {
    yield* this.blobs.keys();
  }
  async usage() {
    return { chunks: this.blobs.size, bytes: 0, freeBytes: null };
  }
}

const SHARDS = parseRegionShards('us=us-1,us-2,us-3;eu=eu-1,eu-2,eu-3,eu-4;asia=asia-1,asia-2;africa=af-1,af-2,af-3', isStorageRegion);

const build = () => {
  const writes: { shard: string; cid: string }[] = [];
  const shards = new Map<string, RecordingShard>();
  const regions = new Map<StorageRegion, ReplicatedBlobStore>();
  for (const [region, names] of SHARDS) {
    const own = names.map((n) => new RecordingShard(n, writes));
    for (const s of own) shards.set(s.name, s);
    regions.set(region, new ReplicatedBlobStore(own, 2));
  }
  return { store: new RegionalBlobStore(regions), writes, shards };
};

type Step =
  | { kind: 'put'; region: StorageRegion; chunk: number }
  | { kind: 'lose'; shard: string; chunk: number }
  | { kind: 'damage'; shard: string; chunk: number }
  | { kind: 'refuse'; shard: string; refuses: boolean }
  | { kind: 'repair'; region: StorageRegion; chunk: number };

const allShards = [...SHARDS.values()].flat();
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), region: fc.constantFrom(...STORAGE_REGIONS), chunk: fc.nat(7) }),
  fc.record({ kind: fc.constant('lose' as const), shard: fc.constantFrom(...allShards), chunk: fc.nat(7) }),
  fc.record({ kind: fc.constant('damage' as const), shard: fc.constantFrom(...allShards), chunk: fc.nat(7) }),
  fc.record({ kind: fc.constant('refuse' as const), shard: fc.constantFrom(...allShards), refuses: fc.boolean() }),
  fc.record({ kind: fc.constant('repair' as const), region: fc.constantFrom(...STORAGE_REGIONS), chunk: fc.nat(7) }),
);

/*
 * Whatever happens to the shards (writes refused, replicas lost or damaged) and whatever the puts
 * and scrub repairs do about it, a chunk put for a region is written only to that region's shards:
 * its placement, its fallbacks when a placed shard refuses, and its repairs included.
 */
describe('data residency of chunks', () => {
  it('no chunk of a region is ever written outside that region’s shards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const { store, writes, shards } = build();
        // chunk n of region r: bytes unique to both, so a CID says which region it was put for
        const bytesOf = (region: StorageRegion, chunk: number) => Buffer.from(`${region}:${chunk}:${'x'.repeat(chunk * 13)}`);
        const regionOfCid = new Map<string, StorageRegion>();
        const cidOf = new Map<string, string>();
        for (const s of steps) {
          if (s.kind === 'put') {
            // known before the put: a put that fails (too few shards take it) may still have written some replicas
            const cid = cidOfBytes(bytesOf(s.region, s.chunk));
            regionOfCid.set(cid, s.region);
            cidOf.set(`${s.region}:${s.chunk}`, cid);
            await store.put(s.region, bytesOf(s.region, s.chunk)).catch(() => null);
          } else if (s.kind === 'lose' || s.kind === 'damage') {
            const shard = shards.get(s.shard)!;
            const cid = [...shard.blobs.keys()][s.chunk % Math.max(1, shard.blobs.size)];
            if (cid && s.kind === 'lose') shard.blobs.delete(cid);
            if (cid && s.kind === 'damage') shard.blobs.set(cid, Buffer.from('rot'));
          } else if (s.kind === 'refuse') {
            shards.get(s.shard)!.refuses = s.refuses;
          } else {
            const cid = cidOf.get(`${s.region}:${s.chunk}`);
            if (cid) await store.repair(s.region, cid);
          }
        }
        for (const w of writes) {
          const region = regionOfCid.get(w.cid);
          expect(region, `a write of an unknown chunk to ${w.shard}`).toBeDefined();
          expect(SHARDS.get(region!), `${w.cid} of ${region} written to ${w.shard}`).toContain(w.shard);
        }
        // and where the residency report finds each chunk is inside its region
        for (const [cid, region] of regionOfCid) for (const place of await store.locate(cid)) expect(place.region).toBe(region);
      }),
      { numRuns: 300 },
    );
  });

  it('moves a chunk to another region without re-encrypting: copied, verified, then deleted', async () => {
    const { store } = build();
    const cid = await store.put('eu', Buffer.from('sealed chunk'));
    expect(await store.move(cid, 'eu', 'us')).toBe(true);
    expect((await store.locate(cid)).map((p) => p.region)).toEqual(['us', 'us']);
    expect((await store.get('us', cid)).toString()).toBe('sealed chunk');
  });

  it('refuses a region list naming an unknown region or a shard in two regions', () => {
    expect(() => parseRegionShards('mars=m-1', isStorageRegion)).toThrow(/unknown region/);
    expect(() => parseRegionShards('eu=', isStorageRegion)).toThrow(/no shard/);
    const w: { shard: string; cid: string }[] = [];
    const shared = new RecordingShard('x', w);
    expect(
      () =>
        new RegionalBlobStore(
          new Map([
            ['eu', new ReplicatedBlobStore([shared], 1)],
            ['us', new ReplicatedBlobStore([shared], 1)],
          ]),
        ),
    ).toThrow(/one region/);
  });
});

import { isStorageRegion, STORAGE_REGIONS, type StorageRegion } from '@axel/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partsOf, type BlobBytes, type BlobStore } from './blobstore';
import { cidOf as cidOfBytes } from './cid';
import { parseRegionShards, RegionalBlobStore, RegionRoutedBlobStore } from './regions';
import { scrub } from './scrub';
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

  it('the deployment’s store keeps every chunk in its set through scrubs that do not name a region', async () => {
    // home shards (automatic, regions without shards of their own, files from before regions) and the regional sets
    const HOME = ['home-1', 'home-2', 'home-3'];
    type Set = StorageRegion | 'home';
    const setStep = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), set: fc.constantFrom<Set>('home', ...STORAGE_REGIONS), chunk: fc.nat(5) }),
      fc.record({ kind: fc.constant('lose' as const), shard: fc.constantFrom(...HOME, ...allShards), chunk: fc.nat(5) }),
      fc.record({ kind: fc.constant('damage' as const), shard: fc.constantFrom(...HOME, ...allShards), chunk: fc.nat(5) }),
      fc.record({ kind: fc.constant('refuse' as const), shard: fc.constantFrom(...HOME, ...allShards), refuses: fc.boolean() }),
      fc.record({ kind: fc.constant('scrub' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(setStep, { maxLength: 40 }), async (steps) => {
        const { store: regional, writes, shards } = build();
        const home = HOME.map((n) => new RecordingShard(n, writes));
        for (const s of home) shards.set(s.name, s);
        const routed = new RegionRoutedBlobStore(new ReplicatedBlobStore(home, 2), regional);
        const shardsOf = (set: Set) => (set === 'home' ? HOME : SHARDS.get(set)!);
        const setOfCid = new Map<string, Set>();
        for (const s of steps) {
          if (s.kind === 'put') {
            const bytes = Buffer.from(`${s.set}:${s.chunk}:${'y'.repeat(s.chunk * 7)}`);
            setOfCid.set(cidOfBytes(bytes), s.set);
            await routed
              .forRegion(s.set === 'home' ? null : s.set)
              .put(bytes)
              .catch(() => null);
          } else if (s.kind === 'lose' || s.kind === 'damage') {
            const shard = shards.get(s.shard)!;
            const cid = [...shard.blobs.keys()][s.chunk % Math.max(1, shard.blobs.size)];
            if (cid && s.kind === 'lose') shard.blobs.delete(cid);
            if (cid && s.kind === 'damage') shard.blobs.set(cid, Buffer.from('rot'));
          } else if (s.kind === 'refuse') {
            shards.get(s.shard)!.refuses = s.refuses;
          } else {
            // the scrub walks the manifests' chunks, repairing each through the deployment's store
            await scrub(
              routed,
              (async function* () {
                yield { chunks: [...setOfCid.keys()].map((cid) => ({ cid })) };
              })(),
            );
          }
        }
        for (const w of writes) expect(shardsOf(setOfCid.get(w.cid)!), `${w.cid} of ${setOfCid.get(w.cid)} written to ${w.shard}`).toContain(w.shard);
        for (const [cid, set] of setOfCid) {
          for (const place of await routed.locate(cid)) expect(place.region ?? 'home').toBe(set);
          // what a read answers is the chunk itself whenever an intact replica is left in its set
          const intact = shardsOf(set).some((n) => shards.get(n)!.blobs.get(cid) && cidOfBytes(shards.get(n)!.blobs.get(cid)!) === cid);
          if (intact) expect(cidOfBytes(await routed.get(cid))).toBe(cid);
        }
      }),
      { numRuns: 200 },
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

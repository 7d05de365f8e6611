import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localShards } from './open';
import { ReplicatedBlobStore } from './replicated';
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

import { createHash, randomBytes } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMultiHashState, encodeMultiHashState, MultiHash } from './multi-hash';
import { SHA3_BATCH, SHA3_IN_FLIGHT, Sha3Pool } from './sha3-pool';

const pool = new Sha3Pool(2);
afterAll(() => pool.close());

const reference = (data: Uint8Array) => ({
  md5: createHash('md5').update(data).digest('hex'),
  sha1: createHash('sha1').update(data).digest('hex'),
  sha3_512: createHash('sha3-512').update(data).digest('hex'),
});

/** Cuts `data` at the given points (sorted, deduplicated, within bounds). */
const pieces = (data: Uint8Array, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, data.length]) {
    out.push(data.subarray(from, c));
    from = c;
  }
  return out;
};

describe('MultiHash', () => {
  // invariant: however the bytes are split into updates, and whenever the hash is saved, encoded,
  // decoded and reopened (a new request, a restart) between pieces, the digests are those of one pass
  test.prop([fc.uint8Array({ minLength: 0, maxLength: 3 * 1024 }), fc.array(fc.nat(), { maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 13 })], {
    numRuns: 60,
  })('random split points and resumptions give the one-pass digests of node:crypto', async (data, cuts, reopenAt) => {
    let hash = await MultiHash.open(undefined, pool);
    const parts = pieces(data, cuts);
    for (const [i, part] of parts.entries()) {
      await hash.update(part);
      if (reopenAt[i]) {
        const saved = decodeMultiHashState(encodeMultiHashState(await hash.save()));
        hash.close();
        expect(saved.bytes).toBe(parts.slice(0, i + 1).reduce((n, p) => n + p.length, 0));
        hash = await MultiHash.open(saved, pool);
      }
    }
    expect(hash.bytes).toBe(data.length);
    expect(await hash.digest()).toEqual(reference(data));
  });

  it('large updates across batch buffers, a state saved while later bytes are already queued is the state at that point', async () => {
    const data = randomBytes(SHA3_BATCH * (SHA3_IN_FLIGHT + 3) + 12_345);
    const at = SHA3_BATCH * 2 + 777;
    const hash = await MultiHash.open(undefined, pool);
    await hash.update(data.subarray(0, at));
    const pending = hash.save();
    // the rest goes in before the worker has answered the save
    await hash.update(data.subarray(at));
    const whole = await hash.digest();
    expect(whole).toEqual(reference(data));

    const resumed = await MultiHash.open(await pending, pool);
    await resumed.update(data.subarray(at, at + 1000));
    await resumed.update(data.subarray(at + 1000));
    expect(await resumed.digest()).toEqual(reference(data));
  });

  it('a state cut short or of another version is refused', async () => {
    const hash = await MultiHash.open(undefined, pool);
    await hash.update(Buffer.from('abc'));
    const encoded = encodeMultiHashState(await hash.save());
    hash.close();
    expect(() => decodeMultiHashState(encoded.subarray(0, encoded.length - 1))).toThrow();
    expect(() => decodeMultiHashState(Buffer.concat([Buffer.from([2]), encoded.subarray(1)]))).toThrow();
  });

  it('a worker that dies fails its sessions (never a wrong digest) and the pool starts another for the next upload', async () => {
    const own = new Sha3Pool(1);
    const hash = await MultiHash.open(undefined, own);
    const start = randomBytes(1000);
    await hash.update(start);
    const saved = await hash.save();
    await own.close();
    await expect(hash.save()).rejects.toThrow();
    await expect(hash.digest()).rejects.toThrow();
    // the saved state goes on in a new worker
    const data = randomBytes(5000);
    const resumed = await MultiHash.open(saved, own);
    await resumed.update(data);
    expect(await resumed.digest()).toEqual(reference(Buffer.concat([start, data])));
    await own.close();
  });
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_PLAIN_SIZE, CHUNK_SIZE, decryptChunk, encryptChunk, encryptChunkParts, paddedChunkSize, plainLengthOf, PAD_TO } from './chunks';
import { base32, cidOf, cidOfDigest, digestOfCid } from './cid';
import { placement } from './replicated';

describe('chunk ids', () => {
  it('are the CIDv1 IPFS gives the same block (raw codec, sha2-256, base32)', () => {
    expect(cidOf(new Uint8Array())).toBe('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku');
    expect(cidOf(Buffer.from('hello world'))).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e');
  });

  it('base32 follows RFC 4648 (lower case, no padding)', () => {
    expect(base32(Buffer.from('foobar'))).toBe('mzxw6ytboi');
    expect(base32(Buffer.from('f'))).toBe('my');
  });

  it("a CID gives back the SHA-256 it names, and a string that is not one of this store's CIDs is refused", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        expect(digestOfCid(cidOfDigest(digest)).equals(Buffer.from(digest))).toBe(true);
      }),
    );
    expect(() => digestOfCid('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyk')).toThrow(/not a chunk CID/);
    expect(() => digestOfCid('../../etc/passwd')).toThrow(/not a chunk CID/);
  });
});

describe('chunk encryption', () => {
  const key = randomBytes(32);

  it('a full chunk is exactly 1 MiB stored', () => {
    const plain = randomBytes(CHUNK_PLAIN_SIZE);
    const sealed = encryptChunk(key, 'k1', 0, plain, false);
    expect(sealed.length).toBe(CHUNK_SIZE);
    expect(decryptChunk(key, 'k1', 0, sealed, plain.length).equals(plain)).toBe(true);
  });

  it('a chunk sealed in parts (nonce, body, tag) is, joined, a chunk that reads back; its nonce is fresh each time', () => {
    const plain = randomBytes(CHUNK_PLAIN_SIZE);
    const parts = encryptChunkParts(key, 'k1', 5, plain, false);
    expect(parts.map((p) => p.length)).toEqual([12, CHUNK_PLAIN_SIZE, 16]);
    const joined = Buffer.concat(parts);
    expect(joined.length).toBe(CHUNK_SIZE);
    expect(decryptChunk(key, 'k1', 5, joined, plain.length).equals(plain)).toBe(true);
    expect(() => decryptChunk(key, 'k1', 6, joined, plain.length)).toThrow();
    expect(encryptChunkParts(key, 'k1', 5, plain, false)[0].equals(parts[0])).toBe(false);
    const last = Buffer.concat(encryptChunkParts(key, 'k1', 7, plain.subarray(0, 10), true));
    expect(last.length).toBe(PAD_TO);
    expect(decryptChunk(key, 'k1', 7, last, 10).equals(plain.subarray(0, 10))).toBe(true);
  });

  it('the last chunk is padded to a multiple of 4 KiB and reads back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: CHUNK_PLAIN_SIZE }), (length) => {
        const plain = randomBytes(length);
        const sealed = encryptChunk(key, 'k1', 3, plain, true);
        expect(sealed.length % PAD_TO).toBe(0);
        expect(sealed.length).toBe(paddedChunkSize(length));
        expect(decryptChunk(key, 'k1', 3, sealed, length).equals(plain)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('a chunk moved to another index, another file key id or another key does not decrypt', () => {
    const sealed = encryptChunk(key, 'k1', 1, randomBytes(100), true);
    expect(() => decryptChunk(key, 'k1', 2, sealed, 100)).toThrow();
    expect(() => decryptChunk(key, 'k2', 1, sealed, 100)).toThrow();
    expect(() => decryptChunk(randomBytes(32), 'k1', 1, sealed, 100)).toThrow();
    const flipped = Buffer.from(sealed);
    flipped[40]! ^= 1;
    expect(() => decryptChunk(key, 'k1', 1, flipped, 100)).toThrow();
  });

  it('the same plaintext encrypts to different chunks (random nonces): nothing is shared across uploads', () => {
    const plain = randomBytes(1000);
    expect(cidOf(encryptChunk(key, 'k1', 0, plain, true))).not.toBe(cidOf(encryptChunk(key, 'k1', 0, plain, true)));
  });

  it('plain lengths of the chunks add up to the file size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * CHUNK_PLAIN_SIZE }), (size) => {
        const count = Math.ceil(size / CHUNK_PLAIN_SIZE);
        let total = 0;
        for (let i = 0; i < count; i++) total += plainLengthOf(size, i);
        expect(total).toBe(size);
      }),
    );
  });
});

describe('rendezvous placement', () => {
  const shards = ['shard-0', 'shard-1', 'shard-2', 'shard-3'];

  it('places each chunk on R distinct shards, the same ones every time', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 4 }), (cid, r) => {
        const p = placement(cid, shards, r);
        expect(new Set(p).size).toBe(r);
        expect(placement(cid, shards, r)).toEqual(p);
      }),
    );
  });

  it('adding a shard moves a chunk only onto the new shard', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (cid) => {
        const before = placement(cid, shards, 2).map((i) => shards[i]);
        const grown = [...shards, 'shard-4'];
        const after = placement(cid, grown, 2).map((i) => grown[i]);
        for (const s of after) expect(before.includes(s) || s === 'shard-4').toBe(true);
      }),
    );
  });

  it('spreads chunks evenly across shards', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) for (const s of placement(cidOf(Buffer.from(String(i))), shards, 2)) counts[s]!++;
    for (const c of counts) expect(c).toBeGreaterThan(1700);
  });
});

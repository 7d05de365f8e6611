import { createHash, randomBytes } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CHUNK_PLAIN_SIZE, CHUNK_SIZE, cidOf, decryptChunk, encryptChunk, plainLengthOf } from '@axel/platform/blobs/index';
import { importByteStream } from 'ipfs-unixfs-importer';
import { describe, expect, it } from 'vitest';
import { blockMatches, buildFileDag, canonicalCid, dagBlocks, importerOptions } from './ipfs.dag';

/** A file cut and sealed as the blob store stores it: its chunks' bytes and CIDs. */
const stored = (plain: Buffer) => {
  const key = randomBytes(32);
  const keyId = 'key-1';
  const count = Math.max(1, Math.ceil(plain.length / CHUNK_PLAIN_SIZE));
  const chunks = Array.from({ length: count }, (_, i) =>
    encryptChunk(key, keyId, i, plain.subarray(i * CHUNK_PLAIN_SIZE, i * CHUNK_PLAIN_SIZE + plainLengthOf(plain.length, i)), i === count - 1),
  );
  return { key, keyId, chunks, cids: chunks.map((c) => cidOf(c)) };
};

const pieces = async function* (bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
};

const leavesOf = async (bytes: Buffer, chunkSize: number) => {
  const leaves: string[] = [];
  const store = {
    put: async (cid: { code: number; toString(): string }, _bytes: Uint8Array) => {
      if (cid.code === 0x55) leaves.push(cid.toString());
      return cid as never;
    },
  };
  const root = await importByteStream(pieces(bytes, 65_536), store, importerOptions(chunkSize));
  return { root: root.cid.toString(), leaves };
};

describe('UnixFS DAGs over the stored chunks', () => {
  it('ipfs-unixfs-importer 17 (CIDv1, raw leaves, fixed 1 MiB chunks) reproduces the chunk CIDs of the blob store from the stored bytes', async () => {
    const file = stored(randomBytes(3 * CHUNK_PLAIN_SIZE + 12_345));
    const { leaves } = await leavesOf(Buffer.concat(file.chunks), CHUNK_SIZE);
    expect(new Set(leaves)).toEqual(new Set(file.cids));
    expect(file.chunks.slice(0, -1).every((c) => c.length === CHUNK_SIZE)).toBe(true);
  });

  it('a file of one chunk is that chunk: its root is the chunk CID', async () => {
    const file = stored(randomBytes(1000));
    expect((await leavesOf(file.chunks[0]!, CHUNK_SIZE)).root).toBe(file.cids[0]);
  });

  it('the stored chunks are ciphertext: the plaintext DAG has one leaf per stored chunk, each the decrypted chunk, under other CIDs', async () => {
    const plain = randomBytes(2 * CHUNK_PLAIN_SIZE + 777);
    const file = stored(plain);
    const dag = await buildFileDag(pieces(plain, 100_000), CHUNK_PLAIN_SIZE);
    expect(dag.size).toBe(plain.length);
    expect(dag.leaves).toHaveLength(file.chunks.length);
    dag.leaves.forEach((leaf, i) => {
      const decrypted = decryptChunk(file.key, file.keyId, i, file.chunks[i]!, plainLengthOf(plain.length, i));
      expect(leaf).toBe(cidOf(decrypted));
      expect(leaf).not.toBe(file.cids[i]);
    });
    // the importer's own leaves and root agree
    const reference = await leavesOf(plain, CHUNK_PLAIN_SIZE);
    expect(dag.root).toBe(reference.root);
    expect(new Set(reference.leaves)).toEqual(new Set(dag.leaves));
    expect(dag.nodes[0]!.cid).toBe(dag.root);
    expect(dagPb.decode(dag.nodes[0]!.bytes).Links.map((l) => l.Hash.toString())).toEqual(dag.leaves);
  });

  it('the blocks of a DAG come root first, leaves in file order, each matching its CID; reassembled they are the file', async () => {
    const plain = randomBytes(3 * CHUNK_PLAIN_SIZE + 5);
    const built = await buildFileDag(pieces(plain, CHUNK_PLAIN_SIZE), CHUNK_PLAIN_SIZE);
    const leaf = async (i: number) => plain.subarray(i * CHUNK_PLAIN_SIZE, (i + 1) * CHUNK_PLAIN_SIZE);
    const blocks = [];
    for await (const block of dagBlocks({ ...built, leaf })) blocks.push(block);
    expect(blocks.map((b) => b.cid)).toEqual([built.root, ...built.leaves]);
    for (const b of blocks) expect(await blockMatches(b.cid, b.bytes)).toBe(true);
    expect(Buffer.concat(blocks.slice(1).map((b) => b.bytes)).equals(plain)).toBe(true);
    expect(await blockMatches(built.root, Buffer.from('not it'))).toBe(false);
  });

  it('an empty file and a one-leaf file are a single raw leaf', async () => {
    const empty = await buildFileDag(pieces(Buffer.alloc(0), 1), CHUNK_PLAIN_SIZE);
    expect(empty.nodes).toEqual([]);
    expect(empty.leaves).toEqual([empty.root]);
    expect(empty.root).toBe(cidOf(Buffer.alloc(0)));
    const small = Buffer.from('hello\n');
    const one = await buildFileDag(pieces(small, 2), CHUNK_PLAIN_SIZE);
    expect([one.root, one.nodes.length]).toEqual([`${cidOf(small)}`, 0]);
    expect(createHash('sha256').update(small).digest('hex')).toHaveLength(64);
  });

  it('names CIDs canonically and refuses what is not one', () => {
    const v1 = cidOf(Buffer.from('x'));
    expect(canonicalCid(v1)).toBe(v1);
    expect(canonicalCid('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')).toMatch(/^bafybei/);
    for (const bad of ['', 'hello', '../etc/passwd', 'b'.repeat(300)]) expect(canonicalCid(bad)).toBeNull();
  });
});

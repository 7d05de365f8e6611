import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { cidOfDigest } from '@axel/platform/blobs/index';
import type { DagBlock, PinnableDag } from '@axel/platform/ipfs/pinning';
import { importByteStream } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';

/**
 * The importer settings of the product's DAGs: CIDv1, raw leaves, a fixed chunker, a file of one
 * leaf being that leaf. With `chunkSize` the blob store's 1 MiB these reproduce its chunk CIDs from
 * the stored bytes; with a file's plaintext bytes per chunk, one leaf per stored chunk.
 */
export const importerOptions = (chunkSize: number) =>
  ({ cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize }), reduceSingleLeafToSelf: true }) as const;

/** A UnixFS file's DAG as built: its root, its inner nodes (dag-pb, small) and its leaves in file order. */
export interface FileDag {
  readonly root: string;
  readonly nodes: readonly DagBlock[];
  /** Leaf CIDs in file order (leaf `i` holds bytes [i * chunkSize, (i + 1) * chunkSize)). */
  readonly leaves: readonly string[];
  /** Bytes of the file. */
  readonly size: number;
}

/**
 * Builds the UnixFS DAG of a byte stream cut into `chunkSize` leaves: the inner nodes are kept, the
 * leaves only named (their bytes stay where they are). The stream's pieces are re-cut by the
 * importer, so any piece sizes give the same DAG.
 */
export const buildFileDag = async (content: AsyncIterable<Uint8Array>, chunkSize: number): Promise<FileDag> => {
  const nodes = new Map<string, Uint8Array>();
  const leafCids = new Set<string>();
  const leaves: string[] = [];
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const hashLeaf = (bytes: Buffer) => leaves.push(cidOfDigest(createHash('sha256').update(bytes).digest()));
  // the leaves are hashed here in file order too (the importer writes them as its workers finish)
  async function* counted() {
    for await (const piece of content) {
      size += piece.byteLength;
      pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
      pendingBytes += piece.byteLength;
      while (pendingBytes >= chunkSize) {
        const joined = Buffer.concat(pending);
        hashLeaf(joined.subarray(0, chunkSize));
        pending = [joined.subarray(chunkSize)];
        pendingBytes -= chunkSize;
      }
      yield piece;
    }
    if (pendingBytes > 0 || leaves.length === 0) hashLeaf(Buffer.concat(pending));
  }
  const store = {
    put: async (cid: CID, bytes: Uint8Array) => {
      if (cid.code === raw.code) leafCids.add(cid.toString());
      else nodes.set(cid.toString(), bytes);
      return cid;
    },
  };
  const result = await importByteStream(counted(), store, importerOptions(chunkSize));
  for (const leaf of leaves) if (!leafCids.has(leaf)) throw new Error(`the importer made no leaf ${leaf}`);
  const root = result.cid.toString();
  // inner nodes in depth-first order from the root: the order of a CAR a client walks
  const ordered: DagBlock[] = [];
  const walk = (cid: string) => {
    const bytes = nodes.get(cid);
    if (!bytes) return;
    ordered.push({ cid, bytes });
    for (const link of dagPb.decode(bytes).Links) walk(link.Hash.toString());
  };
  walk(root);
  return { root, nodes: ordered, leaves, size };
};

/** The blocks of a pinnable DAG in depth-first order (a CAR's order): inner nodes and leaves read where they are. */
export async function* dagBlocks(dag: PinnableDag): AsyncGenerator<DagBlock> {
  const nodes = new Map(dag.nodes.map((n) => [n.cid, n.bytes]));
  const leafIndex = new Map<string, number>();
  dag.leaves.forEach((cid, index) => {
    if (!leafIndex.has(cid)) leafIndex.set(cid, index);
  });
  async function* walk(cid: string): AsyncGenerator<DagBlock> {
    const node = nodes.get(cid);
    if (node) {
      yield { cid, bytes: node };
      for (const link of dagPb.decode(node).Links) yield* walk(link.Hash.toString());
      return;
    }
    const index = leafIndex.get(cid);
    if (index === undefined) throw new Error(`block ${cid} is not in the DAG of ${dag.root}`);
    yield { cid, bytes: await dag.leaf(index) };
  }
  yield* walk(dag.root);
}

/** Whether `bytes` are the block `cid` names (sha2-256 over raw or dag-pb, CIDv1 or v0). */
export const blockMatches = async (cid: string, bytes: Uint8Array): Promise<boolean> => {
  const parsed = CID.parse(cid);
  if (parsed.multihash.code !== sha256.code) return false;
  const digest = await sha256.digest(bytes);
  return Buffer.from(digest.digest).equals(Buffer.from(parsed.multihash.digest));
};

/** A CID string in canonical form (CIDv1 base32), or null for anything that is not a CID. */
export const canonicalCid = (text: string): string | null => {
  if (text.length > 200) return null;
  try {
    const cid = CID.parse(text);
    return (cid.version === 0 ? cid.toV1() : cid).toString();
  } catch {
    return null;
  }
};

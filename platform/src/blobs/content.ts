import { Readable } from 'node:stream';
import { cidOfShared, openShared, sharedReadBuffer } from './chunk-pool';
import { chunkAad, decryptChunk, plainLengthOf } from './chunks';
import type { FileKeys } from './keys';
import type { ReplicatedBlobStore } from './replicated';

export interface ManifestLike {
  readonly keyId: string;
  readonly chunkPlainSize: number;
  readonly chunks: readonly { readonly cid: string; readonly size: number }[];
  readonly size: number;
}

const READ_AHEAD = 4;

export class ByteRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ByteRangeError';
  }
}

/**
 * Verified plaintext of bytes [start, end] (inclusive): only the chunks the range touches are read,
 * each checked against its CID (by the store) and authenticated by AES-GCM, a few chunks ahead.
 */
export const readPlaintext = (
  store: ReplicatedBlobStore,
  keys: FileKeys,
  manifest: ManifestLike,
  range?: { start: number; end: number },
): Readable => {
  const { size, chunkPlainSize } = manifest;
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range && (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size)) {
    throw new ByteRangeError(`range ${start}-${end} is outside 0-${size - 1}`);
  }
  if (size === 0 || end < start) return Readable.from([], { objectMode: false });
  const first = Math.floor(start / chunkPlainSize);
  const last = Math.floor(end / chunkPlainSize);
  if (last >= manifest.chunks.length) throw new ByteRangeError('manifest has fewer chunks than its size needs');

  // read buffers, one per chunk in flight, reused from chunk to chunk: a chunk is decrypted (into a
  // buffer of its own) as soon as it is read, so its read buffer is free again at once
  const free: Buffer[] = [];
  let readSize = 0;
  for (let i = first; i <= last; i++) readSize = Math.max(readSize, manifest.chunks[i]!.size);
  const load = async (index: number) => {
    const key = await keys.get(manifest.keyId);
    // one byte more than the largest stored chunk: a replica longer than its manifest says shows
    const target = free.pop() ?? sharedReadBuffer(readSize + 1);
    try {
      // bytes read into the shared buffer are verified and decrypted on a worker thread; a replica read
      // whole by the fallback path (a new buffer) is handled here
      const stored = await store.getInto(manifest.chunks[index]!.cid, target, cidOfShared);
      const plainLength = plainLengthOf(size, index, chunkPlainSize);
      if (stored.buffer !== target.buffer) return decryptChunk(key, manifest.keyId, index, stored, plainLength);
      return await openShared(key, chunkAad(manifest.keyId, index), stored, plainLength);
    } finally {
      free.push(target);
    }
  };

  async function* chunks() {
    // a few chunks in flight ahead of the consumer: disk, hashing and decryption overlap, memory stays bounded
    const ahead: Promise<Buffer>[] = [];
    let queued = first;
    const fill = () => {
      while (queued <= last && ahead.length < READ_AHEAD) {
        const p = load(queued++);
        p.catch(() => undefined);
        ahead.push(p);
      }
    };
    for (let index = first; index <= last; index++) {
      fill();
      const plain = await ahead.shift()!;
      const from = index === first ? start - index * chunkPlainSize : 0;
      const to = index === last ? end - index * chunkPlainSize + 1 : plain.length;
      yield plain.subarray(from, to);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
};

import { Readable } from 'node:stream';
import { cidOfShared, fetchShared, openShared, sharedReadBuffer } from './chunk-pool';
import { CHUNK_SIZE, chunkAad, decryptChunk, plainLengthOf } from './chunks';
import type { FileKeys } from './keys';
import type { ReplicatedBlobStore } from './replicated';

export interface ManifestLike {
  readonly keyId: string;
  readonly chunkPlainSize: number;
  readonly chunks: readonly { readonly cid: string; readonly size: number }[];
  readonly size: number;
}

/**
 * Chunks in flight ahead of the consumer. Direct reads get no read-ahead from the kernel, so a long
 * read keeps this many on their way (measured on a 1 GiB download: with 8 the machine sat a third
 * idle, 914-944 MiB/s; with 16, 1,076-1,098; with 24, 1,110-1,137, not worth its memory).
 */
const READ_AHEAD = 16;
/**
 * A read of at least this many chunks (a long download) reads local replicas with O_DIRECT: it streams
 * ciphertext that is decrypted once and sent, so it goes from the disk into the worker's memory without
 * the kernel copying it through its page cache, and does not push out of the cache what shorter,
 * repeated reads (previews, thumbnails, a player's ranges) keep there.
 */
export const DIRECT_READ_MIN_CHUNKS = 8;

/**
 * Read buffers of the whole process, shared with the chunk workers and used again from read to read:
 * a download takes its buffers here and gives them back, so reading allocates (and the allocator keeps)
 * no 1 MiB buffer per chunk. At most this many wait here between reads (a download uses READ_AHEAD and
 * the few its consumer holds); more are left to the GC.
 */
const POOLED_BUFFERS = 2 * READ_AHEAD;
/** Room for any stored chunk and one byte more (a replica longer than its manifest says shows). */
const POOLED_SIZE = CHUNK_SIZE + 1;
const pool: Buffer[] = [];
let made = 0;
const takeBuffer = (size: number): Buffer => {
  if (size > POOLED_SIZE) return sharedReadBuffer(size);
  const pooled = pool.pop();
  if (pooled) return pooled.subarray(0, size);
  made++;
  return sharedReadBuffer(POOLED_SIZE).subarray(0, size);
};
const giveBuffer = (buffer: Buffer) => {
  if (buffer.buffer.byteLength === POOLED_SIZE && pool.length < POOLED_BUFFERS) pool.push(Buffer.from(buffer.buffer, 0, POOLED_SIZE));
};
/** Read buffers made so far and waiting to be used again (for tests). */
export const readBufferCounts = () => ({ made, pooled: pool.length });

export interface ReadOptions {
  /**
   * For a consumer that writes each chunk out as it is given (an HTTP reply the stream is piped to): how
   * many bytes handed to its writes are not yet written out (a reply's `writableLength`). The buffer
   * behind a chunk is used again for a later chunk once every byte of it has been written out, instead
   * of a new buffer per chunk.
   */
  readonly unsent?: () => number;
  /** As `unsent`, only true when nothing handed to the consumer is left to write out. */
  readonly flushed?: () => boolean;
}

/**
 * The plaintext, and a way to learn before the first byte is sent whether it can be read at all:
 * `firstChunk` starts the reads and settles once the first chunk is ready, or rejects with its error
 * (`ChunkLostError`, `FileKeyDestroyedError`), so an answer can still be an error, not a cut stream.
 */
export type PlaintextStream = Readable & { firstChunk(): Promise<void> };

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
  options: ReadOptions = {},
): PlaintextStream => {
  const { size, chunkPlainSize } = manifest;
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range && (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size)) {
    throw new ByteRangeError(`range ${start}-${end} is outside 0-${size - 1}`);
  }
  if (size === 0 || end < start) return Object.assign(Readable.from([], { objectMode: false }), { firstChunk: async () => undefined });
  const first = Math.floor(start / chunkPlainSize);
  const last = Math.floor(end / chunkPlainSize);
  if (last >= manifest.chunks.length) throw new ByteRangeError('manifest has fewer chunks than its size needs');

  // read buffers, one per chunk in flight, shared with the chunk workers and reused from chunk to chunk.
  // Without `flushed` a chunk is decrypted into a buffer of its own, so its read buffer is free again at
  // once; with it the plaintext takes the place of the sealed bytes and the buffer is used again only
  // once the consumer has been handed that chunk and has written out everything handed to it
  const { flushed } = options;
  const unsent = options.unsent ?? (flushed ? () => (flushed() ? 0 : Infinity) : undefined);
  const inPlace = unsent !== undefined;
  /** Buffers behind chunks given out: the chunk's number and the byte count of the stream at its end. */
  const given: { seq: number; end: number; buffer: Buffer }[] = [];
  /** Chunks and bytes handed to the consumer (counted as each is emitted). */
  let emitted = 0;
  let emittedBytes = 0;
  let yielded = 0;
  let yieldedBytes = 0;
  const reclaim = () => {
    if (!given.length || !unsent) return;
    // bytes written out so far: all handed out but what the consumer still holds
    const written = emittedBytes - unsent();
    while (given.length && given[0]!.seq < emitted && given[0]!.end <= written) giveBuffer(given.shift()!.buffer);
  };
  let readSize = 0;
  for (let i = first; i <= last; i++) readSize = Math.max(readSize, manifest.chunks[i]!.size);
  const direct = last - first + 1 >= DIRECT_READ_MIN_CHUNKS;
  const load = async (index: number): Promise<{ plain: Buffer; buffer?: Buffer }> => {
    const key = await keys.get(manifest.keyId);
    reclaim();
    // one byte more than the largest stored chunk: a replica longer than its manifest says shows
    const target = takeBuffer(readSize + 1);
    let keep = false;
    try {
      const { cid } = manifest.chunks[index]!;
      const plainLength = plainLengthOf(size, index, chunkPlainSize);
      const aad = chunkAad(manifest.keyId, index);
      // local replicas are read, verified and decrypted by a worker thread in one request; with none
      // intact where placed the store looks everywhere
      const fetched = await store.readLocal(cid, (files, local) => fetchShared(files, cid, direct && local, key, aad, target, plainLength));
      if (fetched) {
        keep = inPlace;
        // without a consumer that reports what it wrote out, the plaintext gets a buffer of its own
        return inPlace ? { plain: fetched, buffer: target } : { plain: Buffer.from(fetched) };
      }
      // bytes read into the shared buffer are verified and decrypted on a worker thread; a replica read
      // whole by the fallback path (a new buffer) is handled here
      const stored = await store.getInto(cid, target, cidOfShared);
      if (stored.buffer !== target.buffer) return { plain: decryptChunk(key, manifest.keyId, index, stored, plainLength) };
      const plain = await openShared(key, aad, stored, plainLength, inPlace);
      keep = inPlace;
      return { plain, buffer: inPlace ? target : undefined };
    } finally {
      if (!keep) giveBuffer(target);
    }
  };

  // a few chunks in flight ahead of the consumer: disk, hashing and decryption overlap, memory stays bounded
  const ahead: Promise<{ plain: Buffer; buffer?: Buffer }>[] = [];
  let queued = first;
  const fill = () => {
    while (queued <= last && ahead.length < READ_AHEAD) {
      const p = load(queued++);
      p.catch(() => undefined);
      ahead.push(p);
    }
  };

  async function* chunks() {
    for (let index = first; index <= last; index++) {
      fill();
      const { plain, buffer } = await ahead.shift()!;
      const from = index === first ? start - index * chunkPlainSize : 0;
      const to = index === last ? end - index * chunkPlainSize + 1 : plain.length;
      yieldedBytes += to - from;
      if (buffer) {
        given.push({ seq: yielded, end: yieldedBytes, buffer });
        // a consumer that does not write out keeps its buffers: new ones are made, these are left to the GC
        if (given.length > 2 * READ_AHEAD) given.shift();
      }
      yielded++;
      yield plain.subarray(from, to);
    }
  }
  const stream = Object.assign(Readable.from(chunks(), { objectMode: false, highWaterMark: 1 }), {
    firstChunk: () => {
      fill();
      return ahead[0]!.then(() => undefined);
    },
  });
  if (inPlace) {
    // the last chunks given are written out after the stream has ended: their buffers go back to the
    // pool once the consumer has written them (looked at a while, then they are left to the GC)
    stream.once('end', () => {
      let looks = 0;
      const look = () => {
        reclaim();
        if (given.length && looks++ < 200) setTimeout(look, 10).unref();
      };
      look();
    });
    // each chunk counted as it is emitted, before the listeners (a pipe's write) run: by the time
    // `reclaim` looks, every chunk counted has been handed to the consumer's write (no listener is
    // added here: that would start the flow before the consumer is attached)
    const emit = stream.emit.bind(stream);
    stream.emit = (event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') {
        emitted++;
        emittedBytes += (args[0] as Uint8Array).byteLength;
      }
      return emit(event, ...args);
    };
  }
  return stream;
};

import type { BlobBytes } from './blobstore';
import { CHUNK_PLAIN_SIZE, encryptChunkParts } from './chunks';

/** A chunk on its shards, ready to be recorded. */
export interface DurableChunk<K> {
  readonly index: number;
  /** Stored (sealed) size. */
  readonly size: number;
  readonly cid: string;
  /** The plaintext offset before this chunk, and after it. */
  readonly fromOffset: number;
  readonly newOffset: number;
  /** What `cut` gave to keep with this chunk (an upload's hash state), if anything. */
  readonly kept: K | undefined;
}

export interface ChunkWriterOptions<K> {
  /** The file key and its id, which every chunk is sealed under and bound to. */
  readonly key: Buffer;
  readonly keyId: string;
  readonly blobs: { put(bytes: BlobBytes): Promise<string> };
  /** The plaintext size of the whole file: the chunk that reaches it is the last (padded). */
  readonly size: number;
  /** The plaintext offset the bytes taken start at. */
  readonly offset: number;
  /** The plaintext after the last whole chunk before `offset` (kept from an earlier write), given to `cut` before. */
  readonly tail?: Uint8Array;
  /** Chunks stored or being stored and not yet recorded, at most. */
  readonly inFlight: number;
  /**
   * Sees the plaintext not seen before each time a chunk is cut, and before a tail is given back;
   * the bytes are reused once its promise settles. Answers, wrapped so it need not be awaited there,
   * what to keep with the chunk (or tail): a chunk is durable once it is stored and that has settled.
   */
  readonly cut?: (plaintext: Buffer, offset: number) => Promise<{ readonly kept: Promise<K> } | undefined>;
  /**
   * Records durable chunks, strictly in order and one call at a time; the chunks found durable
   * together come in one call. A failure stops the write.
   */
  readonly record: (chunks: readonly DurableChunk<K>[]) => Promise<void>;
}

/** The plaintext after the last whole chunk of a write that stopped before the file's size: not stored. */
export interface UnstoredTail<K> {
  /** The index of the chunk it begins. */
  readonly index: number;
  readonly plaintext: Buffer;
  readonly kept: K | undefined;
}

export interface ChunkWriterEnd<K> {
  /** The plaintext offset the taken bytes reached. */
  readonly received: number;
  /** The plaintext offset after the last recorded chunk. */
  readonly recorded: number;
  /** Present when bytes after the last recorded chunk arrived and the file is not complete. */
  readonly tail: UnstoredTail<K> | undefined;
}

/** A chunk on its way to its shards, then to its record. */
interface PendingChunk<K> {
  readonly index: number;
  readonly size: number;
  readonly fromOffset: number;
  readonly newOffset: number;
  /** Settles once the chunk is on its shards (and what it keeps has settled). */
  readonly ready: Promise<void>;
  durable: DurableChunk<K> | undefined;
  recorded: boolean;
}

/**
 * Cuts a stream of plaintext into chunks, seals each under the file key as it fills and puts it on
 * its shards at once, while more bytes are taken; a few chunks (`inFlight`) wait for their disks at a
 * time. Chunks are recorded strictly in order once durable, whatever order their shards answer in,
 * so what is recorded is always a prefix of the file.
 *
 * `take` the stream, then `end`: the last chunk is stored when the file is complete, every chunk is
 * recorded, and the bytes after the last whole chunk come back for the caller to keep.
 */
export class ChunkWriter<K> {
  private readonly buffer = Buffer.allocUnsafe(CHUNK_PLAIN_SIZE);
  private filled = 0;
  /** Bytes at the start of the buffer already given to `cut`. */
  private seen = 0;
  private index: number;
  private received: number;
  private recorded: number;
  /** The offset after the last chunk handed to the shards. */
  private queued: number;
  /** The record of the newest chunk, which waits for those of the earlier ones. */
  private chain: Promise<void> = Promise.resolve();
  /** The records of the chunks not yet recorded, oldest first. */
  private readonly unrecorded: Promise<void>[] = [];
  /** Chunks stored or being stored and not yet recorded, in order. */
  private readonly waiting: PendingChunk<K>[] = [];
  private failed = false;

  constructor(private readonly options: ChunkWriterOptions<K>) {
    this.index = Math.floor(options.offset / CHUNK_PLAIN_SIZE);
    this.received = this.recorded = this.queued = options.offset;
    const tail = options.tail;
    if (tail?.length) {
      if (tail.length !== options.offset % CHUNK_PLAIN_SIZE) throw new Error('the tail does not end at the offset');
      this.buffer.set(tail);
      this.filled = this.seen = tail.length;
    }
  }

  /**
   * Takes the stream's bytes, storing each chunk as it fills; stops early once a chunk failed (`end`
   * throws that failure). Answers the stream's own error, if it had one (a client that went away):
   * what arrived before it is still written.
   */
  async take(stream: AsyncIterable<Buffer>): Promise<unknown> {
    const { buffer } = this;
    try {
      for await (const data of stream) {
        if (this.failed) break;
        let at = 0;
        while (at < data.length) {
          const n = Math.min(data.length - at, CHUNK_PLAIN_SIZE - this.filled);
          data.copy(buffer, this.filled, at, at + n);
          this.filled += n;
          at += n;
          this.received += n;
          if (this.filled === CHUNK_PLAIN_SIZE) {
            this.store(buffer, await this.cut());
            this.filled = 0;
            this.seen = 0;
            // a few chunks wait for their disk writes (and what they keep) while this thread takes more
            await this.room();
            if (this.failed) break;
          }
        }
      }
      return undefined;
    } catch (error) {
      return error;
    }
  }

  /**
   * Stores the last chunk when the bytes reached the file's size and waits until every chunk is
   * recorded; throws the first failure. Then cuts the bytes after the last whole chunk, when any
   * arrived unrecorded, and gives them back.
   */
  async end(): Promise<ChunkWriterEnd<K>> {
    const { size } = this.options;
    if (this.received === size && this.filled > 0) {
      this.store(this.buffer.subarray(0, this.filled), await this.cut());
      this.filled = 0;
    }
    await this.chain;
    let tail: UnstoredTail<K> | undefined;
    if (this.received < size && this.filled > 0 && this.recorded < this.received) {
      const kept = await (await this.cut())?.kept;
      tail = { index: this.index, plaintext: this.buffer.subarray(0, this.filled), kept };
    }
    return { received: this.received, recorded: this.recorded, tail };
  }

  private async cut() {
    const from = this.seen;
    this.seen = this.filled;
    return this.options.cut?.(this.buffer.subarray(from, this.filled), this.received);
  }

  /** Seals a chunk (into new buffers: the receive buffer is free at once) and puts it on its shards. */
  private store(plaintext: Buffer, keep: { readonly kept: Promise<K> } | undefined) {
    const { key, keyId, blobs, size } = this.options;
    const index = this.index++;
    const newOffset = this.received;
    const sealed = encryptChunkParts(key, keyId, index, plaintext, newOffset === size);
    const stored = blobs.put(sealed);
    const chunk: PendingChunk<K> = {
      index,
      size: sealed[0].length + sealed[1].length + sealed[2].length,
      fromOffset: this.queued,
      newOffset,
      durable: undefined,
      recorded: false,
      ready: Promise.all([stored, keep?.kept]).then(([cid, kept]) => {
        chunk.durable = { index, size: chunk.size, cid, fromOffset: chunk.fromOffset, newOffset, kept };
      }),
    };
    // a chunk stored after an earlier one failed is named by nothing and collected later
    chunk.ready.catch(() => undefined);
    this.waiting.push(chunk);
    this.queued = newOffset;
    const previous = this.chain;
    this.chain = (async () => {
      await previous;
      if (chunk.recorded) return;
      await chunk.ready;
      // this chunk and the ones after it already durable, recorded together
      const batch: PendingChunk<K>[] = [];
      while (this.waiting.length && (!batch.length || this.waiting[0]!.durable)) batch.push(this.waiting.shift()!);
      if (batch[0] !== chunk) throw new Error('chunks recorded out of order');
      await this.options.record(batch.map((c) => c.durable!));
      for (const c of batch) c.recorded = true;
      this.recorded = batch.at(-1)!.newOffset;
    })();
    this.chain.catch(() => {
      this.failed = true;
    });
    this.unrecorded.push(this.chain);
  }

  /** Waits until fewer than `inFlight` chunks are unrecorded (a failure is seen through `failed`). */
  private async room() {
    while (this.unrecorded.length >= this.options.inFlight) await this.unrecorded.shift()!.catch(() => undefined);
  }
}

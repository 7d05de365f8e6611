import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { partsOf, type BlobBytes } from './blobstore';
import { ChunkWriter, type ChunkWriterOptions, type DurableChunk } from './chunk-writer';
import { CHUNK_PLAIN_SIZE, CHUNK_SIZE, decryptChunk, paddedChunkSize } from './chunks';
import { cidOf } from './cid';

const key = randomBytes(32);
const keyId = 'k1';

/** A blob store whose puts wait until the test lets each go (in any order) or fails it. */
class HeldBlobs {
  readonly held: { bytes: Buffer; go: () => void; fail: (e: Error) => void }[] = [];
  readonly stored = new Map<string, Buffer>();
  hold = true;
  outstanding = 0;
  async put(bytes: BlobBytes): Promise<string> {
    const joined = Buffer.concat(partsOf(bytes));
    const cid = cidOf(joined);
    this.outstanding++;
    try {
      if (this.hold) await new Promise<void>((go, fail) => this.held.push({ bytes: joined, go, fail }));
    } finally {
      this.outstanding--;
    }
    this.stored.set(cid, joined);
    return cid;
  }
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

const writerOf = (blobs: HeldBlobs, options: Partial<ChunkWriterOptions<string>> & { size: number }) => {
  const records: DurableChunk<string>[][] = [];
  const writer = new ChunkWriter<string>({
    key,
    keyId,
    blobs,
    offset: 0,
    inFlight: 8,
    record: async (chunks) => {
      records.push([...chunks]);
    },
    ...options,
  });
  return { writer, records };
};

/** The plaintext of recorded chunks, read back from the store. */
const plaintextOf = (blobs: HeldBlobs, chunks: DurableChunk<unknown>[], size: number) =>
  Buffer.concat(chunks.map((c) => decryptChunk(key, keyId, c.index, blobs.stored.get(c.cid)!, Math.min(CHUNK_PLAIN_SIZE, size - c.index * CHUNK_PLAIN_SIZE))));

/** `data` in pieces of `piece` bytes, as a socket gives them. */
const streamOf = (data: Buffer, piece = 64 * 1024) => {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.length; at += piece) pieces.push(data.subarray(at, at + piece));
  return Readable.from(pieces);
};

describe('the chunk writer', () => {
  it('records chunks in order when later ones are durable first, those durable together in one record', async () => {
    const blobs = new HeldBlobs();
    const size = 3 * CHUNK_PLAIN_SIZE;
    const data = randomBytes(size);
    const { writer, records } = writerOf(blobs, { size });

    const taking = writer.take(streamOf(data));
    await until(() => blobs.held.length === 3);
    blobs.held[2]!.go();
    blobs.held[1]!.go();
    await new Promise((r) => setTimeout(r, 50));
    expect(records).toEqual([]);
    blobs.held[0]!.go();
    expect(await taking).toBeUndefined();
    const end = await writer.end();

    expect(end).toEqual({ received: size, recorded: size, tail: undefined });
    expect(records).toHaveLength(1);
    expect(records[0]!.map((c) => [c.index, c.fromOffset, c.newOffset, c.size])).toEqual([
      [0, 0, CHUNK_PLAIN_SIZE, CHUNK_SIZE],
      [1, CHUNK_PLAIN_SIZE, 2 * CHUNK_PLAIN_SIZE, CHUNK_SIZE],
      [2, 2 * CHUNK_PLAIN_SIZE, size, paddedChunkSize(CHUNK_PLAIN_SIZE)],
    ]);
    expect(plaintextOf(blobs, records[0]!, size).equals(data)).toBe(true);
  });

  it('never has more than its bound of chunks stored or being stored and unrecorded, whatever order the store answers in', async () => {
    const blobs = new HeldBlobs();
    const inFlight = 3;
    const size = 12 * CHUNK_PLAIN_SIZE + 777;
    const data = randomBytes(size);
    let recordedChunks = 0;
    let started = 0;
    let most = 0;
    const order: number[] = [];
    const writer = new ChunkWriter<undefined>({
      key,
      keyId,
      blobs: {
        put: (bytes) => {
          started++;
          most = Math.max(most, started - recordedChunks);
          return blobs.put(bytes);
        },
      },
      size,
      offset: 0,
      inFlight,
      record: async (chunks) => {
        await new Promise((r) => setTimeout(r, 2));
        order.push(...chunks.map((c) => c.index));
        recordedChunks += chunks.length;
      },
    });

    const writing = (async () => [await writer.take(streamOf(data, 300_000)), await writer.end()])();
    await until(() => blobs.held.length === inFlight);
    await new Promise((r) => setTimeout(r, 50));
    // while every put waits, no more are started
    expect(blobs.held).toHaveLength(inFlight);
    // then the store answers the newest held put first
    while (order.length < 13) {
      await new Promise((r) => setTimeout(r, 5));
      expect(blobs.outstanding).toBeLessThanOrEqual(inFlight);
      blobs.held.pop()?.go();
    }
    expect(await writing).toEqual([undefined, { received: size, recorded: size, tail: undefined }]);
    expect(most).toBe(inFlight);
    expect(order).toEqual([...Array(13).keys()]);
  });

  it('a failed put fails the write: nothing is recorded from the failed chunk on, even a later chunk already durable', async () => {
    const blobs = new HeldBlobs();
    const size = 4 * CHUNK_PLAIN_SIZE;
    const { writer, records } = writerOf(blobs, { size, inFlight: 3 });

    const taking = writer.take(streamOf(randomBytes(size)));
    await until(() => blobs.held.length === 3);
    blobs.held[0]!.go();
    blobs.held[2]!.go();
    blobs.held[1]!.fail(new Error('disk full'));
    // the stream itself was fine: the take stops early, the failure comes from the end
    expect(await taking).toBeUndefined();
    await expect(writer.end()).rejects.toThrow('disk full');
    expect(records.flat().map((c) => c.index)).toEqual([0]);
  });

  it('a failed record fails the write and records nothing after it', async () => {
    const blobs = new HeldBlobs();
    blobs.hold = false;
    const size = 3 * CHUNK_PLAIN_SIZE;
    const recorded: number[] = [];
    const writer = new ChunkWriter<undefined>({
      key,
      keyId,
      blobs,
      size,
      offset: 0,
      inFlight: 1,
      record: async (chunks) => {
        if (chunks[0]!.index === 1) throw new Error('offset moved');
        recorded.push(...chunks.map((c) => c.index));
      },
    });
    await writer.take(streamOf(randomBytes(size)));
    await expect(writer.end()).rejects.toThrow('offset moved');
    expect(recorded).toEqual([0]);
  });

  it('a stream that ends within a chunk gives the bytes after the last whole chunk back unstored, with what `cut` kept for them', async () => {
    const blobs = new HeldBlobs();
    blobs.hold = false;
    const size = 5 * CHUNK_PLAIN_SIZE;
    const sent = 2 * CHUNK_PLAIN_SIZE + 1000;
    const data = randomBytes(size);
    const cuts: { bytes: Buffer; at: number }[] = [];
    const { writer, records } = writerOf(blobs, {
      size,
      cut: async (plaintext, at) => {
        cuts.push({ bytes: Buffer.from(plaintext), at });
        return { kept: Promise.resolve(`state@${at}`) };
      },
    });

    expect(await writer.take(streamOf(data.subarray(0, sent)))).toBeUndefined();
    const end = await writer.end();

    expect(end.received).toBe(sent);
    expect(end.recorded).toBe(2 * CHUNK_PLAIN_SIZE);
    expect(end.tail!.index).toBe(2);
    expect(end.tail!.plaintext.equals(data.subarray(2 * CHUNK_PLAIN_SIZE, sent))).toBe(true);
    expect(end.tail!.kept).toBe(`state@${sent}`);
    // every byte seen once, in order, each chunk with the state at its end
    expect(Buffer.concat(cuts.map((c) => c.bytes)).equals(data.subarray(0, sent))).toBe(true);
    expect(cuts.map((c) => c.at)).toEqual([CHUNK_PLAIN_SIZE, 2 * CHUNK_PLAIN_SIZE, sent]);
    expect(records.flat().map((c) => c.kept)).toEqual([`state@${CHUNK_PLAIN_SIZE}`, `state@${2 * CHUNK_PLAIN_SIZE}`]);
    expect(blobs.stored.size).toBe(2);
  });

  it('goes on from a kept tail: the tail and the new bytes make the next chunk, the tail not seen again; the last chunk is padded', async () => {
    const blobs = new HeldBlobs();
    blobs.hold = false;
    const size = 2 * CHUNK_PLAIN_SIZE + 5000;
    const data = randomBytes(size);
    const offset = CHUNK_PLAIN_SIZE + 1000;
    const seen: Buffer[] = [];
    const { writer, records } = writerOf(blobs, {
      size,
      offset,
      tail: data.subarray(CHUNK_PLAIN_SIZE, offset),
      cut: async (plaintext) => {
        seen.push(Buffer.from(plaintext));
        return undefined;
      },
    });

    expect(await writer.take(streamOf(data.subarray(offset), 3000))).toBeUndefined();
    expect(await writer.end()).toEqual({ received: size, recorded: size, tail: undefined });

    const chunks = records.flat();
    expect(chunks.map((c) => [c.index, c.fromOffset, c.newOffset])).toEqual([
      [1, offset, 2 * CHUNK_PLAIN_SIZE],
      [2, 2 * CHUNK_PLAIN_SIZE, size],
    ]);
    expect(chunks[1]!.size).toBe(paddedChunkSize(5000));
    expect(plaintextOf(blobs, chunks, size).equals(data.subarray(CHUNK_PLAIN_SIZE))).toBe(true);
    expect(Buffer.concat(seen).equals(data.subarray(offset))).toBe(true);
  });

  it('a stream that fails partway answers its error; what arrived before it is still written', async () => {
    const blobs = new HeldBlobs();
    blobs.hold = false;
    const size = 4 * CHUNK_PLAIN_SIZE;
    const data = randomBytes(size);
    const { writer } = writerOf(blobs, { size });
    async function* broken() {
      yield data.subarray(0, CHUNK_PLAIN_SIZE + 10);
      throw new Error('connection reset');
    }

    expect(await writer.take(broken())).toEqual(new Error('connection reset'));
    const end = await writer.end();
    expect(end.received).toBe(CHUNK_PLAIN_SIZE + 10);
    expect(end.recorded).toBe(CHUNK_PLAIN_SIZE);
    expect(end.tail!.plaintext.equals(data.subarray(CHUNK_PLAIN_SIZE, CHUNK_PLAIN_SIZE + 10))).toBe(true);
  });

  it('refuses a tail that does not end at the offset', () => {
    expect(() => writerOf(new HeldBlobs(), { size: 10_000, offset: 500, tail: Buffer.alloc(499) })).toThrow(/tail/);
  });
});

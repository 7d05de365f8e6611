import os from 'node:os';
import { RequestWorker } from '../workers/request-worker';
import { cidOfDigest, digestOfCid } from './cid';

const WORKERS = Math.max(1, Math.min(2, os.availableParallelism()));
const workers: RequestWorker[] = [];

/** The least busy worker (started on first use; one that died is replaced on the next request). */
const pick = (): RequestWorker => {
  if (workers.length < WORKERS) {
    const w: RequestWorker = new RequestWorker(new URL('./chunk.worker.mjs', import.meta.url), {
      name: 'axel-chunks',
      title: 'chunk worker',
      onExit: () => workers.splice(workers.indexOf(w) >>> 0, 1),
    });
    workers.push(w);
    return w;
  }
  return workers.reduce((a, b) => (b.load < a.load ? b : a));
};

/** A read buffer the chunk workers see without a copy (shared memory). */
export const sharedReadBuffer = (size: number): Buffer => Buffer.from(new SharedArrayBuffer(size));

const isShared = (bytes: Uint8Array) => typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer;

/** CID of bytes in a shared read buffer, hashed on a worker thread. */
export const cidOfShared = async (bytes: Uint8Array): Promise<string> => {
  if (!isShared(bytes)) throw new Error('not a shared read buffer');
  const { value } = await pick().request({ t: 'sha256', buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength });
  return cidOfDigest(value as Uint8Array);
};

/**
 * Decrypts and authenticates a sealed chunk (nonce | ciphertext | tag) lying in a shared read buffer on a
 * worker thread: the tag is checked there before the plaintext (its first `plainLength` bytes) comes back,
 * in a buffer of its own, or with `inPlace` written over the sealed bytes (no buffer allocated per chunk).
 */
export const openShared = async (key: Buffer, aad: Buffer, sealed: Uint8Array, plainLength: number, inPlace = false): Promise<Buffer> => {
  if (!isShared(sealed)) throw new Error('not a shared read buffer');
  const { value, length } = await pick().request({
    t: 'decrypt',
    key,
    aad,
    plainLength,
    inPlace,
    buffer: sealed.buffer,
    offset: sealed.byteOffset,
    length: sealed.byteLength,
  });
  // in place: the plaintext now lies at the start of the shared buffer, over the sealed bytes
  return inPlace ? Buffer.from(sealed.buffer, sealed.byteOffset, length) : Buffer.from(value as ArrayBuffer, 0, length);
};

/**
 * Reads a chunk from the first intact of its replicas' local `files` on a worker thread (with O_DIRECT
 * where `direct` and the file system allow), verifies it against its CID, and decrypts it into the
 * shared `target`: one request per chunk, no file work on the calling thread. Answers each replica
 * passed over, in the order given, and the verified plaintext at the start of `target` (`found`),
 * undefined when no replica given was intact. The tag is checked before the answer comes back.
 */
export const fetchShared = async (
  files: readonly string[],
  cid: string,
  direct: boolean,
  key: Buffer,
  aad: Buffer,
  target: Buffer,
  plainLength: number,
): Promise<{ passedOver: readonly ('missing' | 'damaged')[]; found?: Buffer }> => {
  if (!isShared(target)) throw new Error('not a shared read buffer');
  const { value, length } = await pick().request({
    t: 'fetch',
    files,
    digest: digestOfCid(cid),
    direct,
    key,
    aad,
    plainLength,
    buffer: target.buffer,
    offset: target.byteOffset,
    length: target.byteLength,
  });
  const passedOver = value as readonly ('missing' | 'damaged')[];
  return length === undefined || length < 0 ? { passedOver } : { passedOver, found: Buffer.from(target.buffer, target.byteOffset, length) };
};

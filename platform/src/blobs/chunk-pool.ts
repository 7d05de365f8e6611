import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { cidOfDigest } from './cid';

interface Pending {
  resolve(value: { value: unknown; length?: number }): void;
  reject(error: Error): void;
}

class ChunkWorker {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  dead: Error | undefined;

  constructor(private readonly onExit: (w: ChunkWorker) => void) {
    this.worker = new Worker(new URL('./chunk.worker.mjs', import.meta.url), { name: 'axel-chunks' });
    this.worker.unref();
    this.worker.on('message', (msg: { t: string; req: number; value?: unknown; length?: number; message?: string }) => {
      const p = this.pending.get(msg.req);
      if (!p) return;
      this.pending.delete(msg.req);
      if (!this.pending.size) this.worker.unref();
      if (msg.t === 'done') p.resolve({ value: msg.value, length: msg.length });
      else p.reject(new Error(msg.message));
    });
    const fail = (error: Error) => {
      if (this.dead) return;
      this.dead = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      this.onExit(this);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`chunk worker exited with code ${code}`)));
  }

  request(req: number, message: Record<string, unknown>): Promise<{ value: unknown; length?: number }> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      if (!this.pending.size) this.worker.ref();
      this.pending.set(req, { resolve, reject });
      this.worker.postMessage({ ...message, req });
    });
  }
}

const WORKERS = Math.max(1, Math.min(2, os.availableParallelism()));
const workers: ChunkWorker[] = [];
let nextReq = 1;

/** The least busy worker (started on first use; one that died is replaced on the next request). */
const pick = (): ChunkWorker => {
  if (workers.length < WORKERS) {
    const w = new ChunkWorker((dead) => workers.splice(workers.indexOf(dead) >>> 0, 1));
    workers.push(w);
    return w;
  }
  return workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
};

/** A read buffer the chunk workers see without a copy (shared memory). */
export const sharedReadBuffer = (size: number): Buffer => Buffer.from(new SharedArrayBuffer(size));

const isShared = (bytes: Uint8Array) => typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer;

/** CID of bytes in a shared read buffer, hashed on a worker thread. */
export const cidOfShared = async (bytes: Uint8Array): Promise<string> => {
  if (!isShared(bytes)) throw new Error('not a shared read buffer');
  const { value } = await pick().request(nextReq++, { t: 'sha256', buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength });
  return cidOfDigest(value as Uint8Array);
};

/**
 * Decrypts and authenticates a sealed chunk (nonce | ciphertext | tag) lying in a shared read buffer on a
 * worker thread: the tag is checked there before the plaintext (its first `plainLength` bytes) comes back,
 * in a buffer of its own, or with `inPlace` written over the sealed bytes (no buffer allocated per chunk).
 */
export const openShared = async (key: Buffer, aad: Buffer, sealed: Uint8Array, plainLength: number, inPlace = false): Promise<Buffer> => {
  if (!isShared(sealed)) throw new Error('not a shared read buffer');
  const { value, length } = await pick().request(nextReq++, {
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

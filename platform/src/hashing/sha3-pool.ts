import os from 'node:os';
import { RequestWorker } from '../workers/request-worker';

/** What a session is told by its worker: a batch slot is free again, or the session failed. */
interface SessionSink {
  onAck(slot: number): void;
  onError(error: Error): void;
}

/** A hashing worker thread and the sessions placed on it (each keeps it alive while attached). */
class Sha3Worker {
  readonly port: RequestWorker;
  readonly sessions = new Map<number, SessionSink>();

  constructor(onExit: (w: Sha3Worker) => void) {
    this.port = new RequestWorker(new URL('./sha3.worker.mjs', import.meta.url), {
      name: 'axel-sha3',
      title: 'SHA3 worker',
      prefixErrors: true,
      onMessage: (msg, error) => {
        if (msg.t === 'ack') this.sessions.get(msg.id!)?.onAck(msg.slot!);
        else if (error && msg.id !== undefined) this.sessions.get(msg.id)?.onError(error);
      },
      onExit: (error) => {
        for (const s of this.sessions.values()) s.onError(error);
        this.sessions.clear();
        onExit(this);
      },
    });
  }

  get dead() {
    return this.port.dead;
  }

  async request<T>(message: Record<string, unknown>): Promise<T> {
    return (await this.port.request(message)).value as T;
  }

  post(message: Record<string, unknown>) {
    this.port.post(message);
  }

  attach(id: number, sink: SessionSink) {
    this.sessions.set(id, sink);
    this.port.hold();
  }

  detach(id: number) {
    if (this.sessions.delete(id)) this.port.release();
  }
}

/** What a worker session hashes, saved: hash-wasm's states of SHA3-512 and of MD5. */
export interface WorkerHashState {
  readonly sha3: Uint8Array;
  readonly md5: Uint8Array;
}

/** Bytes per message to a worker, and how many such buffers one session may have in flight. */
export const SHA3_BATCH = 1024 * 1024;
export const SHA3_IN_FLIGHT = 4;

/**
 * One hashing session (SHA3-512 and MD5) on a worker thread: bytes are copied into batch buffers shared with
 * the worker (each handed over once, then named by its slot), so no buffer is allocated, moved or
 * collected per batch; at most `SHA3_IN_FLIGHT` batches are in flight, so `update` waits
 * (backpressure) and memory stays flat however fast bytes arrive.
 */
export class Sha3Session {
  private readonly slots: Uint8Array[] = [];
  private readonly free: number[] = [];
  private staging: number | undefined;
  private filled = 0;
  private waiters: (() => void)[] = [];
  private failed: Error | undefined;
  private closed = false;

  constructor(
    private readonly worker: Sha3Worker,
    readonly id: number,
  ) {
    worker.attach(id, {
      onAck: (slot) => {
        this.free.push(slot);
        this.waiters.shift()?.();
      },
      onError: (error) => {
        this.failed ??= error;
        for (const w of this.waiters.splice(0)) w();
      },
    });
  }

  private check() {
    if (this.failed) throw this.failed;
    if (this.closed) throw new Error('SHA3 session closed');
  }

  private async take(): Promise<number> {
    for (;;) {
      this.check();
      const slot = this.free.pop();
      if (slot !== undefined) return slot;
      if (this.slots.length < SHA3_IN_FLIGHT) {
        const buf = new SharedArrayBuffer(SHA3_BATCH);
        this.worker.post({ t: 'slot', id: this.id, slot: this.slots.length, buf });
        this.slots.push(new Uint8Array(buf));
        return this.slots.length - 1;
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  private flush() {
    if (this.staging === undefined || this.filled === 0) return;
    this.worker.post({ t: 'update', id: this.id, slot: this.staging, len: this.filled });
    this.staging = undefined;
    this.filled = 0;
  }

  /** Queues `data` for hashing (copied: the caller may reuse its buffer as soon as this resolves). */
  async update(data: Uint8Array): Promise<void> {
    let at = 0;
    while (at < data.length) {
      this.staging ??= await this.take();
      const n = Math.min(data.length - at, SHA3_BATCH - this.filled);
      this.slots[this.staging]!.set(data.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === SHA3_BATCH) this.flush();
    }
  }

  /** The states after every byte given so far (hash-wasm's `save()` of SHA3-512 and of MD5). */
  async save(): Promise<WorkerHashState> {
    this.check();
    this.flush();
    return this.worker.request<WorkerHashState>({ t: 'save', id: this.id });
  }

  /** Lowercase hex digests; the session ends. */
  async digest(): Promise<{ sha3_512: string; md5: string }> {
    this.check();
    this.flush();
    try {
      return await this.worker.request<{ sha3_512: string; md5: string }>({ t: 'digest', id: this.id });
    } finally {
      this.end();
    }
  }

  /** Ends the session without a digest (idempotent). */
  close() {
    if (this.closed) return;
    if (!this.worker.dead) this.worker.post({ t: 'close', id: this.id });
    this.end();
  }

  private end() {
    this.closed = true;
    this.worker.detach(this.id);
    for (const w of this.waiters.splice(0)) w();
  }
}

/**
 * The process's hashing workers, SHA3-512 and MD5 (one per spare core, at least one, at most four), shared by every
 * upload: each session is placed on the worker with the fewest sessions. A worker that dies fails
 * its sessions (their requests answer an error; the saved states let the client resume) and is
 * replaced on the next open.
 */
export class Sha3Pool {
  private readonly workers: Sha3Worker[] = [];
  private nextId = 1;

  constructor(readonly size = Math.max(1, Math.min(4, os.availableParallelism() - 1))) {}

  async open(state?: WorkerHashState): Promise<Sha3Session> {
    while (this.workers.length < this.size) this.workers.push(new Sha3Worker((w) => this.workers.splice(this.workers.indexOf(w) >>> 0, 1)));
    const worker = this.workers.reduce((a, b) => (b.sessions.size < a.sessions.size ? b : a));
    const session = new Sha3Session(worker, this.nextId++);
    try {
      await worker.request({ t: 'open', id: session.id, state });
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  async close(): Promise<void> {
    const all = this.workers.splice(0);
    await Promise.all(all.map((w) => w.port.terminate()));
  }
}

let shared: Sha3Pool | undefined;
/** The one pool of this process. */
export const sha3Pool = (): Sha3Pool => (shared ??= new Sha3Pool());

import { Worker } from 'node:worker_threads';

/** A message from a worker thread: the answer to a numbered request, or one of the worker's own. */
export interface WorkerMessage {
  readonly t: string;
  readonly req?: number;
  readonly id?: number;
  readonly slot?: number;
  readonly value?: unknown;
  readonly length?: number;
  readonly message?: string;
}

export interface Answer {
  readonly value: unknown;
  readonly length?: number;
}

interface Pending {
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

export interface RequestWorkerOptions {
  /** The thread's name (what `ps` and the benchmarks show). */
  readonly name: string;
  /** How its failures read: `<title> exited with code 1`, and with `prefixErrors`, `<title>: <message>`. */
  readonly title: string;
  readonly prefixErrors?: boolean;
  /** It died: every request in flight has failed; its pool replaces it. */
  onExit(error: Error): void;
  /** Every message other than a request's answer ('done'), after a failed request ('error' with `req`) is settled. */
  onMessage?(message: WorkerMessage, error?: Error): void;
}

/**
 * A worker thread answering numbered requests: a request's promise settles with the thread's 'done'
 * (`value`, `length`) or 'error' (`message`) of the same number. It keeps the process alive only while
 * something is asked of it (a request in flight or a hold), and when it dies every request in flight
 * fails with the reason. Shared by the download chunk workers and the hashing workers.
 */
export class RequestWorker {
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextReq = 1;
  private holds = 0;
  dead: Error | undefined;

  constructor(script: URL, options: RequestWorkerOptions) {
    // the scripts are plain JavaScript: the thread does not take the process's own Node options
    // (`--import tsx` would load the TypeScript loader into every thread: measured, first answer
    // after ~70 ms instead of ~32, and ~8 MiB more memory a thread)
    this.worker = new Worker(script, { name: options.name, execArgv: [] });
    this.worker.unref();
    this.worker.on('message', (msg: WorkerMessage) => {
      let error: Error | undefined;
      if (msg.t === 'error') error = new Error(options.prefixErrors ? `${options.title}: ${msg.message}` : String(msg.message));
      if ((msg.t === 'done' || msg.t === 'error') && msg.req !== undefined) {
        const p = this.pending.get(msg.req);
        if (p) {
          this.pending.delete(msg.req);
          this.refresh();
          if (msg.t === 'done') p.resolve({ value: msg.value, length: msg.length });
          else p.reject(error!);
        }
      }
      if (msg.t !== 'done') options.onMessage?.(msg, error);
    });
    const fail = (error: Error) => {
      if (this.dead) return;
      this.dead = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      options.onExit(error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${options.title} exited with code ${code}`)));
  }

  /** Requests in flight and holds: how busy the thread is. */
  get load(): number {
    return this.pending.size + this.holds;
  }

  private refresh() {
    if (this.load) this.worker.ref();
    else this.worker.unref();
  }

  /** Sends `message` with a number of its own; settles with the thread's answer to it. */
  request(message: Record<string, unknown>): Promise<Answer> {
    if (this.dead) return Promise.reject(this.dead);
    const req = this.nextReq++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.refresh();
      this.worker.postMessage({ ...message, req });
    });
  }

  /** Sends `message` expecting no answer. */
  post(message: Record<string, unknown>) {
    if (this.dead) throw this.dead;
    this.worker.postMessage(message);
  }

  /** Keeps the thread (and the process) alive until `release`: a session that will send more. */
  hold() {
    this.holds++;
    this.refresh();
  }

  release() {
    this.holds = Math.max(0, this.holds - 1);
    this.refresh();
  }

  terminate() {
    return this.worker.terminate();
  }
}

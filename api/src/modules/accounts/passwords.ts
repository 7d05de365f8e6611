import os from 'node:os';
import argon2 from 'argon2';
import { CommonErrors, DomainError } from '@axel/domain';

/**
 * argon2id is made to be slow and memory-hungry, so unbounded parallel checks (a flood of sign-ins
 * for made-up addresses, each spending a full check to hide that the address is unknown) would
 * take every libuv thread and make real sign-ins wait for seconds. All password work of this
 * process goes through one small gate: a few checks at a time, a bounded queue behind them, and a
 * 429 (RATE_LIMITED) once the queue is full, so an overload is refused quickly instead of growing.
 * Browsers that hold a device cookie of the account they sign in to wait in a lane of their own
 * that is served first: a flood from strangers cannot starve the people who use the account.
 */
export type PasswordLane = 'normal' | 'trusted';

interface Waiter {
  readonly start: () => void;
}

export class PasswordWorkGate {
  private running = 0;
  private readonly queues: Record<PasswordLane, Waiter[]> = { trusted: [], normal: [] };

  constructor(
    readonly concurrency: number,
    private readonly maxQueued: Readonly<Record<PasswordLane, number>>,
  ) {}

  /** Runs `work` when a slot is free; refuses with RATE_LIMITED when its lane's queue is full. */
  async run<T>(work: () => Promise<T>, lane: PasswordLane = 'normal'): Promise<T> {
    if (this.running >= this.concurrency) {
      const queue = this.queues[lane];
      if (queue.length >= this.maxQueued[lane]) throw new DomainError(CommonErrors.rateLimited, { retryAfter: 1 });
      await new Promise<void>((start) => queue.push({ start }));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Hands the slot straight to the next waiter (trusted lane first), so no newcomer can jump in. */
  private release() {
    const next = this.queues.trusted.shift() ?? this.queues.normal.shift();
    if (next) next.start();
    else this.running--;
  }

  get stats() {
    return { running: this.running, queued: this.queues.trusted.length + this.queues.normal.length };
  }
}

/** One gate for the whole process: argon2 shares the process's threads whoever calls it. */
export const passwordWork = new PasswordWorkGate(Math.max(2, Math.min(4, os.availableParallelism() - 1)), { normal: 16, trusted: 8 });

/** argon2id with the library's recommended parameters. */
export const hashPassword = (password: string): Promise<string> => passwordWork.run(() => argon2.hash(password, { type: argon2.argon2id }));

export const verifyPassword = async (hash: string | null, password: string, lane: PasswordLane = 'normal'): Promise<boolean> => {
  if (!hash) return false;
  return passwordWork.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }, lane);
};

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so a missing account is not told apart by timing. */
export const burnPasswordCheck = async (password: string): Promise<void> => {
  dummy ??= argon2.hash('timing-equaliser-0!', { type: argon2.argon2id });
  await verifyPassword(await dummy, password);
};

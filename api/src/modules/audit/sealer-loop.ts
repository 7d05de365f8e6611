import type { Logger } from '../../logger';

/** How often an idle sealer looks for new events; a full batch is followed at once. */
const IDLE_POLL_MS = 100;
const ERROR_BACKOFF_MS = 1000;
/** A failure that repeats waits longer each time, up to this (a refused, rewritten log stays refused). */
const MAX_ERROR_BACKOFF_MS = 10_000;

/**
 * Runs one sealing step after another while the worker role runs: `step` seals a batch and
 * answers whether more is waiting (then the next step runs at once), else the loop idles. A
 * failure is kept as `lastError` (shown to staff) and retried after a pause that doubles while the
 * same failure repeats (logged once), so a sealer that refuses to seal never spins.
 */
export class SealerLoop {
  private stopped = false;
  private wake: (() => void) | undefined;
  private done: Promise<void> | undefined;
  lastError: string | null = null;

  constructor(
    private readonly step: () => Promise<boolean>,
    private readonly log: Logger,
    private readonly failure: string,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async loop(): Promise<void> {
    let backoff = ERROR_BACKOFF_MS;
    while (!this.stopped) {
      try {
        const more = await this.step();
        this.lastError = null;
        backoff = ERROR_BACKOFF_MS;
        if (more) continue;
        await this.sleep(IDLE_POLL_MS);
      } catch (error) {
        if (this.stopped) return;
        const message = (error as Error).message;
        if (message === this.lastError) backoff = Math.min(backoff * 2, MAX_ERROR_BACKOFF_MS);
        else {
          backoff = ERROR_BACKOFF_MS;
          this.log.error({ err: error }, this.failure);
        }
        this.lastError = message;
        await this.sleep(backoff);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done;
  }
}

import type { Logger } from '../../logger';

/** How often an idle sealer looks for new events; a full batch is followed at once. */
const IDLE_POLL_MS = 100;
const ERROR_BACKOFF_MS = 1000;

/**
 * Runs one sealing step after another while the worker role runs: `step` seals a batch and
 * answers whether more is waiting (then the next step runs at once), else the loop idles. A
 * failure is kept as `lastError` (shown to staff) and retried after a pause.
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
    while (!this.stopped) {
      try {
        const more = await this.step();
        this.lastError = null;
        if (more) continue;
        await this.sleep(IDLE_POLL_MS);
      } catch (error) {
        if (this.stopped) return;
        this.lastError = (error as Error).message;
        this.log.error({ err: error }, this.failure);
        await this.sleep(ERROR_BACKOFF_MS);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done;
  }
}

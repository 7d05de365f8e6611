/**
 * A background drain run every `intervalMs` and whenever it is kicked, never twice at once: a kick
 * that comes while a drain runs starts one more drain after it (so nothing kicked is missed), and
 * any number of kicks meanwhile make only that one. `stop()` waits for the running drain.
 */
export class DrainLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly drain: (stopped: () => boolean) => Promise<void>,
    private readonly opts: { intervalMs: number; onError: (error: unknown) => void },
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.opts.intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.running) await this.running;
  }

  /** Whether `stop()` was called: a long drain checks it between items. */
  readonly isStopped = (): boolean => this.stopped;

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain(this.isStopped)
      .catch(this.opts.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }
}

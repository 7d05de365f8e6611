import type { EventStore, GlobalPosition, Subscription, SubscriptionHandler } from './port';

export interface DurableSubscriptionOptions {
  readonly store: EventStore;
  /** Where to (re)start: read again after every failure, from the reader's durable checkpoint. */
  readonly from: () => Promise<GlobalPosition>;
  readonly handler: Omit<SubscriptionHandler, 'onError'>;
  readonly types?: readonly string[];
  /** Told of each failure, with the pause before the next attempt. */
  readonly onError?: (error: unknown, retryInMs: number) => void;
}

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 30_000;

/**
 * A subscription that outlives its errors: after one it pauses (0.5 s, doubling up to 30 s, back
 * to 0.5 s once caught up) and starts again from the checkpoint. Projections and process runtimes
 * follow the store through it.
 */
export class DurableSubscription {
  private current: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pause = FIRST_PAUSE_MS;
  private stopped = false;

  constructor(private readonly options: DurableSubscriptionOptions) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const from = await this.options.from();
    if (this.stopped) return;
    this.current = this.options.store.subscribe(
      from,
      {
        ...this.options.handler,
        onCaughtUp: () => {
          this.pause = FIRST_PAUSE_MS;
          this.options.handler.onCaughtUp?.();
        },
        onError: (error) => this.fail(error),
      },
      { types: this.options.types },
    );
  }

  private fail(error: unknown): void {
    if (this.stopped) return;
    const failed = this.current;
    this.current = undefined;
    const pause = this.pause;
    this.pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    this.options.onError?.(error, pause);
    this.timer = setTimeout(() => {
      void (async () => {
        await failed?.stop().catch(() => undefined);
        await this.start();
      })().catch((e) => this.fail(e));
    }, pause);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current?.stop();
  }
}

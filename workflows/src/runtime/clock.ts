/** The only source of "now" for the runtimes; tests inject a controlled one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that only moves when told to. With it, a process that waits 90 days completes in a
 * test as soon as the clock is advanced (the embedded runtime's `advanceTo` also fires the timers
 * that became due).
 */
export class ControlledClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date): void {
    if (to.getTime() < this.current) throw new Error('A controlled clock does not go backwards');
    this.current = to.getTime();
  }

  advanceBy(ms: number): Date {
    this.set(new Date(this.current + ms));
    return this.now();
  }
}

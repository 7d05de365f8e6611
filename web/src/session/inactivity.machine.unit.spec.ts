import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { inactivityMachine, keepAliveInterval, MAX_KEEP_ALIVE_INTERVAL_MS } from './inactivity.machine';

const FIFTEEN_MINUTES = 15 * 60_000;

const start = (timeoutMs = FIFTEEN_MINUTES) => {
  const log: string[] = [];
  const actor = createActor(
    inactivityMachine.provide({
      actions: {
        keepAlive: () => void log.push(`keepAlive@${Date.now()}`),
        timedOut: () => void log.push(`timedOut@${Date.now()}`),
      },
    }),
    { input: { timeoutMs, now: Date.now() } },
  ).start();
  return { actor, log };
};

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('inactivity machine', () => {
  it('signs out by itself when the timeout runs out, without any click', () => {
    const { actor, log } = start();
    vi.advanceTimersByTime(FIFTEEN_MINUTES - 1);
    expect(actor.getSnapshot().value).toBe('watching');
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('timedOut');
    expect(log).toEqual([`timedOut@${1_000_000 + FIFTEEN_MINUTES}`]);
    vi.advanceTimersByTime(FIFTEEN_MINUTES * 3);
    expect(log.filter((l) => l.startsWith('timedOut'))).toHaveLength(1);
  });

  it('restarts the countdown on activity', () => {
    const { actor, log } = start();
    vi.advanceTimersByTime(FIFTEEN_MINUTES - 1000);
    actor.send({ type: 'ACTIVITY', at: Date.now() });
    vi.advanceTimersByTime(FIFTEEN_MINUTES - 1);
    expect(actor.getSnapshot().value).toBe('watching');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('timedOut');
    expect(log.at(-1)).toBe(`timedOut@${1_000_000 + 2 * FIFTEEN_MINUTES - 1000}`);
  });

  it('signs out at once when the page comes back after a longer absence than the timeout (timers of a sleeping page are late)', () => {
    const { actor, log } = start();
    // A sleeping machine runs no timers: the clock moves, the countdown does not fire.
    vi.setSystemTime(Date.now() + FIFTEEN_MINUTES + 5000);
    expect(actor.getSnapshot().value).toBe('watching');
    actor.send({ type: 'VISIBLE', at: Date.now() });
    expect(actor.getSnapshot().value).toBe('timedOut');
    expect(log.some((l) => l.startsWith('timedOut'))).toBe(true);
  });

  it('counts coming back within the timeout as activity', () => {
    const { actor } = start();
    vi.advanceTimersByTime(FIFTEEN_MINUTES - 1000);
    actor.send({ type: 'VISIBLE', at: Date.now() });
    vi.advanceTimersByTime(FIFTEEN_MINUTES - 1);
    expect(actor.getSnapshot().value).toBe('watching');
  });

  it('keeps the server session alive on activity when no request went out for a while, at most once per interval', () => {
    const { actor, log } = start();
    const interval = keepAliveInterval(FIFTEEN_MINUTES);
    expect(interval).toBe(MAX_KEEP_ALIVE_INTERVAL_MS);

    vi.advanceTimersByTime(interval - 1);
    actor.send({ type: 'ACTIVITY', at: Date.now() });
    expect(log).toEqual([]);

    vi.advanceTimersByTime(1);
    actor.send({ type: 'ACTIVITY', at: Date.now() });
    expect(log).toEqual([`keepAlive@${Date.now()}`]);

    vi.advanceTimersByTime(interval / 2);
    actor.send({ type: 'ACTIVITY', at: Date.now() });
    expect(log).toHaveLength(1);

    // A request the page made counts as contact: no keep-alive needed right after it.
    vi.advanceTimersByTime(interval);
    actor.send({ type: 'ACTIVITY', at: Date.now(), serverContactAt: Date.now() - 10 });
    expect(log).toHaveLength(1);
  });

  it('keeps short timeouts alive more often than long ones', () => {
    expect(keepAliveInterval(60_000)).toBe(15_000);
    expect(keepAliveInterval(30 * 24 * 3600_000)).toBe(MAX_KEEP_ALIVE_INTERVAL_MS);
  });
});

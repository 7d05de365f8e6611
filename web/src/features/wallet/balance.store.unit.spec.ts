import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBalanceStore, REFRESH_AFTER_ACTION_MS, REFRESH_WITHIN_MS, UNCONFIRMED_POLL_MS, type BalanceLoad } from './balance.store';

const load = (confirmed: string, unconfirmed: string): BalanceLoad => ({
  summary: { addresses: [], main: confirmed, fuel: '0', pending: unconfirmed, available: confirmed },
  balance: { confirmed, unconfirmed },
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('wallet balance', () => {
  it('abandons a balance request that has no answer after 20 s', async () => {
    const signals: AbortSignal[] = [];
    const store = createBalanceStore({
      load: (signal) =>
        new Promise((_, reject) => {
          signals.push(signal);
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const done = store.refresh();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(signals[0]!.aborted).toBe(false);
    expect(store.get().loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(signals[0]!.aborted).toBe(true);
    expect(store.get()).toMatchObject({ loading: false, error: { code: 'WALLET_BALANCE_TIMEOUT' } });
  });

  it('refreshes within 30 s after an action', async () => {
    expect(Math.max(...REFRESH_AFTER_ACTION_MS)).toBeLessThanOrEqual(REFRESH_WITHIN_MS);
    let calls = 0;
    const store = createBalanceStore({
      load: async () => {
        calls += 1;
        return load('1', '0');
      },
    });
    store.afterAction();
    await vi.advanceTimersByTimeAsync(REFRESH_WITHIN_MS);
    expect(calls).toBe(REFRESH_AFTER_ACTION_MS.length);
    expect(store.get().balance).toEqual({ confirmed: '1', unconfirmed: '0' });
  });

  it('keeps looking while tokens are unconfirmed, and stops once they are confirmed', async () => {
    const answers = [load('0', '5'), load('0', '5'), load('5', '0')];
    let calls = 0;
    const store = createBalanceStore({ load: async () => answers[Math.min(calls++, answers.length - 1)]! });
    const stop = store.watch();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.get().balance?.unconfirmed).toBe('5');
    await vi.advanceTimersByTimeAsync(UNCONFIRMED_POLL_MS * 2);
    expect(store.get().balance).toEqual({ confirmed: '5', unconfirmed: '0' });
    const settled = calls;
    await vi.advanceTimersByTimeAsync(UNCONFIRMED_POLL_MS * 5);
    expect(calls).toBe(settled);
    stop();
  });

  it('a newer refresh wins over an older one still in flight', async () => {
    const resolvers: ((v: BalanceLoad) => void)[] = [];
    const store = createBalanceStore({ load: () => new Promise((resolve) => resolvers.push(resolve)) });
    const first = store.refresh();
    const second = store.refresh();
    resolvers[1]!(load('2', '0'));
    resolvers[0]!(load('1', '0'));
    await Promise.all([first, second]);
    expect(store.get().balance?.confirmed).toBe('2');
  });

  it("forgets one account's balance when another signs in", async () => {
    const store = createBalanceStore({ load: async () => load('3', '0') });
    store.ownedBy('user-a');
    await store.refresh();
    expect(store.get().balance?.confirmed).toBe('3');
    store.ownedBy('user-a');
    expect(store.get().balance?.confirmed).toBe('3');
    store.ownedBy('user-b');
    expect(store.get()).toMatchObject({ summary: null, balance: null });
  });
});

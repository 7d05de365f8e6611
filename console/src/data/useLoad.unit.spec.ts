import { describe, expect, it } from 'vitest';
import { type LoadState, notLoaded, startLoad } from './useLoad';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One load whose answer the test gives when it chooses. */
const pending = () => {
  let state: LoadState<string> = notLoaded;
  let resolve!: (value: string) => void;
  let reject!: (error: unknown) => void;
  let signal!: AbortSignal;
  const cancel = startLoad<string>(
    (s) => {
      signal = s;
      return new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
    },
    (next) => (state = next(state)),
  );
  return { state: () => state, resolve, reject, cancel, signal: () => signal };
};

describe('the console useLoad', () => {
  it('shows loading, then the answer', async () => {
    const load = pending();
    expect(load.state()).toEqual({ data: undefined, error: null, loading: true });
    load.resolve('dashboard');
    await settle();
    expect(load.state()).toEqual({ data: 'dashboard', error: null, loading: false });
  });

  it('drops an answer that arrives after the page left or its deps changed, and aborts its request', async () => {
    const load = pending();
    load.cancel();
    expect(load.signal().aborted).toBe(true);
    load.resolve('late');
    await settle();
    expect(load.state().data).toBeUndefined();
  });

  it("surfaces a failure as the error's message", async () => {
    const load = pending();
    load.reject(new Error('HTTP 500'));
    await settle();
    expect(load.state()).toEqual({ data: undefined, error: 'HTTP 500', loading: false });
  });
});

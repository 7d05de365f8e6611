import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { type Loader, type LoadOptions, type LoadState, notLoaded, startLoad } from './useLoad';

/** An answer the test gives when it chooses, and the signal its load was handed. */
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/**
 * The screen's side of `useLoad`, as React drives its effect: a load starts on mount, a change of
 * deps (or a reload) cancels the running one before the next starts, and unmounting cancels.
 */
const screen = <T>(options: LoadOptions = {}) => {
  let state: LoadState<T> = notLoaded;
  let cancel: (() => void) | null = null;
  const signals: AbortSignal[] = [];
  const answers: ReturnType<typeof deferred<T>>[] = [];
  const load: Loader<T> = (signal) => {
    signals.push(signal);
    const answer = deferred<T>();
    answers.push(answer);
    return answer.promise;
  };
  const run = () => {
    cancel?.();
    cancel = startLoad(load, (next) => (state = next(state)), options);
  };
  return {
    state: () => state,
    signals,
    answers,
    mount: run,
    depsChange: run,
    reload: run,
    unmount: () => cancel?.(),
  };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('useLoad', () => {
  it('shows loading, then the answer', async () => {
    const s = screen<string>();
    s.mount();
    expect(s.state()).toEqual({ data: undefined, error: null, loading: true });
    s.answers[0]?.resolve('files');
    await settle();
    expect(s.state()).toEqual({ data: 'files', error: null, loading: false });
  });

  it('drops an answer that arrives after the page left, and aborts its request', async () => {
    const s = screen<string>();
    s.mount();
    s.unmount();
    expect(s.signals[0]?.aborted).toBe(true);
    s.answers[0]?.resolve('late');
    await settle();
    expect(s.state()).toEqual({ data: undefined, error: null, loading: true });
  });

  it('drops a failure that arrives after the page left', async () => {
    const s = screen<string>();
    s.mount();
    s.unmount();
    s.answers[0]?.reject(new ApiError('NOT_FOUND', 'gone', null, 404));
    await settle();
    expect(s.state().error).toBeNull();
  });

  it('after the deps changed, shows the answer for the new deps even when the old one arrives last', async () => {
    const s = screen<string>();
    s.mount();
    s.depsChange();
    expect(s.signals[0]?.aborted).toBe(true);
    expect(s.signals[1]?.aborted).toBe(false);
    s.answers[1]?.resolve('folder B');
    await settle();
    s.answers[0]?.resolve('folder A');
    await settle();
    expect(s.state()).toEqual({ data: 'folder B', error: null, loading: false });
  });

  it('reload asks again and keeps the last answer on screen meanwhile', async () => {
    const s = screen<string>();
    s.mount();
    s.answers[0]?.resolve('first');
    await settle();
    s.reload();
    expect(s.answers).toHaveLength(2);
    expect(s.state()).toEqual({ data: 'first', error: null, loading: true });
    s.answers[1]?.resolve('second');
    await settle();
    expect(s.state()).toEqual({ data: 'second', error: null, loading: false });
  });

  it('with reset, forgets the last answer when the next load starts', async () => {
    const s = screen<string>({ reset: true });
    s.mount();
    s.answers[0]?.resolve('first');
    await settle();
    s.depsChange();
    expect(s.state()).toEqual({ data: undefined, error: null, loading: true });
  });

  it('surfaces a failure as the normalised error, keeping the last answer', async () => {
    const s = screen<string>();
    s.mount();
    s.answers[0]?.resolve('first');
    await settle();
    s.reload();
    s.answers[1]?.reject(new ApiError('FORBIDDEN', 'no', { reason: 'plan' }, 403));
    await settle();
    expect(s.state()).toEqual({ data: 'first', error: { code: 'FORBIDDEN', message: 'no', data: { reason: 'plan' } }, loading: false });
  });

  it('clears the error when the next load starts', async () => {
    const s = screen<string>();
    s.mount();
    s.answers[0]?.reject(new Error('offline'));
    await settle();
    expect(s.state().error?.message).toBe('offline');
    s.reload();
    expect(s.state().error).toBeNull();
  });

  it('a load that throws before it returns a promise fails like one that rejects', async () => {
    let state: LoadState<string> = notLoaded;
    startLoad<string>(
      () => {
        throw new ApiError('BAD', 'bad');
      },
      (next) => (state = next(state)),
    );
    await settle();
    expect(state).toEqual({ data: undefined, error: { code: 'BAD', message: 'bad', data: null }, loading: false });
  });
});

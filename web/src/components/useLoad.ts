import { type DependencyList, useCallback, useEffect, useState } from 'react';
import { type NormalisedError, toApiError } from '../api/errors';

/** A read for the screen; the signal aborts when its answer is no longer wanted (left the page, other deps). */
export type Loader<T> = (signal: AbortSignal) => Promise<T>;

export interface LoadState<T> {
  /** The last answer; kept while the next one loads unless the load resets it. */
  data: T | undefined;
  error: NormalisedError | null;
  loading: boolean;
}

export interface LoadOptions {
  /** Forget the last answer whenever a load starts (a spinner rather than the previous folder's contents). */
  reset?: boolean;
}

export const notLoaded: LoadState<never> = { data: undefined, error: null, loading: false };

/**
 * Runs one load and writes its outcome through `update`, unless the returned cancel came first: an
 * answer that arrives after the page left or after its deps changed is dropped, and the signal
 * given to the load aborts so the request stops too.
 */
export const startLoad = <T>(load: Loader<T>, update: (next: (state: LoadState<T>) => LoadState<T>) => void, options: LoadOptions = {}): (() => void) => {
  const controller = new AbortController();
  const wanted = () => !controller.signal.aborted;
  update((s) => ({ data: options.reset ? undefined : s.data, error: null, loading: true }));
  let answer: Promise<T>;
  try {
    answer = load(controller.signal);
  } catch (e) {
    answer = Promise.reject(e);
  }
  answer.then(
    (data) => wanted() && update(() => ({ data, error: null, loading: false })),
    (e: unknown) => wanted() && update((s) => ({ data: s.data, error: toApiError(e).toJSON(), loading: false })),
  );
  return () => controller.abort();
};

/**
 * Loads what a screen shows, again when a dep changes and on `reload()`. A null load means there is
 * nothing to load now (no user signed in, a dialog closed): what was loaded stays as it was.
 */
export const useLoad = <T>(load: Loader<T> | null, deps: DependencyList, options: LoadOptions = {}): LoadState<T> & { reload: () => void } => {
  const [state, setState] = useState<LoadState<T>>(notLoaded);
  const [round, setRound] = useState(0);
  const reset = options.reset ?? false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on; the closure of the render that changed them runs
  useEffect(() => {
    if (!load) {
      setState((s) => (s.loading ? { ...s, loading: false } : s));
      return;
    }
    return startLoad(load, setState, { reset });
  }, [...deps, round, load === null, reset]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
};

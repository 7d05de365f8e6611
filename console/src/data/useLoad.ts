import { type DependencyList, useCallback, useEffect, useState } from 'react';

/*
 * The console's copy of the web app's `useLoad` (web/src/components/useLoad.ts): the two
 * applications import nothing of each other, and domain/ stays free of React. Errors here are the
 * message react-admin's HTTP client throws.
 */

/** A read for the screen; the signal aborts when its answer is no longer wanted (left the page, other deps). */
export type Loader<T> = (signal: AbortSignal) => Promise<T>;

export interface LoadState<T> {
  /** The last answer; kept while the next one loads. */
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

export const notLoaded: LoadState<never> = { data: undefined, error: null, loading: false };

/**
 * Runs one load and writes its outcome through `update`, unless the returned cancel came first: an
 * answer that arrives after the page left or after its deps changed is dropped, and the signal
 * given to the load aborts so the request stops too.
 */
export const startLoad = <T>(load: Loader<T>, update: (next: (state: LoadState<T>) => LoadState<T>) => void): (() => void) => {
  const controller = new AbortController();
  const wanted = () => !controller.signal.aborted;
  update((s) => ({ data: s.data, error: null, loading: true }));
  let answer: Promise<T>;
  try {
    answer = load(controller.signal);
  } catch (e) {
    answer = Promise.reject(e);
  }
  answer.then(
    (data) => wanted() && update(() => ({ data, error: null, loading: false })),
    (e: unknown) => wanted() && update((s) => ({ data: s.data, error: e instanceof Error ? e.message : String(e), loading: false })),
  );
  return () => controller.abort();
};

/** Loads what a screen shows, again when a dep changes and on `reload()`. */
export const useLoad = <T>(load: Loader<T>, deps: DependencyList): LoadState<T> & { reload: () => void } => {
  const [state, setState] = useState<LoadState<T>>(notLoaded);
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on; the closure of the render that changed them runs
  useEffect(() => startLoad(load, setState), [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
};

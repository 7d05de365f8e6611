import { useEffect, useState } from 'react';
import { toApiError, type NormalisedError } from '../api/errors';

const calls = new Map<string, Promise<unknown>>();

export type OnceState<T> = { status: 'pending' } | { status: 'done'; value: T } | { status: 'failed'; error: NormalisedError };

/**
 * Runs a one-shot call (consuming a mailed token) once per key for the page's lifetime, so a
 * re-mounted component (React strict mode, back and forth) never spends the token twice.
 */
export const useOnceCall = <T>(key: string | null, call: () => Promise<T>): OnceState<T> => {
  const [state, setState] = useState<OnceState<T>>({ status: 'pending' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the call runs once per key, whichever closure a later render passes
  useEffect(() => {
    if (!key) return;
    let live = true;
    let promise = calls.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = call();
      calls.set(key, promise);
    }
    promise.then(
      (value) => live && setState({ status: 'done', value }),
      (e: unknown) => live && setState({ status: 'failed', error: toApiError(e).toJSON() }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state;
};

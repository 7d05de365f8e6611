import type { NormalisedError } from '../api/errors';
import { useLoad } from './useLoad';

const calls = new Map<string, Promise<unknown>>();

export type OnceState<T> = { status: 'pending' } | { status: 'done'; value: T } | { status: 'failed'; error: NormalisedError };

const callOnce = <T>(key: string, call: () => Promise<T>): Promise<T> => {
  let promise = calls.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = call();
    calls.set(key, promise);
  }
  return promise;
};

/**
 * Runs a one-shot call (consuming a mailed token) once per key for the page's lifetime, so a
 * re-mounted component (React strict mode, back and forth) never spends the token twice.
 */
export const useOnceCall = <T>(key: string | null, call: () => Promise<T>): OnceState<T> => {
  // the answer is boxed: a call that answers nothing is done all the same
  const { data, error } = useLoad(key ? () => callOnce(key, call).then((value) => ({ value })) : null, [key]);
  if (error) return { status: 'failed', error };
  return data ? { status: 'done', value: data.value } : { status: 'pending' };
};

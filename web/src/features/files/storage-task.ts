import { ApiError } from '../../api/errors';
import { TASK_POLL_MS, type StorageTask } from './files.api';

const DONE = new Set(['done', 'completed', 'finished', 'success', 'succeeded']);
const FAILED = new Set(['failed', 'error', 'cancelled', 'canceled']);

export const taskFinished = (status: string) => DONE.has(status.toLowerCase());
export const taskFailed = (status: string) => FAILED.has(status.toLowerCase());

/** Spec §8: a storage task that fails with this code opens the skip-2FA dialog. */
export const SKIP_2FA_CODE = '5102';

export interface TaskRunner {
  /** Creates the task; `skip2fa` is true once the user chose to go on without the 2FA check. */
  start: (options: { skip2fa: boolean }) => Promise<{ id: string; stateURL?: string }>;
  poll: (task: { id: string; stateURL?: string }) => Promise<StorageTask>;
  sleep?: (ms: number) => Promise<void>;
  onState?: (state: StorageTask) => void;
  signal?: AbortSignal;
  /**
   * Opens the skip-2FA dialog when the task fails with code 5102: true runs the task again with
   * `skip2fa`, false ends it with that failure. Without it, a 5102 failure is thrown like any other.
   */
  confirmSkip2fa?: () => Promise<boolean>;
}

/**
 * A storage task from start to end: created, then its state read every 2 s until it is done
 * (answered) or failed (thrown as the task's own error code and message, so code 5102 can open
 * the skip-2FA dialog and partial counts reach the user).
 */
export const runStorageTask = async ({ start, poll, sleep, onState, signal, confirmSkip2fa }: TaskRunner): Promise<StorageTask> => {
  const wait = sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let skip2fa = false;
  for (;;) {
    try {
      return await runOnce(await start({ skip2fa }), poll, wait, onState, signal);
    } catch (error) {
      // asked once: a task that still needs 2FA after skipping it fails like any other
      if (skip2fa || !confirmSkip2fa || !(error instanceof ApiError) || error.code !== SKIP_2FA_CODE) throw error;
      if (!(await confirmSkip2fa())) throw error;
      skip2fa = true;
    }
  }
};

const runOnce = async (
  task: { id: string; stateURL?: string },
  poll: TaskRunner['poll'],
  wait: (ms: number) => Promise<void>,
  onState: TaskRunner['onState'],
  signal: AbortSignal | undefined,
): Promise<StorageTask> => {
  for (;;) {
    if (signal?.aborted) throw new ApiError('ABORTED', 'Request cancelled');
    const state = await poll(task);
    onState?.(state);
    if (taskFinished(state.status)) return state;
    if (taskFailed(state.status)) {
      throw new ApiError(String(state.errorCode ?? 'TASK_FAILED'), state.errorMessage ?? 'The task failed', { ...state }, 0);
    }
    await wait(TASK_POLL_MS);
  }
};

import { ApiError } from '../../api/errors';
import { TASK_POLL_MS, type StorageTask } from './files.api';

const DONE = new Set(['done', 'completed', 'finished', 'success', 'succeeded']);
const FAILED = new Set(['failed', 'error', 'cancelled', 'canceled']);

export const taskFinished = (status: string) => DONE.has(status.toLowerCase());
export const taskFailed = (status: string) => FAILED.has(status.toLowerCase());

export interface TaskRunner {
  start: () => Promise<{ id: string; stateURL?: string }>;
  poll: (task: { id: string; stateURL?: string }) => Promise<StorageTask>;
  sleep?: (ms: number) => Promise<void>;
  onState?: (state: StorageTask) => void;
  signal?: AbortSignal;
}

/**
 * A storage task from start to end: created, then its state read every 2 s until it is done
 * (answered) or failed (thrown as the task's own error code and message, so code 5102 can open
 * the skip-2FA dialog and partial counts reach the user).
 */
export const runStorageTask = async ({ start, poll, sleep, onState, signal }: TaskRunner): Promise<StorageTask> => {
  const wait = sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const task = await start();
  for (;;) {
    if (signal?.aborted) throw new ApiError('ABORTED', 'Request cancelled');
    const state = await poll(task);
    onState?.(state);
    if (taskFinished(state.status)) return state;
    if (taskFailed(state.status)) {
      throw new ApiError(state.errorCode ?? 'TASK_FAILED', state.errorMessage ?? 'The task failed', { ...state }, 0);
    }
    await wait(TASK_POLL_MS);
  }
};

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { StorageTask } from './files.api';
import { runStorageTask } from './storage-task';

const script = (states: Partial<StorageTask>[]) => {
  const waits: number[] = [];
  const polled: string[] = [];
  let n = 0;
  return {
    waits,
    polled,
    runner: {
      start: async () => ({ id: 't1', stateURL: '/api/users/u/storage-tasks/t1/' }),
      poll: async (task: { id: string; stateURL?: string }) => {
        polled.push(task.stateURL ?? task.id);
        return { id: 't1', status: 'running', ...states[Math.min(n++, states.length - 1)] } as StorageTask;
      },
      sleep: async (ms: number) => void waits.push(ms),
    },
  };
};

describe('storage task runner', () => {
  it('polls the state URL every 2 s until the task is done', async () => {
    const s = script([{ status: 'pending' }, { status: 'running' }, { status: 'done', downloadURL: '/api/x' }]);
    const done = await runStorageTask(s.runner);
    expect(done.downloadURL).toBe('/api/x');
    expect(s.waits).toEqual([2000, 2000]);
    expect(s.polled).toEqual(Array(3).fill('/api/users/u/storage-tasks/t1/'));
  });

  it('a failed task throws its own code and message', async () => {
    const s = script([{ status: 'failed', errorCode: 5102, errorMessage: '2FA needed' }]);
    const error = await runStorageTask(s.runner).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('5102');
    expect((error as ApiError).message).toBe('2FA needed');
    expect(s.waits).toEqual([]);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const s = script([{ status: 'running' }]);
    const run = runStorageTask({ ...s.runner, signal: controller.signal, sleep: async () => controller.abort() });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

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

  describe('code 5102 (spec §8)', () => {
    /** A task that fails with 5102 until it is started with skip2fa. */
    const needs2fa = () => {
      const starts: boolean[] = [];
      return {
        starts,
        runner: {
          start: async ({ skip2fa }: { skip2fa: boolean }) => {
            starts.push(skip2fa);
            return { id: `t${starts.length}` };
          },
          poll: async (task: { id: string }): Promise<StorageTask> =>
            starts.at(-1)
              ? { id: task.id, status: 'done', downloadURL: '/api/zip' }
              : { id: task.id, status: 'failed', errorCode: 5102, errorMessage: '2FA needed' },
          sleep: async () => undefined,
        },
      };
    };

    it('opens the skip-2FA dialog; continuing runs the task again with skip2fa', async () => {
      const s = needs2fa();
      let asked = 0;
      const done = await runStorageTask({ ...s.runner, confirmSkip2fa: async () => (++asked, true) });
      expect(asked).toBe(1);
      expect(s.starts).toEqual([false, true]);
      expect(done.downloadURL).toBe('/api/zip');
    });

    it('cancelling the dialog ends the task with its 5102 failure', async () => {
      const s = needs2fa();
      await expect(runStorageTask({ ...s.runner, confirmSkip2fa: async () => false })).rejects.toMatchObject({ code: '5102', message: '2FA needed' });
      expect(s.starts).toEqual([false]);
    });

    it('asks once: a task still failing with 5102 after skipping fails; other failures never open the dialog', async () => {
      let asked = 0;
      const always = script([{ status: 'failed', errorCode: '5102', errorMessage: 'still' }]);
      await expect(runStorageTask({ ...always.runner, confirmSkip2fa: async () => (++asked, true) })).rejects.toMatchObject({ code: '5102' });
      expect(asked).toBe(1);
      const other = script([{ status: 'failed', errorCode: 5010, errorMessage: 'Not found' }]);
      await expect(runStorageTask({ ...other.runner, confirmSkip2fa: async () => (++asked, true) })).rejects.toMatchObject({ code: '5010' });
      expect(asked).toBe(1);
    });

    it('a task refused with 5102 at creation opens the dialog too', async () => {
      const starts: boolean[] = [];
      const done = await runStorageTask({
        start: async ({ skip2fa }) => {
          starts.push(skip2fa);
          if (!skip2fa) throw new ApiError(5102, '2FA needed', null, 403);
          return { id: 't' };
        },
        poll: async () => ({ id: 't', status: 'done' }),
        confirmSkip2fa: async () => true,
      });
      expect(done.status).toBe('done');
      expect(starts).toEqual([false, true]);
    });
  });
});

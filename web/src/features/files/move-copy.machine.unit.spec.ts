import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import { type MoveCopyTask, moveCopyMachine } from './move-copy.machine';

const TARGET = { userId: 'u1', storageId: 'st1', itemIds: ['a', 'b'], destinationId: 'reports' };

const page = (opts: { refuse?: ApiError } = {}) => {
  const said: string[] = [];
  const tasks: MoveCopyTask[] = [];
  let finish: (() => void) | null = null;
  const machine = moveCopyMachine.provide({
    actors: {
      run: fromPromise<unknown, MoveCopyTask>(async ({ input }) => {
        tasks.push(input);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        if (opts.refuse) throw opts.refuse;
      }),
    },
    actions: {
      clearSelection: () => said.push('selection cleared'),
      refresh: () => said.push('refresh'),
    },
  });
  const actor = createActor(machine).start();
  return { actor, said, tasks, finish: () => finish?.() };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('copying or moving the selection', () => {
  it('opens in the mode chosen, runs that task to the folder picked, then closes and clears the selection', async () => {
    const p = page();
    p.actor.send({ type: 'OPEN', mode: 'move' });
    expect(p.actor.getSnapshot().context).toMatchObject({ open: true, mode: 'move', error: null });
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    expect(p.actor.getSnapshot().value).toBe('running');
    await settle();
    p.finish();
    await settle();
    expect(p.tasks).toEqual([{ action: 'move', ...TARGET }]);
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.actor.getSnapshot().context.open).toBe(false);
    expect(p.said).toEqual(['selection cleared', 'refresh']);
  });

  it('a refusal stays in the open dialog, keeps the selection and reads the list again', async () => {
    const p = page({ refuse: new ApiError('INSUFFICIENT_SPACE', 'Not enough space', null, 507) });
    p.actor.send({ type: 'OPEN', mode: 'copy' });
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    await settle();
    p.finish();
    await settle();
    expect(p.tasks[0]?.action).toBe('copy');
    expect(p.actor.getSnapshot().context).toMatchObject({ open: true, error: { code: 'INSUFFICIENT_SPACE' } });
    expect(p.said).toEqual(['refresh']);
  });

  it('opening again starts without the last error', async () => {
    const p = page({ refuse: new ApiError('TASK_FAILED', 'no', null, 0) });
    p.actor.send({ type: 'OPEN', mode: 'copy' });
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    await settle();
    p.finish();
    await settle();
    p.actor.send({ type: 'CLOSE' });
    p.actor.send({ type: 'OPEN', mode: 'move' });
    expect(p.actor.getSnapshot().context).toMatchObject({ open: true, mode: 'move', error: null });
  });

  it('closing the dialog while the task runs lets it finish, and a second submit waits', async () => {
    const p = page();
    p.actor.send({ type: 'OPEN', mode: 'copy' });
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    p.actor.send({ type: 'CLOSE' });
    expect(p.actor.getSnapshot().value).toBe('running');
    await settle();
    p.finish();
    await settle();
    expect(p.tasks).toHaveLength(1);
    expect(p.said).toEqual(['selection cleared', 'refresh']);
  });

  it('nothing is submitted while the dialog is closed', () => {
    const p = page();
    p.actor.send({ type: 'SUBMIT', ...TARGET });
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.tasks).toEqual([]);
  });
});

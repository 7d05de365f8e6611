import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError, type NormalisedError } from '../../api/errors';
import type { Item } from './files.api';
import { type TrashRequest, trashMachine } from './trash.machine';

const item = (id: string): Item => ({ id, name: `${id}.txt`, storageId: 'st1', label: 'file' }) as Item;
const ME = 'u1';

/** The storage tasks and what the page was told, in order. */
const page = (opts: { trashFails?: ApiError; restoreFails?: ApiError } = {}) => {
  const said: string[] = [];
  const tasks: { action: string; request: TrashRequest }[] = [];
  let finishTrash: (() => void) | null = null;
  const machine = trashMachine.provide({
    actors: {
      trash: fromPromise<unknown, TrashRequest>(async ({ input }) => {
        tasks.push({ action: 'trash', request: input });
        await new Promise<void>((resolve) => {
          finishTrash = resolve;
        });
        if (opts.trashFails) throw opts.trashFails;
      }),
      restore: fromPromise<unknown, TrashRequest>(async ({ input }) => {
        tasks.push({ action: 'restore', request: input });
        if (opts.restoreFails) throw opts.restoreFails;
      }),
    },
    actions: {
      moved: (_, request: TrashRequest) => said.push(`moved ${request.items.length}`),
      restored: (_, request: TrashRequest) => said.push(`restored ${request.items.length}`),
      restoreFailed: (_, error: NormalisedError) => said.push(`restore failed ${error.code}`),
      clearSelection: () => said.push('selection cleared'),
      refresh: () => said.push('refresh'),
    },
  });
  const actor = createActor(machine).start();
  return { actor, said, tasks, finishTrash: () => finishTrash?.() };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('moving the selection to the trash', () => {
  it('runs the trash task, tells how many moved, clears the selection and reads the list again', async () => {
    const p = page();
    p.actor.send({ type: 'TRASH', userId: ME, items: [item('a'), item('b')] });
    expect(p.actor.getSnapshot().value).toBe('trashing');
    await settle();
    p.finishTrash();
    await settle();
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.tasks).toEqual([{ action: 'trash', request: { userId: ME, items: [item('a'), item('b')] } }]);
    expect(p.said).toEqual(['moved 2', 'selection cleared', 'refresh']);
  });

  it('Undo restores the same items and says so', async () => {
    const p = page();
    p.actor.send({ type: 'TRASH', userId: ME, items: [item('a')] });
    await settle();
    p.finishTrash();
    await settle();
    p.actor.send({ type: 'UNDO', userId: ME, items: [item('a')] });
    expect(p.actor.getSnapshot().value).toBe('restoring');
    await settle();
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.tasks.map((t) => [t.action, t.request.items.map((i) => i.id)])).toEqual([
      ['trash', ['a']],
      ['restore', ['a']],
    ]);
    // a restore leaves the selection as it is
    expect(p.said).toEqual(['moved 1', 'selection cleared', 'refresh', 'restored 1', 'refresh']);
  });

  it('a refused move shows its error, clears the selection and reads the list again', async () => {
    const p = page({ trashFails: new ApiError('5102', 'Two-factor check needed', null, 403) });
    p.actor.send({ type: 'TRASH', userId: ME, items: [item('a')] });
    await settle();
    p.finishTrash();
    await settle();
    expect(p.actor.getSnapshot().context.error).toMatchObject({ code: '5102' });
    expect(p.said).toEqual(['selection cleared', 'refresh']);
  });

  it('a failed Undo is told as a notice, not as the page error', async () => {
    const p = page({ restoreFails: new ApiError('ITEM_NOT_FOUND', 'gone', null, 404) });
    p.actor.send({ type: 'UNDO', userId: ME, items: [item('a')] });
    await settle();
    expect(p.actor.getSnapshot().context.error).toBeNull();
    expect(p.said).toEqual(['restore failed ITEM_NOT_FOUND', 'refresh']);
  });

  it('the next action clears the last error, and a second move waits for the first', async () => {
    const p = page({ trashFails: new ApiError('TASK_FAILED', 'no', null, 0) });
    p.actor.send({ type: 'TRASH', userId: ME, items: [item('a')] });
    p.actor.send({ type: 'TRASH', userId: ME, items: [item('b')] });
    await settle();
    expect(p.tasks).toHaveLength(1);
    p.finishTrash();
    await settle();
    expect(p.actor.getSnapshot().context.error).not.toBeNull();
    p.actor.send({ type: 'DISMISS' });
    expect(p.actor.getSnapshot().context.error).toBeNull();
  });
});

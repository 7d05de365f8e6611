import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Item } from './files.api';
import { type NameRequest, namingMachine } from './naming.machine';

const report = { id: 'i1', name: 'report.txt', storageId: 'st1', label: 'file' } as Item;
const HERE = { userId: 'u1', storageId: 'st1', folderId: 'f1' };

const page = (opts: { refuse?: ApiError } = {}) => {
  const said: string[] = [];
  const saved: NameRequest[] = [];
  const machine = namingMachine.provide({
    actors: {
      save: fromPromise<unknown, NameRequest>(async ({ input }) => {
        saved.push(input);
        if (opts.refuse) throw opts.refuse;
      }),
    },
    actions: {
      clearSelection: () => said.push('selection cleared'),
      refresh: () => said.push('refresh'),
    },
  });
  const actor = createActor(machine).start();
  return { actor, said, saved };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('naming in the file browser', () => {
  it('renames the item selected, then closes, clears the selection and reads the list again', async () => {
    const p = page();
    p.actor.send({ type: 'RENAME', item: report });
    expect(p.actor.getSnapshot().context.naming).toEqual({ mode: 'rename', item: report });
    p.actor.send({ type: 'SUBMIT', name: 'summary.txt', ...HERE });
    expect(p.actor.getSnapshot().value).toBe('saving');
    await settle();
    expect(p.saved).toEqual([{ naming: { mode: 'rename', item: report }, name: 'summary.txt', ...HERE }]);
    expect(p.actor.getSnapshot().context.naming).toBeNull();
    expect(p.said).toEqual(['selection cleared', 'refresh']);
  });

  it('creates a folder in the folder on screen', async () => {
    const p = page();
    p.actor.send({ type: 'CREATE_FOLDER' });
    p.actor.send({ type: 'SUBMIT', name: 'Reports', ...HERE });
    await settle();
    expect(p.saved).toEqual([{ naming: { mode: 'create' }, name: 'Reports', ...HERE }]);
  });

  it("keeps the dialog open with the server's refusal, and a new dialog starts without it", async () => {
    const p = page({ refuse: new ApiError('NAME_TAKEN', 'An item with this name already exists', null, 409) });
    p.actor.send({ type: 'RENAME', item: report });
    p.actor.send({ type: 'SUBMIT', name: 'taken.txt', ...HERE });
    await settle();
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.actor.getSnapshot().context).toMatchObject({ naming: { mode: 'rename' }, error: { code: 'NAME_TAKEN' } });
    expect(p.said).toEqual([]);
    p.actor.send({ type: 'CLOSE' });
    p.actor.send({ type: 'CREATE_FOLDER' });
    expect(p.actor.getSnapshot().context).toMatchObject({ naming: { mode: 'create' }, error: null });
  });

  it('nothing is saved with the dialog closed', () => {
    const p = page();
    p.actor.send({ type: 'SUBMIT', name: 'x', ...HERE });
    expect(p.actor.getSnapshot().value).toBe('idle');
    expect(p.saved).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import type { ItemPermissions } from './permissions.api';
import { permissionsMachine, type SaveRequest } from './permissions.machine';

const PLACE = { userId: 'u1', storageId: 's1', itemId: 'folder-1' };
const answer = (grants: ItemPermissions['grants'], level: 'none' | 'view' = 'none'): ItemPermissions => ({
  itemId: 'folder-1',
  grants,
  inherited: [],
  effective: [{ userId: 'member-1', level, from: level === 'none' ? null : 'folder-1', source: level === 'none' ? 'none' : 'grant', via: null }],
});

const dialog = (server: (r: SaveRequest) => ItemPermissions) => {
  const sent: SaveRequest[] = [];
  const actor = createActor(
    permissionsMachine.provide({
      actors: {
        save: fromPromise<ItemPermissions, SaveRequest>(async ({ input }) => {
          sent.push(input);
          return server(input);
        }),
      },
    }),
  ).start();
  return { actor, sent, context: () => actor.getSnapshot().context };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the permissions dialog', () => {
  it('saves the edited grants as a whole and shows the access the server answers', async () => {
    const d = dialog((r) => answer(r.grants, 'view'));
    d.actor.send({ type: 'LOADED', answer: answer([{ userId: 'member-2', level: 'edit' }]) });
    d.actor.send({ type: 'SET_LEVEL', key: 'group:g1', level: 'view' });
    d.actor.send({ type: 'REMOVE', key: 'user:member-2' });
    d.actor.send({ type: 'SAVE', ...PLACE });
    expect(d.actor.getSnapshot().value).toBe('saving');
    await settle();
    expect(d.sent).toEqual([{ ...PLACE, grants: [{ groupId: 'g1', level: 'view' }] }]);
    expect(d.actor.getSnapshot().value).toBe('editing');
    expect(d.context().saved).toBe(true);
    expect(d.context().answer?.effective[0]?.level).toBe('view');
    // a change after the save is not saved yet
    d.actor.send({ type: 'SET_LEVEL', key: 'group:g1', level: 'download' });
    expect(d.context().saved).toBe(false);
  });

  it('keeps the draft and shows the refusal when the server refuses, and forgets everything on close', async () => {
    const d = dialog(() => {
      throw new ApiError('PERMISSION_INHERITED', 'An inherited permission cannot be lowered', null, 409);
    });
    d.actor.send({ type: 'LOADED', answer: answer([]) });
    d.actor.send({ type: 'SET_LEVEL', key: 'user:member-1', level: 'none' });
    d.actor.send({ type: 'SAVE', ...PLACE });
    await settle();
    expect(d.context().error?.code).toBe('PERMISSION_INHERITED');
    expect(d.context().draft).toEqual([{ key: 'user:member-1', level: 'none' }]);
    expect(d.context().saved).toBe(false);
    d.actor.send({ type: 'CLOSE' });
    expect(d.actor.getSnapshot().value).toBe('closed');
    expect(d.context()).toEqual({ answer: null, draft: [], error: null, saved: false });
  });
});

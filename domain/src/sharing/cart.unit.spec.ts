import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { CART_CLAIM_TIMEOUT_MS, cartDecider, type CartCommand, type CartEvent, type CartState } from './cart';

const T0 = new Date('2026-11-01T00:00:00Z');
const cmd = <T extends CartCommand['type']>(type: T, data: Extract<CartCommand, { type: T }>['data'], now = T0) =>
  ({ type, data, metadata: { now } }) as CartCommand;
const given = (commands: CartCommand[]): CartState =>
  commands.reduce((s, c) => cartDecider.decide(c, s).reduce(cartDecider.evolve, s), cartDecider.initialState());
const when = (state: CartState, c: CartCommand): CartEvent[] => cartDecider.decide(c, state);
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, status: error.status, data: error.data };
    throw error;
  }
  throw new Error('expected a refusal');
};
const opened = cmd('OpenCart', { cartId: 'c1', ownerId: 'u1', storageId: 's1' });

describe('the upload-and-share cart', () => {
  it('gathers files once each, in the order they came', () => {
    const state = given([opened, cmd('AddCartEntries', { fileIds: ['f1', 'f2'] })]);
    expect(when(state, cmd('AddCartEntries', { fileIds: ['f2', 'f3', 'f3'] }))).toEqual([{ type: 'CartEntriesAdded', data: { fileIds: ['f3'] } }]);
    expect(when(state, cmd('AddCartEntries', { fileIds: ['f1'] }))).toEqual([]);
    expect(when(state, cmd('RemoveCartEntry', { fileId: 'f1' }))).toEqual([{ type: 'CartEntryRemoved', data: { fileId: 'f1' } }]);
    expect(refusal(() => when(state, cmd('RemoveCartEntry', { fileId: 'f9' }))).code).toBe('CART_ENTRY_NOT_FOUND');
    expect(refusal(() => when(given([]), cmd('AddCartEntries', { fileIds: ['f1'] }))).code).toBe('CART_NOT_FOUND');
  });

  it('refuses to share an empty cart, with the spec message', () => {
    expect(refusal(() => when(given([opened]), cmd('StartCartShare', { attemptId: 'a1' })))).toEqual({ code: 'EMPTY_CART', status: 400, data: undefined });
    const emptied = given([opened, cmd('AddCartEntries', { fileIds: ['f1'] }), cmd('RemoveCartEntry', { fileId: 'f1' })]);
    expect(refusal(() => when(emptied, cmd('StartCartShare', { attemptId: 'a1' }))).code).toBe('EMPTY_CART');
  });

  it('becomes one share: claimed, then shared; frozen after', () => {
    const claimed = given([opened, cmd('AddCartEntries', { fileIds: ['f1'] }), cmd('StartCartShare', { attemptId: 'a1' })]);
    expect(refusal(() => when(claimed, cmd('StartCartShare', { attemptId: 'a2' }))).code).toBe('CART_SHARE_IN_PROGRESS');
    expect(refusal(() => when(claimed, cmd('AddCartEntries', { fileIds: ['f2'] }))).code).toBe('CART_SHARE_IN_PROGRESS');
    const shared = given([
      opened,
      cmd('AddCartEntries', { fileIds: ['f1'] }),
      cmd('StartCartShare', { attemptId: 'a1' }),
      cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }),
    ]);
    expect(shared).toMatchObject({ status: 'shared', shareId: 'sh1', fileIds: ['f1'] });
    expect(when(shared, cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))).toEqual([]);
    expect(refusal(() => when(shared, cmd('StartCartShare', { attemptId: 'a3' })))).toMatchObject({ code: 'CART_ALREADY_SHARED', data: { shareId: 'sh1' } });
    expect(refusal(() => when(shared, cmd('AddCartEntries', { fileIds: ['f2'] }))).code).toBe('CART_ALREADY_SHARED');
  });

  it('releases a claim whose share was refused, and lets a stale claim be taken over', () => {
    const claimed = given([opened, cmd('AddCartEntries', { fileIds: ['f1'] }), cmd('StartCartShare', { attemptId: 'a1' })]);
    const abandoned = when(claimed, cmd('AbandonCartShare', { attemptId: 'a1' }));
    expect(abandoned).toEqual([{ type: 'CartShareAbandoned', data: { attemptId: 'a1' } }]);
    expect(abandoned.reduce(cartDecider.evolve, claimed)).toMatchObject({ status: 'open', claim: null });
    expect(when(claimed, cmd('AbandonCartShare', { attemptId: 'other' }))).toEqual([]);

    const later = new Date(T0.getTime() + CART_CLAIM_TIMEOUT_MS);
    expect(when(claimed, cmd('StartCartShare', { attemptId: 'a2' }, later))[0]!.type).toBe('CartShareStarted');
    const takenOver = given([
      opened,
      cmd('AddCartEntries', { fileIds: ['f1'] }),
      cmd('StartCartShare', { attemptId: 'a1' }),
      cmd('StartCartShare', { attemptId: 'a2' }, later),
    ]);
    // the first attempt finishing late cannot close the cart the second one holds
    expect(refusal(() => when(takenOver, cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))).code).toBe('CART_SHARE_IN_PROGRESS');

    // a stale claim never freezes the cart: a change releases it first, and the late attempt cannot close it
    expect(when(claimed, cmd('AddCartEntries', { fileIds: ['f2'] }, later))).toEqual([
      { type: 'CartShareAbandoned', data: { attemptId: 'a1' } },
      { type: 'CartEntriesAdded', data: { fileIds: ['f2'] } },
    ]);
    const released = given([
      opened,
      cmd('AddCartEntries', { fileIds: ['f1'] }),
      cmd('StartCartShare', { attemptId: 'a1' }),
      cmd('RemoveCartEntry', { fileId: 'f1' }, later),
    ]);
    expect(released).toMatchObject({ status: 'open', claim: null, fileIds: [] });
    expect(refusal(() => when(released, cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))).code).toBe('CART_SHARE_IN_PROGRESS');
  });
});

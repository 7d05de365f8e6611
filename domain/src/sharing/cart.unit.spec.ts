import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import type { DomainError } from '../shared/errors';
import { CART_CLAIM_TIMEOUT_MS, CartErrors, cartDecider, type CartCommand, type CartEvent } from './cart';

const T0 = new Date('2026-11-01T00:00:00Z');
const later = new Date(T0.getTime() + CART_CLAIM_TIMEOUT_MS);
const cmd = <T extends CartCommand['type']>(type: T, data: Extract<CartCommand, { type: T }>['data'], now = T0) =>
  ({ type, data, metadata: { now } }) as CartCommand;
const opened: CartEvent = { type: 'CartOpened', data: { cartId: 'c1', ownerId: 'u1', storageId: 's1' } };
const entriesAdded = (...fileIds: string[]): CartEvent => ({ type: 'CartEntriesAdded', data: { fileIds } });
const entryRemoved = (fileId: string): CartEvent => ({ type: 'CartEntryRemoved', data: { fileId } });
const shareStarted = (attemptId: string, at = T0): CartEvent => ({ type: 'CartShareStarted', data: { attemptId, startedAt: at.toISOString() } });
const cartShared = (attemptId: string, shareId: string): CartEvent => ({ type: 'CartShared', data: { attemptId, shareId, sharedAt: T0.toISOString() } });

const given = DeciderSpecification.for(cartDecider);

describe('the upload-and-share cart', () => {
  it('gathers files once each, in the order they came', () => {
    const cart = given([opened, entriesAdded('f1', 'f2')]);
    cart.when(cmd('AddCartEntries', { fileIds: ['f2', 'f3', 'f3'] })).then([{ type: 'CartEntriesAdded', data: { fileIds: ['f3'] } }]);
    cart.when(cmd('AddCartEntries', { fileIds: ['f1'] })).thenNothingHappened();
    cart.when(cmd('RemoveCartEntry', { fileId: 'f1' })).then([{ type: 'CartEntryRemoved', data: { fileId: 'f1' } }]);
    cart.when(cmd('RemoveCartEntry', { fileId: 'f9' })).thenThrows(CartErrors.entryNotFound);
    given([])
      .when(cmd('AddCartEntries', { fileIds: ['f1'] }))
      .thenThrows(CartErrors.notFound);
  });

  it('refuses to share an empty cart, with the spec message', () => {
    const refusal = given([opened])
      .when(cmd('StartCartShare', { attemptId: 'a1' }))
      .thenThrows(CartErrors.empty);
    expect((refusal as DomainError).data).toBeUndefined();
    given([opened, entriesAdded('f1'), entryRemoved('f1')])
      .when(cmd('StartCartShare', { attemptId: 'a1' }))
      .thenThrows(CartErrors.empty);
  });

  it('becomes one share: claimed, then shared; frozen after', () => {
    const claimed = given([opened, entriesAdded('f1'), shareStarted('a1')]);
    claimed.when(cmd('StartCartShare', { attemptId: 'a2' })).thenThrows(CartErrors.sharing);
    claimed.when(cmd('AddCartEntries', { fileIds: ['f2'] })).thenThrows(CartErrors.sharing);
    claimed
      .when(cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))
      .thenState((state) => expect(state).toMatchObject({ status: 'shared', shareId: 'sh1', fileIds: ['f1'] }));
    const shared = given([opened, entriesAdded('f1'), shareStarted('a1'), cartShared('a1', 'sh1')]);
    shared.when(cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' })).thenNothingHappened();
    shared.when(cmd('StartCartShare', { attemptId: 'a3' })).thenThrows(CartErrors.alreadyShared, { shareId: 'sh1' });
    shared.when(cmd('AddCartEntries', { fileIds: ['f2'] })).thenThrows(CartErrors.alreadyShared);
  });

  it('releases a claim whose share was refused, and lets a stale claim be taken over', () => {
    const claimed = given([opened, entriesAdded('f1'), shareStarted('a1')]);
    claimed.when(cmd('AbandonCartShare', { attemptId: 'a1' })).thenState((state, events) => {
      expect(events).toEqual([{ type: 'CartShareAbandoned', data: { attemptId: 'a1' } }]);
      expect(state).toMatchObject({ status: 'open', claim: null });
    });
    claimed.when(cmd('AbandonCartShare', { attemptId: 'other' })).thenNothingHappened();

    claimed.when(cmd('StartCartShare', { attemptId: 'a2' }, later)).then((events) => expect(events[0]!.type).toBe('CartShareStarted'));
    // the first attempt finishing late cannot close the cart the second one holds
    given([opened, entriesAdded('f1'), shareStarted('a1'), shareStarted('a2', later)])
      .when(cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))
      .thenThrows(CartErrors.sharing);

    // a stale claim never freezes the cart: a change releases it first, and the late attempt cannot close it
    claimed.when(cmd('AddCartEntries', { fileIds: ['f2'] }, later)).then([
      { type: 'CartShareAbandoned', data: { attemptId: 'a1' } },
      { type: 'CartEntriesAdded', data: { fileIds: ['f2'] } },
    ]);
    claimed
      .when(cmd('RemoveCartEntry', { fileId: 'f1' }, later))
      .thenState((state) => expect(state).toMatchObject({ status: 'open', claim: null, fileIds: [] }));
    given([opened, entriesAdded('f1'), shareStarted('a1'), { type: 'CartShareAbandoned', data: { attemptId: 'a1' } }, entryRemoved('f1')])
      .when(cmd('FinishCartShare', { attemptId: 'a1', shareId: 'sh1' }))
      .thenThrows(CartErrors.sharing);
  });
});

import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { CommonErrors, DomainError, defineErrors } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';
import { MAX_SHARE_ITEMS } from './sharing.rules';

/*
 * Upload-and-share (spec §3 Upload item with upload_type share, §4 "done items move to the cart"):
 * a cart gathers files the owner uploaded into their online storage until they become one share.
 * A cart becomes a share once: sharing claims it first (one claim at a time, expected revision),
 * then the share is created, then the cart records it; a failed create releases the claim.
 */

export const cartStreamName = (cartId: string) => `cart-${cartId}`;
/** A claim left by a crashed request may be taken over after this long. */
export const CART_CLAIM_TIMEOUT_MS = 2 * 60_000;
/** A cart becomes one share: it holds at most what a share holds. */
export const MAX_CART_ENTRIES = MAX_SHARE_ITEMS;

export const CartErrors = defineErrors({
  notFound: { code: 'CART_NOT_FOUND', status: 404, message: 'Cart not found' },
  empty: { code: 'EMPTY_CART', status: 400, message: 'The cart is empty' },
  entryNotFound: { code: 'CART_ENTRY_NOT_FOUND', status: 404, message: 'This file is not in the cart' },
  alreadyShared: { code: 'CART_ALREADY_SHARED', status: 409, message: 'This cart has already been shared' },
  sharing: { code: 'CART_SHARE_IN_PROGRESS', status: 409, message: 'This cart is being shared' },
  tooManyEntries: { code: 'CART_TOO_MANY_ENTRIES', status: 400, message: 'A cart holds at most {{max}} files' },
});

export const CartOpened = defineEvent('CartOpened', z.object({ cartId: z.string(), ownerId: z.string(), storageId: z.string() }));
export const CartEntriesAdded = defineEvent('CartEntriesAdded', z.object({ fileIds: z.array(z.string()) }));
export const CartEntryRemoved = defineEvent('CartEntryRemoved', z.object({ fileId: z.string() }));
export const CartShareStarted = defineEvent('CartShareStarted', z.object({ attemptId: z.string(), startedAt: z.string() }));
export const CartShareAbandoned = defineEvent('CartShareAbandoned', z.object({ attemptId: z.string() }));
export const CartShared = defineEvent('CartShared', z.object({ attemptId: z.string(), shareId: z.string(), sharedAt: z.string() }));

export const cartEventDefinitions = [CartOpened, CartEntriesAdded, CartEntryRemoved, CartShareStarted, CartShareAbandoned, CartShared];
export type CartEvent =
  | EventOf<typeof CartOpened>
  | EventOf<typeof CartEntriesAdded>
  | EventOf<typeof CartEntryRemoved>
  | EventOf<typeof CartShareStarted>
  | EventOf<typeof CartShareAbandoned>
  | EventOf<typeof CartShared>;

export type CartCommand =
  | Command<'OpenCart', { cartId: string; ownerId: string; storageId: string }>
  | Command<'AddCartEntries', { fileIds: readonly string[] }>
  | Command<'RemoveCartEntry', { fileId: string }>
  | Command<'StartCartShare', { attemptId: string }>
  | Command<'AbandonCartShare', { attemptId: string }>
  | Command<'FinishCartShare', { attemptId: string; shareId: string }>;

export type CartState =
  | { readonly status: 'none' }
  | {
      readonly status: 'open' | 'sharing' | 'shared';
      readonly id: string;
      readonly ownerId: string;
      readonly storageId: string;
      /** In the order they were added. */
      readonly fileIds: readonly string[];
      readonly claim: { readonly attemptId: string; readonly startedAt: string } | null;
      readonly shareId: string | null;
    };

type Existing = Exclude<CartState, { status: 'none' }>;

const existing = (state: CartState): Existing => {
  if (state.status === 'none') throw new DomainError(CartErrors.notFound);
  return state;
};
const isStale = (claim: { startedAt: string } | null, now: Date) => claim !== null && now.getTime() - Date.parse(claim.startedAt) >= CART_CLAIM_TIMEOUT_MS;

/**
 * The cart as it may still change: not shared, not being shared. A claim left by a crashed request
 * is released first (the events to append before the change), so the cart never stays frozen.
 */
const open = (state: CartState, now: Date): { cart: Existing; release: CartEvent[] } => {
  const cart = existing(state);
  if (cart.status === 'shared') throw new DomainError(CartErrors.alreadyShared, { shareId: cart.shareId });
  if (cart.status === 'sharing') {
    if (!isStale(cart.claim, now)) throw new DomainError(CartErrors.sharing);
    return { cart, release: [{ type: 'CartShareAbandoned', data: { attemptId: cart.claim!.attemptId } }] };
  }
  return { cart, release: [] };
};

const decide = (command: CartCommand, state: CartState): CartEvent[] => {
  switch (command.type) {
    case 'OpenCart': {
      const { cartId, ownerId, storageId } = command.data;
      if (state.status !== 'none') {
        if (state.ownerId === ownerId) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      return [{ type: 'CartOpened', data: { cartId, ownerId, storageId } }];
    }
    case 'AddCartEntries': {
      const { cart, release } = open(state, command.metadata.now);
      const fresh = [...new Set(command.data.fileIds)].filter((id) => !cart.fileIds.includes(id));
      if (fresh.length === 0) return [];
      if (cart.fileIds.length + fresh.length > MAX_CART_ENTRIES) throw new DomainError(CartErrors.tooManyEntries, { max: MAX_CART_ENTRIES });
      return [...release, { type: 'CartEntriesAdded', data: { fileIds: fresh } }];
    }
    case 'RemoveCartEntry': {
      const { cart, release } = open(state, command.metadata.now);
      if (!cart.fileIds.includes(command.data.fileId)) throw new DomainError(CartErrors.entryNotFound);
      return [...release, { type: 'CartEntryRemoved', data: { fileId: command.data.fileId } }];
    }
    case 'StartCartShare': {
      const cart = existing(state);
      if (cart.status === 'shared') throw new DomainError(CartErrors.alreadyShared, { shareId: cart.shareId });
      if (cart.status === 'sharing' && cart.claim) {
        if (cart.claim.attemptId === command.data.attemptId) return [];
        if (!isStale(cart.claim, command.metadata.now)) throw new DomainError(CartErrors.sharing);
      }
      if (cart.fileIds.length === 0) throw new DomainError(CartErrors.empty);
      return [{ type: 'CartShareStarted', data: { attemptId: command.data.attemptId, startedAt: command.metadata.now.toISOString() } }];
    }
    case 'AbandonCartShare': {
      const cart = existing(state);
      if (cart.status !== 'sharing' || cart.claim?.attemptId !== command.data.attemptId) return [];
      return [{ type: 'CartShareAbandoned', data: { attemptId: command.data.attemptId } }];
    }
    case 'FinishCartShare': {
      const cart = existing(state);
      if (cart.status === 'shared') {
        if (cart.shareId === command.data.shareId) return [];
        throw new DomainError(CartErrors.alreadyShared, { shareId: cart.shareId });
      }
      // the claim was taken over by a later attempt: this one must not close the cart
      if (cart.claim?.attemptId !== command.data.attemptId) throw new DomainError(CartErrors.sharing);
      return [{ type: 'CartShared', data: { attemptId: command.data.attemptId, shareId: command.data.shareId, sharedAt: command.metadata.now.toISOString() } }];
    }
    default:
      return assertNever(command);
  }
};

const evolve = (state: CartState, event: CartEvent): CartState => {
  if (event.type === 'CartOpened')
    return { status: 'open', id: event.data.cartId, ownerId: event.data.ownerId, storageId: event.data.storageId, fileIds: [], claim: null, shareId: null };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CartEntriesAdded':
      return { ...state, fileIds: [...state.fileIds, ...event.data.fileIds.filter((id) => !state.fileIds.includes(id))] };
    case 'CartEntryRemoved':
      return { ...state, fileIds: state.fileIds.filter((id) => id !== event.data.fileId) };
    case 'CartShareStarted':
      return { ...state, status: 'sharing', claim: { attemptId: event.data.attemptId, startedAt: event.data.startedAt } };
    case 'CartShareAbandoned':
      return { ...state, status: 'open', claim: null };
    case 'CartShared':
      return { ...state, status: 'shared', claim: null, shareId: event.data.shareId };
    default:
      return state;
  }
};

export const cartDecider: Decider<CartCommand, CartEvent, CartState> = {
  initialState: () => ({ status: 'none' }),
  decide,
  evolve,
};

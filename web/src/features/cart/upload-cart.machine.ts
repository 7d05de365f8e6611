import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { Share } from '../sharing/sharing.types';
import type { CartCost, CartEntry, CartShareFields } from './cart.api';

/**
 * The upload cart (spec §2 Upload cart, §4 "done items move to the cart"): a cart is opened, each
 * file whose upload is done joins it, the cart shows its files and what sharing them would count
 * (the 10 MiB rule, the month's shares left), and SHARE makes them one share. Files saved while a
 * call runs wait their turn, so none is lost; a refused share (an empty cart, a file too large, the
 * month used up) leaves the cart as it was, with the message.
 */
export interface UploadCartContext {
  cartId: string | null;
  entries: CartEntry[];
  cost: CartCost | null;
  /** Saved files not yet in the cart. */
  waiting: string[];
  error: NormalisedError | null;
  share: Share | null;
}

export type UploadCartEvent =
  | { type: 'SAVED'; fileId: string }
  | { type: 'REMOVE'; fileId: string }
  | { type: 'SHARE'; fields: CartShareFields }
  | { type: 'DISMISS' };

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

export const uploadCartMachine = setup({
  types: { context: {} as UploadCartContext, events: {} as UploadCartEvent },
  actors: {
    open: fromPromise<{ id: string }>(async () => {
      throw new Error('open not provided');
    }),
    add: fromPromise<CartEntry[], { cartId: string; fileIds: string[] }>(async () => {
      throw new Error('add not provided');
    }),
    remove: fromPromise<void, { cartId: string; fileId: string }>(async () => {
      throw new Error('remove not provided');
    }),
    load: fromPromise<{ entries: CartEntry[]; cost: CartCost }, { cartId: string }>(async () => {
      throw new Error('load not provided');
    }),
    share: fromPromise<Share, { cartId: string; fields: CartShareFields }>(async () => {
      throw new Error('share not provided');
    }),
  },
  guards: {
    hasWaiting: ({ context }) => context.waiting.length > 0,
  },
}).createMachine({
  id: 'uploadCart',
  context: { cartId: null, entries: [], cost: null, waiting: [], error: null, share: null },
  initial: 'opening',
  on: {
    SAVED: {
      actions: assign({ waiting: ({ context, event }) => (context.waiting.includes(event.fileId) ? context.waiting : [...context.waiting, event.fileId]) }),
    },
    DISMISS: { actions: assign({ error: null }) },
  },
  states: {
    opening: {
      invoke: {
        src: 'open',
        onDone: { target: 'refreshing', actions: assign({ cartId: ({ event }) => event.output.id }) },
        onError: { target: 'broken', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    idle: {
      always: { guard: 'hasWaiting', target: 'adding' },
      on: {
        REMOVE: 'removing',
        SHARE: 'sharing',
      },
    },
    adding: {
      entry: assign({ error: null }),
      invoke: {
        src: 'add',
        input: ({ context }) => ({ cartId: context.cartId!, fileIds: context.waiting }),
        onDone: {
          target: 'refreshing',
          actions: assign({
            entries: ({ event }) => event.output,
            waiting: ({ context, event }) => context.waiting.filter((id) => !event.output.some((e) => e.id === id)),
          }),
        },
        // the files stay in the storage; the cart says why they did not join
        onError: { target: 'refreshing', actions: assign({ error: ({ event }) => errorOf(event), waiting: [] }) },
      },
    },
    removing: {
      invoke: {
        src: 'remove',
        input: ({ context, event }) => ({ cartId: context.cartId!, fileId: (event as Extract<UploadCartEvent, { type: 'REMOVE' }>).fileId }),
        onDone: 'refreshing',
        onError: { target: 'refreshing', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    refreshing: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ cartId: context.cartId! }),
        onDone: { target: 'idle', actions: assign({ entries: ({ event }) => event.output.entries, cost: ({ event }) => event.output.cost }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    sharing: {
      entry: assign({ error: null }),
      invoke: {
        src: 'share',
        input: ({ context, event }) => ({ cartId: context.cartId!, fields: (event as Extract<UploadCartEvent, { type: 'SHARE' }>).fields }),
        onDone: { target: 'shared', actions: assign({ share: ({ event }) => event.output }) },
        onError: { target: 'refreshing', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    shared: { type: 'final' },
    broken: { type: 'final' },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { AppNotification } from '../../api/types';

/** Page size of the notifications list (specification section 9). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export interface NotificationsContext {
  items: AppNotification[];
  allRetrieved: boolean;
  error: NormalisedError | null;
  deletingId: string | null;
}

export type NotificationsEvent = { type: 'OPEN' } | { type: 'LOAD_MORE' } | { type: 'DELETE'; id: string };

const unseenIds = (items: AppNotification[]) => items.filter((n) => !n.seen).map((n) => n.id);
const fail = ({ event }: { event: { type: string } }) => ({
  error: toApiError('error' in event ? (event as { error: unknown }).error : event).toJSON(),
});

/**
 * The notifications list: opening resets it and loads the first page; each further page starts
 * after the last id held; fewer than 20 back means all are retrieved. Unseen ones that were
 * loaded are marked seen. Actors: fetchPage, markSeen, remove.
 */
export const notificationsMachine = setup({
  types: { context: {} as NotificationsContext, events: {} as NotificationsEvent },
  actors: {
    fetchPage: fromPromise<AppNotification[], { startFrom?: string; perPage: number }>(async () => {
      throw new Error('fetchPage actor not provided');
    }),
    markSeen: fromPromise<void, { ids: string[] }>(async () => {
      throw new Error('markSeen actor not provided');
    }),
    remove: fromPromise<void, { ids: string[] }>(async () => {
      throw new Error('remove actor not provided');
    }),
  },
  actions: {
    /** The unseen count changed on the server; the header refreshes its bell. */
    unseenChanged: () => {},
  },
  guards: {
    hasUnseen: ({ context }) => unseenIds(context.items).length > 0,
    moreToLoad: ({ context }) => !context.allRetrieved,
  },
}).createMachine({
  id: 'notifications',
  context: { items: [], allRetrieved: false, error: null, deletingId: null },
  initial: 'closed',
  on: {
    OPEN: { target: '.loading', actions: assign({ items: [], allRetrieved: false, error: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ startFrom: context.items.at(-1)?.id, perPage: NOTIFICATIONS_PAGE_SIZE }),
        onDone: {
          target: 'checkingSeen',
          actions: assign(({ context, event }) => ({
            items: [...context.items, ...event.output.filter((n) => !context.items.some((i) => i.id === n.id))],
            allRetrieved: event.output.length < NOTIFICATIONS_PAGE_SIZE,
          })),
        },
        onError: { target: 'ready', actions: assign(fail) },
      },
    },
    checkingSeen: { always: [{ guard: 'hasUnseen', target: 'markingSeen' }, { target: 'ready' }] },
    markingSeen: {
      invoke: {
        src: 'markSeen',
        input: ({ context }) => ({ ids: unseenIds(context.items) }),
        onDone: {
          target: 'ready',
          actions: [assign(({ context }) => ({ items: context.items.map((n) => ({ ...n, seen: true })) })), 'unseenChanged'],
        },
        onError: { target: 'ready', actions: assign(fail) },
      },
    },
    ready: {
      on: {
        LOAD_MORE: { guard: 'moreToLoad', target: 'loading', actions: assign({ error: null }) },
        DELETE: { target: 'deleting', actions: assign(({ event }) => ({ error: null, deletingId: event.id })) },
      },
    },
    deleting: {
      invoke: {
        src: 'remove',
        input: ({ context }) => ({ ids: context.deletingId ? [context.deletingId] : [] }),
        onDone: {
          target: 'ready',
          actions: assign(({ context }) => ({ items: context.items.filter((n) => n.id !== context.deletingId), deletingId: null })),
        },
        onError: { target: 'ready', actions: [assign(fail), assign({ deletingId: null })] },
      },
    },
  },
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AppNotification } from '../../api/types';
import { notificationsMachine, NOTIFICATIONS_PAGE_SIZE } from './notifications.machine';

const note = (i: number, seen = false): AppNotification => ({
  id: `n${String(i).padStart(3, '0')}`,
  type: 'info',
  title: `t${i}`,
  body: '',
  seen,
  createdAt: new Date(2030, 0, 1, 0, i).toISOString(),
});

const start = (all: AppNotification[]) => {
  const server = { all: [...all], pages: [] as (string | undefined)[], seen: [] as string[][], removed: [] as string[][] };
  let unseenChanged = 0;
  const actor = createActor(
    notificationsMachine.provide({
      actors: {
        fetchPage: fromPromise<AppNotification[], { startFrom?: string; perPage: number }>(async ({ input }) => {
          server.pages.push(input.startFrom);
          const from = input.startFrom ? server.all.findIndex((n) => n.id === input.startFrom) + 1 : 0;
          return server.all.slice(from, from + input.perPage);
        }),
        markSeen: fromPromise<void, { ids: string[] }>(async ({ input }) => {
          server.seen.push(input.ids);
          server.all = server.all.map((n) => (input.ids.includes(n.id) ? { ...n, seen: true } : n));
        }),
        remove: fromPromise<void, { ids: string[] }>(async ({ input }) => {
          server.removed.push(input.ids);
          server.all = server.all.filter((n) => !input.ids.includes(n.id));
        }),
      },
      actions: { unseenChanged: () => void unseenChanged++ },
    }),
  ).start();
  return { actor, server, unseen: () => unseenChanged };
};

describe('notifications machine', () => {
  it('opening loads 20, marks the unseen ones seen and knows more may follow', async () => {
    const { actor, server, unseen } = start(Array.from({ length: 45 }, (_, i) => note(i, i % 2 === 0)));
    actor.send({ type: 'OPEN' });
    const snap = await waitFor(actor, (s) => s.matches('ready'));
    expect(snap.context.items).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    expect(snap.context.allRetrieved).toBe(false);
    expect(snap.context.items.every((n) => n.seen)).toBe(true);
    expect(server.pages).toEqual([undefined]);
    expect(server.seen).toEqual([Array.from({ length: 10 }, (_, k) => note(2 * k + 1).id)]);
    expect(unseen()).toBe(1);
  });

  it('pages with startFrom the last id and sets all-retrieved when fewer than 20 return', async () => {
    const { actor, server } = start(Array.from({ length: 45 }, (_, i) => note(i, true)));
    actor.send({ type: 'OPEN' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 40);
    actor.send({ type: 'LOAD_MORE' });
    const snap = await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 45);
    expect(snap.context.allRetrieved).toBe(true);
    expect(server.pages).toEqual([undefined, 'n019', 'n039']);
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(server.seen).toEqual([]);
  });

  it('deletes one notification', async () => {
    const { actor, server } = start([note(1, true), note(2, true)]);
    actor.send({ type: 'OPEN' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'DELETE', id: 'n001' });
    const snap = await waitFor(actor, (s) => s.matches('ready'));
    expect(snap.context.items.map((n) => n.id)).toEqual(['n002']);
    expect(server.removed).toEqual([['n001']]);
  });

  it('opening again resets the list', async () => {
    const { actor, server } = start(Array.from({ length: 30 }, (_, i) => note(i, true)));
    actor.send({ type: 'OPEN' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.allRetrieved);
    actor.send({ type: 'OPEN' });
    const snap = await waitFor(actor, (s) => s.matches('ready'));
    expect(snap.context.items).toHaveLength(20);
    expect(snap.context.allRetrieved).toBe(false);
    expect(server.pages).toEqual([undefined, 'n019', undefined]);
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Share } from '../sharing/sharing.types';
import type { CartCost, CartEntry, CartShareFields } from './cart.api';
import { uploadCartMachine } from './upload-cart.machine';

const entry = (id: string, size = 10): CartEntry => ({ id, name: `${id}.txt`, size, mime: 'text/plain', state: 'ready' });

/** A cart server kept in memory: what the routes answer, with a gate to hold an add while files keep arriving. */
const server = () => {
  const files: CartEntry[] = [];
  const calls: string[][] = [];
  let release: (() => void) | null = null;
  const cost = (): CartCost => ({
    filesCount: files.length,
    totalSize: files.reduce((n, f) => n + f.size, 0),
    largestFileSize: Math.max(0, ...files.map((f) => f.size)),
    maxFileSize: 100,
    oversizedFileIds: files.filter((f) => f.size > 100).map((f) => f.id),
    missingFileIds: [],
    sharesUsed: 0,
    sharesLimit: 5,
    sharesLeft: 5,
    refused: files.length === 0 || files.some((f) => f.size > 100),
    reasons: files.length === 0 ? ['EMPTY_CART'] : [],
  });
  const actors = {
    open: fromPromise<{ id: string }>(async () => ({ id: 'cart-1' })),
    add: fromPromise<CartEntry[], { cartId: string; fileIds: string[] }>(async ({ input }) => {
      calls.push(input.fileIds);
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
      for (const id of input.fileIds) if (!files.some((f) => f.id === id)) files.push(entry(id, id === 'big' ? 500 : 10));
      return [...files];
    }),
    remove: fromPromise<void, { cartId: string; fileId: string }>(async ({ input }) => {
      files.splice(
        files.findIndex((f) => f.id === input.fileId),
        1,
      );
    }),
    load: fromPromise<{ entries: CartEntry[]; cost: CartCost }, { cartId: string }>(async () => ({ entries: [...files], cost: cost() })),
    share: fromPromise<Share, { cartId: string; fields: CartShareFields }>(async ({ input }) => {
      if (files.length === 0) throw new ApiError('EMPTY_CART', 'The cart is empty', null, 400);
      if (files.some((f) => f.size > 100)) throw new ApiError('SHARED_FILE_TOO_LARGE', 'Each shared file is limited to 10 MiB on your plan', null, 413);
      return { id: 'share-1', shareLinkId: 'x'.repeat(22), kind: 'public', title: input.fields.title } as Share;
    }),
  };
  return { actors, calls, files, release: () => release?.() };
};

const start = (s: ReturnType<typeof server>) => createActor(uploadCartMachine.provide({ actors: s.actors })).start();
const idle = (actor: ReturnType<typeof start>) => waitFor(actor, (snap) => snap.matches('idle'));

describe('the upload cart', () => {
  it('takes every saved file, even those saved while an add is running', async () => {
    const s = server();
    const actor = start(s);
    await idle(actor);
    expect(actor.getSnapshot().context.cost?.reasons).toEqual(['EMPTY_CART']);
    actor.send({ type: 'SAVED', fileId: 'a' });
    await waitFor(actor, (snap) => snap.matches('adding'));
    actor.send({ type: 'SAVED', fileId: 'b' });
    actor.send({ type: 'SAVED', fileId: 'c' });
    s.release();
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.waiting.length === 0);
    expect(s.calls).toEqual([['a'], ['b', 'c']]);
    expect(actor.getSnapshot().context.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(actor.getSnapshot().context.cost).toMatchObject({ filesCount: 3, totalSize: 30 });
  });

  it('a refused share leaves the cart with the message; taking the file out lets it share', async () => {
    const s = server();
    const actor = start(s);
    await idle(actor);
    actor.send({ type: 'SAVED', fileId: 'big' });
    s.release();
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.entries.length === 1);
    expect(actor.getSnapshot().context.cost?.oversizedFileIds).toEqual(['big']);
    actor.send({ type: 'SHARE', fields: { title: 'Holiday', downloadable: true } });
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.error !== null);
    expect(actor.getSnapshot().context.error?.code).toBe('SHARED_FILE_TOO_LARGE');
    actor.send({ type: 'REMOVE', fileId: 'big' });
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.entries.length === 0);
    actor.send({ type: 'SHARE', fields: { title: 'Holiday', downloadable: true } });
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.error !== null);
    expect(actor.getSnapshot().context.error?.code).toBe('EMPTY_CART');
    actor.send({ type: 'SAVED', fileId: 'small' });
    await waitFor(actor, (snap) => snap.matches('idle') && snap.context.entries.length === 1);
    actor.send({ type: 'SHARE', fields: { title: 'Holiday', downloadable: true } });
    await waitFor(actor, (snap) => snap.status === 'done');
    expect(actor.getSnapshot().value).toBe('shared');
    expect(actor.getSnapshot().context.share).toMatchObject({ id: 'share-1', title: 'Holiday' });
  });
});

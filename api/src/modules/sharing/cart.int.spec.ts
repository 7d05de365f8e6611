import { SHARED_FILE_MAX_BYTES } from '@axel/domain';
import { liveTables, rebuildProjection } from '@axel/projections';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient } from '../../testing/harness';
import { storageTestApp } from '../files/storage.testing';

const { t, bytes } = storageTestApp();
const { signedInUser } = accountHelpers(t);

/** A signed-in user who uploads into their online storage and gathers files in a cart. */
const uploader = async () => {
  const { http, id, storageId } = await signedInUser();
  const base = `/api/users/${id}/storages/${storageId}`;
  const upload = async (name: string, content: string, claimedSize?: number) => {
    const uploadId = bytes.upload(id, storageId, content, claimedSize);
    const res = await http.post(`${base}/items/`, { label: 'file', name, uploadId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const cart = async () => {
    const res = await http.post('/api/carts/', {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  return { http, id, storageId, base, upload, cart };
};

describe('upload-and-share cart', () => {
  it('gathers uploaded files, tells what the share would count, and becomes one share', async () => {
    const u = await uploader();
    const cartId = await u.cart();
    expect((await u.http.get(`/api/carts/${cartId}`)).body).toMatchObject({ id: cartId, status: 'open', shareId: null, storageId: u.storageId, filesCount: 0 });

    const a = await u.upload('a.txt', 'aaaa');
    const b = await u.upload('b.pdf', 'bbbbbbbb');
    const added = await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [a, b, a] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.map((e: { id: string; name: string; size: number; state: string }) => [e.id, e.name, e.size, e.state])).toEqual([
      [a, 'a.txt', 4, 'ready'],
      [b, 'b.pdf', 8, 'ready'],
    ]);
    expect((await u.http.get(`/api/carts/${cartId}/entries`)).body.totalCount).toBe(2);

    const cost = await u.http.get(`/api/carts/${cartId}/cost/`);
    expect(cost.body.cost).toEqual({
      filesCount: 2,
      totalSize: 12,
      largestFileSize: 8,
      maxFileSize: SHARED_FILE_MAX_BYTES,
      oversizedFileIds: [],
      missingFileIds: [],
      sharesUsed: 0,
      sharesLimit: 5,
      sharesLeft: 5,
      refused: false,
      reasons: [],
    });

    const shared = await u.http.post(`/api/carts/${cartId}/share`, { title: 'Uploaded for you', downloadable: true });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    expect(shared.body).toMatchObject({
      title: 'Uploaded for you',
      totalSize: 12,
      items: [
        { id: a, kind: 'file' },
        { id: b, kind: 'file' },
      ],
    });
    const shareId = shared.body.id as string;

    expect((await u.http.get(`/api/carts/${cartId}`)).body).toMatchObject({ status: 'shared', shareId });
    const fromShare = await u.http.get(`/api/shares/${shareId}/cart/`);
    expect(fromShare.status, JSON.stringify(fromShare.body)).toBe(200);
    expect(fromShare.body).toMatchObject({ id: cartId, status: 'shared', shareId, entries: [{ id: a }, { id: b }] });
    expect((await u.http.get(`/api/carts/${cartId}/cost/`)).body.cost).toMatchObject({ sharesUsed: 1, sharesLeft: 4, reasons: ['CART_ALREADY_SHARED'] });

    // a shared cart is frozen: no second share, no more files
    const twice = await u.http.post(`/api/carts/${cartId}/share`, { title: 'Again', downloadable: true });
    expect([twice.status, twice.body.code, twice.body.data]).toEqual([409, 'CART_ALREADY_SHARED', { shareId }]);
    expect((await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [await u.upload('c.txt', 'c')] })).body.code).toBe('CART_ALREADY_SHARED');
    expect((await u.http.get('/api/shares/user-plan-count/')).body.count).toBe(1);
  });

  it('refuses an empty cart with the spec message, and never counts a refused share', async () => {
    const u = await uploader();
    const cartId = await u.cart();
    expect((await u.http.get(`/api/carts/${cartId}/cost/`)).body.cost).toMatchObject({ filesCount: 0, refused: true, reasons: ['EMPTY_CART'] });
    const empty = await u.http.post(`/api/carts/${cartId}/share`, { title: 'Nothing', downloadable: true });
    expect([empty.status, empty.body.code, empty.body.message]).toEqual([400, 'EMPTY_CART', 'The cart is empty']);

    // too large for Basic: the 10 MiB rule refuses the share and releases the cart
    const big = await u.upload('big.bin', 'x', SHARED_FILE_MAX_BYTES + 1);
    await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [big] });
    expect((await u.http.get(`/api/carts/${cartId}/cost/`)).body.cost).toMatchObject({
      oversizedFileIds: [big],
      refused: true,
      reasons: ['SHARED_FILE_TOO_LARGE'],
    });
    const tooLarge = await u.http.post(`/api/carts/${cartId}/share`, { title: 'Big', downloadable: true });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'SHARED_FILE_TOO_LARGE']);
    expect((await u.http.get(`/api/carts/${cartId}`)).body.status).toBe('open');

    // taken out again, a small file in: it shares
    expect((await u.http.delete(`/api/carts/${cartId}/entries/${big}`)).status).toBe(204);
    expect((await u.http.delete(`/api/carts/${cartId}/entries/${big}`)).body.code).toBe('CART_ENTRY_NOT_FOUND');
    await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [await u.upload('small.txt', 'small')] });
    expect((await u.http.post(`/api/carts/${cartId}/share`, { title: 'Small', downloadable: true })).status).toBe(201);
    expect((await u.http.get('/api/shares/user-plan-count/')).body.count).toBe(1);
  });

  it('takes only live files of the own storage, and is the owner’s alone', async () => {
    const u = await uploader();
    const cartId = await u.cart();
    const folder = await u.http.post(`${u.base}/items/`, { label: 'folder', name: 'Folder' });
    expect((await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [folder.body.id] })).status).toBe(404);
    const other = await uploader();
    const foreign = await other.upload('theirs.txt', 'not yours');
    expect((await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [foreign] })).status).toBe(404);

    const mine = await u.upload('mine.txt', 'mine');
    await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [mine] });
    for (const res of [
      await other.http.get(`/api/carts/${cartId}`),
      await other.http.get(`/api/carts/${cartId}/entries`),
      await other.http.get(`/api/carts/${cartId}/cost/`),
      await other.http.post(`/api/carts/${cartId}/entries`, { fileIds: [foreign] }),
      await other.http.post(`/api/carts/${cartId}/share`, { title: 'Steal', downloadable: true }),
    ])
      expect([res.status, res.body.code]).toEqual([404, 'CART_NOT_FOUND']);
    expect((await new HttpClient(t().url).post('/api/carts/', {})).status).toBe(401);
    expect((await u.http.get('/api/carts/not-a-uuid/entries')).status).toBe(400);

    // a file trashed after it was added shows as trashed and is counted as missing
    const task = await u.http.post(`/api/users/${u.id}/storage-tasks/`, { action: 'trash', itemIds: [mine] });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    await u.http.get(task.body.stateURL);
    expect((await u.http.get(`/api/carts/${cartId}/entries`)).body.data[0]).toMatchObject({ id: mine, state: 'trashed' });
    expect((await u.http.get(`/api/carts/${cartId}/cost/`)).body.cost).toMatchObject({ filesCount: 0, missingFileIds: [mine], refused: true });

    // a share not made from a cart has none; someone else's share is not found
    const direct = await u.http.post('/api/shares/', { itemIds: [await u.upload('d.txt', 'd')], title: 'Direct', downloadable: true });
    expect((await u.http.get(`/api/shares/${direct.body.id}/cart/`)).body.code).toBe('CART_NOT_FOUND');
    expect((await other.http.get(`/api/shares/${direct.body.id}/cart/`)).body.code).toBe('SHARE_NOT_FOUND');
  });

  it('shares a cart once when two requests race for it', async () => {
    const u = await uploader();
    const cartId = await u.cart();
    await u.http.post(`/api/carts/${cartId}/entries`, { fileIds: [await u.upload('race.txt', 'race')] });
    const answers = await Promise.all([1, 2, 3].map((n) => u.http.post(`/api/carts/${cartId}/share`, { title: `Race ${n}`, downloadable: true })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of answers.filter((r) => r.status !== 201)) expect(['CART_SHARE_IN_PROGRESS', 'CART_ALREADY_SHARED']).toContain(r.body.code);
    expect((await u.http.get('/api/shares/user-plan-count/')).body.count).toBe(1);
  });

  it('rebuilds the carts read model to the very same rows', async () => {
    const projection = t().app.ctx.runner.projections.find((p) => p.name === 'carts')!;
    const rows = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of Object.values(liveTables(projection))) out[table] = (await t().app.ctx.pool.query(`select * from "${table}" order by id`)).rows;
      return out;
    };
    const before = await rows();
    expect(before.carts!.length).toBeGreaterThan(3);
    await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    expect(await rows()).toEqual(before);
  });
});

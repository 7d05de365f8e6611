import { randomUUID } from 'node:crypto';
import { bookmarksStreamName, type BookmarkEvent } from '@axel/domain';
import { expected, metadataFor, newId } from '@axel/platform';
import { liveTables, rebuildProjection } from '@axel/projections';
import { describe, expect, it, vi } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient } from '../../testing/harness';
import { storageTestApp } from '../files/storage.testing';

const { t, bytes } = storageTestApp();
const { signUpConfirmed, signIn } = accountHelpers(t);
const at = (path: string, query: Record<string, string | number>) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

const user = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  return { http, email, id };
};

/** A share owner with a file to share; `share(title)` answers the new share (its linkId). */
const sharer = async () => {
  const u = await user();
  const storages = await u.http.get(`/api/users/${u.id}/storages/`);
  const storageId = storages.body.data[0].id as string;
  const uploadId = bytes.upload(u.id, storageId, 'shared bytes');
  const file = await u.http.post(`/api/users/${u.id}/storages/${storageId}/items/`, { label: 'file', name: 'doc.txt', uploadId });
  expect(file.status, JSON.stringify(file.body)).toBe(201);
  const share = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await u.http.post('/api/shares/', { itemIds: [file.body.id], title, downloadable: true, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; shareLinkId: string; title: string };
  };
  return { ...u, share };
};

describe('bookmarks', () => {
  it('bookmarks a share by its link, described by its title; renames, deletes; for its owner only', async () => {
    const owner = await sharer();
    const s = await owner.share('Quarterly report');
    const me = await user();
    const added = await me.http.post('/api/bookmarks', { shareLinkId: s.shareLinkId });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ shareId: s.id, shareLinkId: s.shareLinkId, bookmarkListId: null, description: 'Quarterly report' });
    const id = added.body.id as string;

    const again = await me.http.post('/api/bookmarks/', { shareLinkId: s.shareLinkId });
    expect([again.status, again.body.code, again.body.data]).toEqual([409, 'BOOKMARK_EXISTS', { bookmarkId: id }]);

    const renamed = await me.http.request('PATCH', `/api/bookmarks/${id}`, { description: '  Q3 numbers ' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.description).toBe('Q3 numbers');
    expect((await me.http.get(`/api/bookmarks/${id}`)).body.description).toBe('Q3 numbers');
    expect((await me.http.get(at('/api/bookmarks', { shareLinkId: s.shareLinkId }))).body.data.map((b: { id: string }) => b.id)).toEqual([id]);
    expect((await me.http.get(at('/api/bookmarks', { shareId: s.id }))).body.data.map((b: { id: string }) => b.id)).toEqual([id]);

    // another user: the bookmark does not exist for them, whatever they try
    const other = await user();
    for (const res of [
      await other.http.get(`/api/bookmarks/${id}`),
      await other.http.request('PATCH', `/api/bookmarks/${id}`, { description: 'mine now' }),
      await other.http.delete(`/api/bookmarks/${id}`),
    ])
      expect([res.status, res.body.code]).toEqual([404, 'BOOKMARK_NOT_FOUND']);
    expect((await other.http.get('/api/bookmarks')).body).toMatchObject({ data: [], totalCount: 0 });
    expect((await new HttpClient(t().url).get('/api/bookmarks')).status).toBe(401);

    expect((await me.http.delete(`/api/bookmarks/${id}`)).status).toBe(204);
    expect((await me.http.get(`/api/bookmarks/${id}`)).status).toBe(404);
    expect((await me.http.delete(`/api/bookmarks/${id}`)).body.code).toBe('BOOKMARK_NOT_FOUND');
    // the share itself stays
    expect((await owner.http.get(`/api/shares/${s.id}/`)).status).toBe(200);
  });

  it('refuses unknown, revoked and expired links, and titles against the rules', async () => {
    const owner = await sharer();
    const me = await user();
    const unknown = await me.http.post('/api/bookmarks', { shareLinkId: 'A'.repeat(22) });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'SHARE_NOT_FOUND']);
    const malformed = await me.http.post('/api/bookmarks', { shareLinkId: '../../etc' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'VALIDATION_FAILED']);

    const revoked = await owner.share('Gone soon');
    const keptBefore = await me.http.post('/api/bookmarks', { shareLinkId: revoked.shareLinkId });
    expect(keptBefore.body.shareStatus).toBe('active');
    expect((await owner.http.post(`/api/shares/${revoked.id}/revoke`, {})).status).toBe(200);
    await me.http.delete(`/api/bookmarks/${keptBefore.body.id}`);
    expect((await me.http.post('/api/bookmarks', { shareLinkId: revoked.shareLinkId })).body.code).toBe('LINK_BLOCKED');

    const expiring = await owner.share('Short lived', { expiresAt: new Date(t().clock.now().getTime() + 60_000).toISOString() });
    t().clock.advance(120_000);
    expect((await me.http.post('/api/bookmarks', { shareLinkId: expiring.shareLinkId })).body.code).toBe('LINK_EXPIRED');

    const live = await owner.share('Live one');
    const emoji = await me.http.post('/api/bookmarks', { shareLinkId: live.shareLinkId, description: 'Party 🎉' });
    expect([emoji.status, emoji.body.code, emoji.body.data]).toEqual([400, 'INVALID_TITLE', { field: 'description', problem: 'emoji' }]);
    expect((await me.http.post('/api/bookmarks', { shareLinkId: live.shareLinkId, description: 'total bullshit' })).body.code).toBe('PROFANITY');
    const ok = await me.http.post('/api/bookmarks', { shareLinkId: live.shareLinkId, description: 'Mine' });
    expect(ok.body.description).toBe('Mine');
    const badRename = await me.http.request('PATCH', `/api/bookmarks/${ok.body.id}`, { description: ' ' });
    expect([badRename.status, badRename.body.data]).toEqual([400, { field: 'description', problem: 'empty' }]);
    expect((await me.http.request('PATCH', `/api/bookmarks/${ok.body.id}`, {})).status).toBe(400);
  });

  it('needs what opening the link needs: the password share its access token, the private share its recipient', async () => {
    const owner = await sharer();
    const me = await user();
    const locked = await owner.share('Locked', { password: 'Locked-secret-9' });
    const asked = await me.http.post('/api/bookmarks', { shareLinkId: locked.shareLinkId });
    // refused as the link refuses it: which dialog opens it, never its title
    expect([asked.status, asked.body.code, asked.body.data]).toEqual([403, 'SHARE_PROTECTED', expect.objectContaining({ kind: 'public', hasPassword: true })]);
    expect(JSON.stringify(asked.body)).not.toContain('Locked"');
    const forged = await me.http.request('POST', '/api/bookmarks', { shareLinkId: locked.shareLinkId }, { 'x-object-access': 'forged.token' });
    expect(forged.body.code).toBe('SHARE_PROTECTED');
    const opened = await me.http.request('GET', `/api/share-links/${locked.shareLinkId}`, undefined, { authorization: 'Password Locked-secret-9' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const token = opened.headers.get('x-object-access')!;
    const kept = await me.http.request('POST', '/api/bookmarks', { shareLinkId: locked.shareLinkId }, { 'x-object-access': token });
    expect([kept.status, kept.body.description]).toEqual([201, 'Locked']);
    // a token of another link opens nothing here
    const other = await owner.share('Other locked', { password: 'Other-secret-9' });
    expect((await me.http.request('POST', '/api/bookmarks', { shareLinkId: other.shareLinkId }, { 'x-object-access': token })).body.code).toBe(
      'SHARE_PROTECTED',
    );
    // the owner keeps their own share without a password
    expect((await owner.http.post('/api/bookmarks', { shareLinkId: other.shareLinkId })).status).toBe(201);

    const recipient = await user();
    const secret = await owner.share('For one person', { recipients: [recipient.email], message: 'Here you are', password: 'Private-secret-9' });
    // without the password, nobody learns whether they are a recipient
    expect((await me.http.post('/api/bookmarks', { shareLinkId: secret.shareLinkId })).body.code).toBe('SHARE_PROTECTED');
    expect((await recipient.http.post('/api/bookmarks', { shareLinkId: secret.shareLinkId })).body.code).toBe('SHARE_PROTECTED');
    const letIn = await recipient.http.request('GET', `/api/share-links/${secret.shareLinkId}`, undefined, { authorization: 'Password Private-secret-9' });
    expect(letIn.status, JSON.stringify(letIn.body)).toBe(200);
    const mine = await recipient.http.request(
      'POST',
      '/api/bookmarks',
      { shareLinkId: secret.shareLinkId },
      { 'x-object-access': letIn.headers.get('x-object-access')! },
    );
    expect([mine.status, mine.body.description]).toEqual([201, 'For one person']);
  });

  it('says what became of each bookmarked share: active, expired, revoked or deleted', async () => {
    const owner = await sharer();
    const me = await user();
    const titles = ['Kept', 'Expiring', 'Revoked', 'Deleted'];
    const shares = [];
    for (const title of titles) {
      const s = await owner.share(title, title === 'Expiring' ? { expiresAt: new Date(t().clock.now().getTime() + 60_000).toISOString() } : {});
      expect((await me.http.post('/api/bookmarks', { shareLinkId: s.shareLinkId })).body).toMatchObject({ shareStatus: 'active', shareKind: 'public' });
      shares.push(s);
    }
    await owner.http.post(`/api/shares/${shares[2]!.id}/revoke`, {});
    expect((await owner.http.delete(`/api/shares/${shares[3]!.id}/`)).status).toBe(204);
    t().clock.advance(120_000);
    const statuses = Object.fromEntries(
      (await me.http.get('/api/bookmarks')).body.data.map((b: { description: string; shareStatus: string }) => [b.description, b.shareStatus]),
    );
    expect(statuses).toEqual({ Kept: 'active', Expiring: 'expired', Revoked: 'revoked', Deleted: 'deleted' });
  });

  it('sorts by description DESC by default, pages, searches', async () => {
    const owner = await sharer();
    const me = await user();
    for (const title of ['beta', 'Alpha', 'gamma', 'Delta']) await me.http.post('/api/bookmarks', { shareLinkId: (await owner.share(title)).shareLinkId });
    const names = (res: { body: { data: { description: string }[] } }) => res.body.data.map((b) => b.description);
    const all = await me.http.get('/api/bookmarks');
    expect(all.body).toMatchObject({ totalCount: 4, page: 1, perPage: 500 });
    expect(names(all)).toEqual(['gamma', 'Delta', 'beta', 'Alpha']);
    expect(names(await me.http.get(at('/api/bookmarks', { sortOrder: 'ASC' })))).toEqual(['Alpha', 'beta', 'Delta', 'gamma']);
    const second = await me.http.get(at('/api/bookmarks', { perPage: 3, page: 2 }));
    expect([names(second), second.body.totalCount]).toEqual([['Alpha'], 4]);
    expect(names(await me.http.get(at('/api/bookmarks', { q: 'ELT' })))).toEqual(['Delta']);
    expect((await me.http.get(at('/api/bookmarks', { perPage: 1001 }))).status).toBe(400);
    expect((await me.http.get(at('/api/bookmarks', { sortBy: 'share_id; drop table bookmarks' }))).status).toBe(400);
  });
});

describe('lists', () => {
  it('creates, renames and deletes lists; moves bookmarks between them; a deleted list leaves its bookmarks in no list', async () => {
    const owner = await sharer();
    const me = await user();
    const work = await me.http.post('/api/bookmarks/lists/', { name: 'Work' });
    expect(work.status, JSON.stringify(work.body)).toBe(201);
    expect(work.body).toMatchObject({ name: 'Work', bookmarksCount: 0 });
    const home = (await me.http.post('/api/bookmarks/lists', { name: 'Home' })).body;
    const dup = await me.http.post('/api/bookmarks/lists/', { name: 'work' });
    expect([dup.status, dup.body.code]).toEqual([409, 'BOOKMARK_LIST_NAME_EXISTS']);

    const a = (await me.http.post('/api/bookmarks', { shareLinkId: (await owner.share('A')).shareLinkId, bookmarkListId: work.body.id })).body;
    const b = (await me.http.post('/api/bookmarks', { shareLinkId: (await owner.share('B')).shareLinkId })).body;
    expect(a.bookmarkListId).toBe(work.body.id);

    const moved = await me.http.request('PATCH', `/api/bookmarks/${b.id}`, { bookmarkListId: work.body.id, description: 'B renamed' });
    expect(moved.body).toMatchObject({ bookmarkListId: work.body.id, description: 'B renamed' });
    expect((await me.http.request('PATCH', `/api/bookmarks/${a.id}`, { bookmarkListId: home.id })).body.bookmarkListId).toBe(home.id);
    const nowhere = await me.http.request('PATCH', `/api/bookmarks/${a.id}`, { bookmarkListId: '00000000-0000-4000-8000-000000000000' });
    expect([nowhere.status, nowhere.body.code]).toEqual([404, 'BOOKMARK_LIST_NOT_FOUND']);

    const inList = async (listId: string) => (await me.http.get(at('/api/bookmarks', { bookmarkListId: listId }))).body.data.map((x: { id: string }) => x.id);
    expect(await inList(work.body.id)).toEqual([b.id]);
    expect(await inList(home.id)).toEqual([a.id]);
    expect(await inList('none')).toEqual([]);

    const lists = await me.http.get(at('/api/bookmarks/lists/', { perPage: 1000 }));
    expect(lists.body).toMatchObject({ totalCount: 2, perPage: 1000 });
    expect(lists.body.data.map((l: { name: string; bookmarksCount: number }) => [l.name, l.bookmarksCount])).toEqual([
      ['Home', 1],
      ['Work', 1],
    ]);
    expect((await me.http.get(at('/api/bookmarks/lists/', { perPage: 1001 }))).status).toBe(400);
    expect((await me.http.get('/api/bookmarks/lists/')).body.perPage).toBe(1000);

    const renamed = await me.http.request('PATCH', `/api/bookmarks/lists/${work.body.id}`, { name: 'Office' });
    expect(renamed.body).toMatchObject({ name: 'Office', bookmarksCount: 1 });

    // someone else's list is not there for another user
    const other = await user();
    expect((await other.http.get(at('/api/bookmarks', { bookmarkListId: work.body.id }))).body.code).toBe('BOOKMARK_LIST_NOT_FOUND');
    expect((await other.http.delete(`/api/bookmarks/lists/${work.body.id}`)).status).toBe(404);
    expect((await other.http.get(`/api/bookmarks/lists/${work.body.id}`)).status).toBe(404);

    expect((await me.http.delete(`/api/bookmarks/lists/${work.body.id}`)).status).toBe(204);
    expect((await me.http.get(`/api/bookmarks/lists/${work.body.id}`)).status).toBe(404);
    expect(await inList('none')).toEqual([b.id]);
    expect((await me.http.get(`/api/bookmarks/${b.id}`)).body).toMatchObject({ bookmarkListId: null, description: 'B renamed' });
    expect((await me.http.get('/api/bookmarks')).body.totalCount).toBe(2);
  });
});

describe('the bookmarks read model', () => {
  it('rebuilds to the very same rows, and a purged account forgets its bookmarks and lists', async () => {
    const owner = await sharer();
    const me = await user();
    const list = (await me.http.post('/api/bookmarks/lists/', { name: 'Forget me' })).body;
    const kept = (await me.http.post('/api/bookmarks', { shareLinkId: (await owner.share('Private words')).shareLinkId, bookmarkListId: list.id })).body;
    await me.http.request('PATCH', `/api/bookmarks/${kept.id}`, { description: 'My secret words' });

    const projection = t().app.ctx.runner.projections.find((p) => p.name === 'bookmarks')!;
    const rows = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of Object.values(liveTables(projection))) out[table] = (await t().app.ctx.pool.query(`select * from "${table}" order by id`)).rows;
      return out;
    };
    const before = await rows();
    expect(before.bookmarks!.length).toBeGreaterThan(0);
    await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    expect(await rows()).toEqual(before);

    const { forgetBookmarks } = await import('./bookmarks.forget');
    const actor = { actorId: 'account-deletion:test', actorKind: 'process' as const, now: new Date() };
    await forgetBookmarks(t().app.ctx, me.id, actor);
    await forgetBookmarks(t().app.ctx, me.id, actor);
    const { events } = await t().app.ctx.store.readStream(`bookmarks-${me.id}`);
    expect(events.map((e) => e.type)).toEqual(['BookmarkListCreated', 'BookmarkAdded', 'BookmarkRenamed', 'BookmarksForgotten']);
    expect(events[0]!.data).toMatchObject({ name: '[erased]' });
    expect(events[2]!.data).toMatchObject({ description: '[erased]' });
    await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 });
    expect((await t().app.ctx.pool.query('select count(*)::int as n from bookmarks where user_id = $1', [me.id])).rows[0].n).toBe(0);
    expect((await t().app.ctx.pool.query('select count(*)::int as n from bookmark_lists where user_id = $1', [me.id])).rows[0].n).toBe(0);
  });
});

describe('a bookmark command at thousands of bookmarks', () => {
  it('reads only the events written since the previous command, not the whole stream, and still sees what another process wrote', async () => {
    const me = await user();
    const stream = bookmarksStreamName(me.id);
    const { store, registry } = t().app.ctx;
    const bookmarkIds = Array.from({ length: 2000 }, () => randomUUID());
    const written = (data: BookmarkEvent) => ({
      id: newId(),
      ...registry.encode(data),
      metadata: metadataFor({ actorId: me.id, actorKind: 'user' }, t().clock.now()),
    });
    await store.append(
      stream,
      bookmarkIds.map((bookmarkId, i) =>
        written({
          type: 'BookmarkAdded',
          data: { bookmarkId, shareId: `share-${i}`, shareLinkId: `link${String(i).padStart(18, '0')}`, bookmarkListId: null, description: `Bookmark ${i}` },
        }),
      ),
      expected.noStream,
    );

    let read = 0;
    const readStream = store.readStream.bind(store);
    const spy = vi.spyOn(store, 'readStream').mockImplementation(async (name, from) => {
      const result = await readStream(name, from);
      if (name === stream) read += result.events.length;
      return result;
    });
    try {
      const created = await me.http.post('/api/bookmarks/lists/', { name: 'First' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(read).toBe(2000);

      read = 0;
      const moved = await me.http.request('PATCH', `/api/bookmarks/${bookmarkIds[1234]}`, { bookmarkListId: created.body.id, description: 'Kept' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({ bookmarkListId: created.body.id, description: 'Kept' });
      expect(read).toBe(0);

      // another process removes one: the next command reads that one event and decides on it
      await store.append(stream, [written({ type: 'BookmarkRemoved', data: { bookmarkId: bookmarkIds[7]! } })], expected.any);
      read = 0;
      const gone = await me.http.request('PATCH', `/api/bookmarks/${bookmarkIds[7]}`, { description: 'Too late' });
      expect([gone.status, gone.body.code]).toEqual([404, 'BOOKMARK_NOT_FOUND']);
      expect(read).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});

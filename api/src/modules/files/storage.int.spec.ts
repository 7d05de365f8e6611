import { BASIC_PLAN_QUOTA_BYTES, DomainError, storageDecider } from '@axel/domain';
import { handleCommand } from '@axel/platform';
import { liveTables, rebuildProjection } from '@axel/projections';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { storageQuotaGate } from './storage.quota-gate';
import { MemoryBytes } from './storage.testing';

const bytes = new MemoryBytes();
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, bytes: { uploads: bytes, content: bytes } });
const { signUpConfirmed, signIn, PASSWORD } = accountHelpers(t);

/** A signed-up user with their online storage. */
const owner = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storages = await http.get(`/api/users/${id}/storages/`);
  expect(storages.status).toBe(200);
  const storageId = storages.body.data[0].id as string;
  const base = `/api/users/${id}/storages/${storageId}`;
  const folder = async (name: string, parent?: string) => {
    const res = await http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'folder', name });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const file = async (name: string, content: string, parent?: string, extra: Record<string, unknown> = {}) => {
    const uploadId = bytes.upload(id, storageId, content);
    return http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'file', name, uploadId, ...extra });
  };
  const task = async (body: Record<string, unknown>) => {
    const started = await http.post(`/api/users/${id}/storage-tasks/`, body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return (await http.get(started.body.stateURL)).body;
  };
  return { http, id, storageId, base, folder, file, task };
};

describe('storages', () => {
  it('gives each user one online storage of 10 GB on first use, and shows it to nobody else', async () => {
    const a = await owner();
    const again = await a.http.get(`/api/users/${a.id}/storages/`);
    expect(again.body.data).toEqual([
      expect.objectContaining({
        id: a.storageId,
        type: 'online',
        ownerId: a.id,
        sizeTotal: BASIC_PLAN_QUOTA_BYTES,
        sizeUsed: 0,
        sizeTrashed: 0,
        isOwner: true,
      }),
    ]);
    expect((await a.http.get(`/api/users/${a.id}/personal-folders/`)).body).toEqual({ storageId: a.storageId, folder: null });

    const b = await owner();
    // someone else's user path, and someone else's storage under one's own path
    expect((await b.http.get(`/api/users/${a.id}/storages/`)).status).toBe(403);
    const foreign = await b.http.get(`/api/users/${b.id}/storages/${a.storageId}/items/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('STORAGE_NOT_FOUND');
    const folderId = await a.folder('Private');
    expect((await b.http.get(`/api/users/${b.id}/storages/${b.storageId}/folders/${folderId}`)).status).toBe(404);
    expect((await new HttpClient(t().url).get(`/api/users/${a.id}/storages/`)).status).toBe(401);
  });
});

describe('folders and files', () => {
  it('lists by name ascending with folders first, pages by 500 or perPage, sorts and filters by label', async () => {
    const o = await owner();
    await o.folder('beta');
    await o.folder('Alpha');
    expect((await o.file('c.txt', 'ccc')).status).toBe(201);
    expect((await o.file('a.txt', 'a')).status).toBe(201);
    const list = await o.http.get(`${o.base}/items/`);
    expect(list.body.totalCount).toBe(4);
    expect(list.body.perPage).toBe(500);
    expect(list.body.data.map((i: { name: string }) => i.name)).toEqual(['Alpha', 'beta', 'a.txt', 'c.txt']);
    const bySize = await o.http.get(`${o.base}/items/?sortBy=size&sortOrder=desc&label=file`);
    expect(bySize.body.data.map((i: { name: string; size: number }) => [i.name, i.size])).toEqual([
      ['c.txt', 3],
      ['a.txt', 1],
    ]);
    const page2 = await o.http.get(`${o.base}/items/?perPage=3&page=2`);
    expect(page2.body).toMatchObject({ totalCount: 4, page: 2 });
    expect(page2.body.data.map((i: { name: string }) => i.name)).toEqual(['c.txt']);
    expect((await o.http.get(`${o.base}/items/?perPage=501`)).status).toBe(400);
  });

  it('answers 409 on a taken name and picks "name (1).ext" with rename; refuses names the spec forbids', async () => {
    const o = await owner();
    const docs = await o.folder('Docs');
    expect((await o.file('report.pdf', 'x', docs)).status).toBe(201);
    const clash = await o.file('Report.pdf', 'y', docs);
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('NAME_EXISTS');
    const renamed = await o.file('report.pdf', 'y', docs, { rename: true });
    expect(renamed.status).toBe(201);
    expect(renamed.body).toMatchObject({ name: 'report (1).pdf', parentId: docs, label: 'file', mime: 'application/pdf' });
    expect((await o.http.post(`${o.base}/items/`, { label: 'folder', name: 'Docs' })).status).toBe(409);
    expect((await o.http.post(`${o.base}/items/`, { label: 'folder', name: 'Docs', rename: true })).body.name).toBe('Docs (1)');

    const bad = await o.http.post(`${o.base}/items/`, { label: 'folder', name: 'my.folder' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_NAME', data: { reason: 'dotInFolderName' } });
    expect((await o.file('a:b.txt', 'x')).body.data).toEqual({ reason: 'forbiddenCharacters' });
    expect((await o.file('.env', 'x')).body.data).toEqual({ reason: 'leadingDot' });
    expect((await o.file('Tool.app', 'x')).body.data).toEqual({ reason: 'appFile' });
    expect((await o.file('party 🎉.txt', 'x')).body.data).toEqual({ reason: 'emoji' });
    expect((await o.file('shit.txt', 'x')).body.code).toBe('PROFANITY');
  });

  it('makes a file only from a finished upload of the same user and storage, once', async () => {
    const o = await owner();
    const other = await owner();
    const missing = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'x.txt', uploadId: 'nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INCOMPLETE_UPLOAD');
    const theirs = bytes.upload(other.id, other.storageId, 'theirs');
    expect((await o.http.post(`${o.base}/items/`, { label: 'file', name: 'x.txt', uploadId: theirs })).body.code).toBe('INCOMPLETE_UPLOAD');
    const elsewhere = bytes.upload(o.id, other.storageId, 'misplaced');
    expect((await o.http.post(`${o.base}/items/`, { label: 'file', name: 'x.txt', uploadId: elsewhere })).body.code).toBe('INCOMPLETE_UPLOAD');
    const made = await o.file('x.txt', 'hello');
    expect(made.body).toMatchObject({ size: 5, hash: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' });
    const storage = (await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0];
    expect(storage.sizeUsed).toBe(5);
  });

  it('refuses a file or an upload that does not fit the quota, with the spec message', async () => {
    const o = await owner();
    const big = bytes.upload(o.id, o.storageId, 'x', BASIC_PLAN_QUOTA_BYTES + 1);
    const refused = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'huge.bin', uploadId: big });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_SPACE', message: 'Insufficient space or quota' });

    const gate = storageQuotaGate(t().app.ctx);
    await gate.reserve({ userId: o.id, storageId: o.storageId, uploadId: 'up1', size: BASIC_PLAN_QUOTA_BYTES - 10 });
    const second = await gate.reserve({ userId: o.id, storageId: o.storageId, uploadId: 'up2', size: 11 }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(DomainError);
    expect((second as DomainError).message).toBe('Insufficient space or quota');
    await gate.release({ userId: o.id, storageId: o.storageId, uploadId: 'up1' });
    await gate.reserve({ userId: o.id, storageId: o.storageId, uploadId: 'up2', size: 11 });
    // a storage of someone else cannot be reserved on
    const other = await owner();
    const foreign = await gate.reserve({ userId: other.id, storageId: o.storageId, uploadId: 'up3', size: 1 }).catch((e: unknown) => e);
    expect((foreign as DomainError).code).toBe('STORAGE_NOT_FOUND');
  });

  it('shows a folder, a file, their parents, details the owner edits, renames and searches', async () => {
    const o = await owner();
    const a = await o.folder('Projects');
    const b = await o.folder('Axel', a);
    const f = (await o.file('plan.txt', 'the plan', b)).body.id as string;
    expect((await o.http.get(`${o.base}/folders/${b}`)).body).toMatchObject({ id: b, name: 'Axel', label: 'folder', parentId: a });
    expect((await o.http.get(`${o.base}/files/${f}`)).body).toMatchObject({ id: f, name: 'plan.txt', size: 8 });
    expect((await o.http.get(`${o.base}/files/${b}`)).status).toBe(404);
    expect((await o.http.get(`${o.base}/files/${f}/parent/`)).body.data).toEqual([
      { id: a, name: 'Projects' },
      { id: b, name: 'Axel' },
    ]);
    expect((await o.http.get(`${o.base}/folders/${a}/parent/`)).body.data).toEqual([]);
    expect((await o.http.get(`${o.base}/folders/${b}/items/`)).body.data.map((i: { id: string }) => i.id)).toEqual([f]);

    const info = await o.http.put(`${o.base}/items/${f}/info/`, { title: 'The plan', keywords: 'roadmap', ttl: '2030-01-01T00:00:00.000Z' });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ title: 'The plan', keywords: 'roadmap', ttl: '2030-01-01T00:00:00.000Z', location: '/Projects/Axel', size: 8 });
    expect((await o.http.get(`${o.base}/items/${f}/info/`)).body.title).toBe('The plan');
    expect((await o.http.put(`${o.base}/items/${f}/info/`, { contactEmail: 'not-an-email' })).status).toBe(400);
    expect((await o.http.put(`${o.base}/items/${f}/info/`, { title: 'bullshit' })).body.code).toBe('PROFANITY');

    const renamed = await o.http.request('PATCH', `${o.base}/items/${f}/`, { name: 'roadmap.txt' });
    expect(renamed.body.name).toBe('roadmap.txt');
    await o.file('notes.txt', 'n');
    const found = await o.http.get(`${o.base}/search/?search=ROAD`);
    expect(found.body).toMatchObject({
      totalCount: 1,
      data: [expect.objectContaining({ id: f, name: 'roadmap.txt', parentId: b, location: '/Projects/Axel' })],
    });
    // each result says where it is: the root, a folder, a folder inside a folder
    await o.file('notes-road.txt', 'r');
    await o.file('road-trip.txt', 'r', a);
    const places = (await o.http.get(`${o.base}/search/?search=road&sortBy=name`)).body.data.map((i: { name: string; location: string }) => [
      i.name,
      i.location,
    ]);
    expect(places).toEqual([
      ['notes-road.txt', '/'],
      ['road-trip.txt', '/Projects'],
      ['roadmap.txt', '/Projects/Axel'],
    ]);
    expect((await o.http.get(`${o.base}/search/?search=%25`)).body.totalCount).toBe(0);
  });
});

describe('concurrency', () => {
  it('lets concurrent uploads together reserve no more than the quota, and one name go to one folder', async () => {
    const o = await owner();
    const gate = storageQuotaGate(t().app.ctx);
    const tenth = BASIC_PLAN_QUOTA_BYTES / 10;
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => gate.reserve({ userId: o.id, storageId: o.storageId, uploadId: `race-${i}`, size: tenth })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as DomainError).code)).toEqual(
      Array(6).fill('INSUFFICIENT_SPACE'),
    );

    const answers = await Promise.all(Array.from({ length: 8 }, () => o.http.post(`${o.base}/items/`, { label: 'folder', name: 'Same' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(7).fill(409)]);
    // what another API process writes to the storage (through the generic command path) is seen by the next command here
    await handleCommand(
      t().app.ctx.commands,
      storageDecider,
      `storage-${o.storageId}`,
      { type: 'CreateFolder', data: { itemId: 'from-elsewhere', parentId: null, name: 'Elsewhere', rename: false }, metadata: { now: new Date() } },
      { actorId: o.id, actorKind: 'user' },
    );
    expect((await o.http.post(`${o.base}/items/`, { label: 'folder', name: 'elsewhere' })).status).toBe(409);
  });
});

describe('downloads', () => {
  it('streams the bytes with Range and resume, with the file name in Content-Disposition', async () => {
    const o = await owner();
    const f = (await o.file('Résumé 2026.txt', 'abcdefghijklmnopqrstuvwxyz')).body.id as string;
    const url = `${o.base}/files/${f}/sources/`;
    const whole = await o.http.get(url);
    expect(whole.status).toBe(200);
    expect(whole.body).toBe('abcdefghijklmnopqrstuvwxyz');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="R_sum_ 2026.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.txt`);
    const part = await o.http.request('GET', url, undefined, { range: 'bytes=10-' });
    expect(part.status).toBe(206);
    expect(part.body).toBe('klmnopqrstuvwxyz');
    expect(part.headers.get('content-range')).toBe('bytes 10-25/26');
    expect((await o.http.request('GET', url, undefined, { range: 'bytes=-3' })).body).toBe('xyz');
    const outside = await o.http.request('GET', url, undefined, { range: 'bytes=26-30' });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe('bytes */26');
    // a page type is never served as a page of our origin
    const asHtml = await o.http.get(`${url}?contentType=text/html&fileName=x.html`);
    expect(asHtml.headers.get('content-type')).toBe('application/octet-stream');
    expect((await o.http.get(`${url}?contentType=text/plain`)).headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('answers a short-lived signed URL that serves the same bytes without a session, and nothing once changed or expired', async () => {
    const o = await owner();
    const f = (await o.file('song.mp3', '0123456789')).body.id as string;
    const signed = await o.http.get(`/api/urls/storage-download/?userId=${o.id}&storageId=${o.storageId}&fileId=${f}`);
    expect(signed.status).toBe(200);
    // a path on whatever origin the page is on (a preview opened on another host name still loads)
    expect(signed.body.url).toMatch(new RegExp(`^/api/storage-downloads/${o.storageId}/${f}/\\?`));
    const link = new URL(signed.body.url as string, t().url).toString();
    const res = await fetch(link, { headers: { range: 'bytes=2-4' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('234');
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const tampered = link.replace(
      f,
      f.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    );
    expect((await fetch(tampered)).status).toBe(403);
    expect((await fetch(link.replace(/expires=\d+/, 'expires=99999999999999'))).status).toBe(403);
    t().clock.advance(16 * 60_000);
    try {
      const expired = await fetch(link);
      expect(expired.status).toBe(403);
      expect(((await expired.json()) as { message: string }).message).toBe('Invalid Url');
    } finally {
      t().clock.advance(-16 * 60_000);
    }
    const other = await owner();
    expect((await other.http.get(`/api/urls/storage-download/?userId=${other.id}&storageId=${o.storageId}&fileId=${f}`)).status).toBe(404);
  });
});

describe('trash and storage tasks', () => {
  it('trashes a folder with its contents, lists it in the trash, counts sizeTrashed, restores it', async () => {
    const o = await owner();
    const d = await o.folder('Old');
    await o.file('a.txt', '12345', d);
    const state = await o.task({ action: 'trash', itemIds: [d] });
    expect(state).toMatchObject({ type: 'trash', status: 'done', failed: 0, errorCode: null });
    expect((await o.http.get(`${o.base}/items/`)).body.totalCount).toBe(0);
    const trash = await o.http.get(`/api/users/${o.id}/trash-bin/`);
    expect(trash.body).toMatchObject({ totalCount: 1, data: [expect.objectContaining({ id: d, name: 'Old', label: 'folder' })] });
    expect(trash.body.data[0].trashedAt).toBeTruthy();
    expect((await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0]).toMatchObject({ sizeUsed: 5, sizeTrashed: 5 });
    expect((await o.http.get(`${o.base}/folders/${d}/items/`)).status).toBe(404);

    await o.folder('Old');
    expect(await o.task({ action: 'restore', itemIds: [d] })).toMatchObject({ status: 'done' });
    expect((await o.http.get(`${o.base}/folders/${d}`)).body.name).toBe('Old (1)');
    expect((await o.http.get(`${o.base}/folders/${d}/items/`)).body.totalCount).toBe(1);
    expect((await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0]).toMatchObject({ sizeUsed: 5, sizeTrashed: 0 });
    expect((await o.http.get(`/api/users/${o.id}/trash-bin/`)).body.totalCount).toBe(0);
  });

  it('deletes for ever, destroying content only once no copy uses it', async () => {
    const o = await owner();
    const f = (await o.file('a.txt', 'shared bytes')).body.id as string;
    const d = await o.folder('Copies');
    expect(await o.task({ action: 'copy', itemIds: [f], destinationId: d })).toMatchObject({ status: 'done' });
    const copy = (await o.http.get(`${o.base}/folders/${d}/items/`)).body.data[0];
    expect(copy).toMatchObject({ name: 'a.txt', size: 12 });
    const keyId = (await t().app.ctx.pool.query('select manifest->>$2 as k from storage_items where id = $1', [f, 'keyId'])).rows[0].k as string;

    await o.task({ action: 'trash', itemIds: [f] });
    expect(await o.task({ action: 'delete', itemIds: [f] })).toMatchObject({ status: 'done' });
    expect(bytes.has(keyId)).toBe(true);
    expect((await o.http.get(`${o.base}/files/${copy.id}/sources/`)).body).toBe('shared bytes');
    await o.task({ action: 'delete', itemIds: [d] });
    expect(bytes.has(keyId)).toBe(false);
    expect((await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0]).toMatchObject({ sizeUsed: 0, sizeTrashed: 0 });
    expect((await o.http.get(`/api/users/${o.id}/trash-bin/`)).body.totalCount).toBe(0);
  });

  it('moves what it can, counts what it cannot, and never moves a folder into its own child', async () => {
    const o = await owner();
    const a = await o.folder('A');
    const b = await o.folder('B', a);
    const f = (await o.file('x.txt', 'x')).body.id as string;
    await o.file('x.txt', 'other', b);
    const g = (await o.file('y.txt', 'y')).body.id as string;
    const state = await o.task({ action: 'move', itemIds: [a, f, g, 'missing'], destinationId: b });
    expect(state).toMatchObject({ status: 'failed', errorCode: 'MOVE_FAILED', errorMessage: '3 of 4 items could not be moved', failed: 3 });
    expect(state.failures).toEqual(
      expect.arrayContaining([
        { itemId: a, code: 'MOVE_INTO_OWN_CHILD' },
        { itemId: f, code: 'NAME_EXISTS' },
        { itemId: 'missing', code: 'ITEM_NOT_FOUND' },
      ]),
    );
    expect((await o.http.get(`${o.base}/files/${g}`)).body.parentId).toBe(b);
    const other = await owner();
    const theirs = await other.http.post(`/api/users/${other.id}/storage-tasks/`, { action: 'trash', itemIds: [g] });
    expect((await other.http.get(theirs.body.stateURL)).body).toMatchObject({ status: 'failed', failures: [{ itemId: g, code: 'ITEM_NOT_FOUND' }] });
    expect((await other.http.get(`/api/users/${o.id}/storage-tasks/${theirs.body.id}/`)).status).toBe(403);
    expect((await o.http.get(`/api/users/${o.id}/storage-tasks/${theirs.body.id}/`)).status).toBe(404);
  });

  it('archives files and folders as a zip streamed from the content, with a short name when long', async () => {
    const o = await owner();
    const d = await o.folder('Photos');
    await o.file('one.txt', 'first file', d);
    await o.file('two.txt', 'second', d);
    const state = await o.task({ action: 'archive', itemIds: [d], archiveName: 'A very long archive name that goes on and on and on forever' });
    expect(state).toMatchObject({ type: 'archive', status: 'done' });
    const res = await fetch(state.downloadURL);
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(zip.length);
    expect(res.headers.get('content-disposition')).toContain('filename="A ver...rever.zip"');
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('Photos/one.txt'))).toBe(true);
    expect(zip.includes(Buffer.from('first file'))).toBe(true);
    expect((await fetch(state.downloadURL.replace(/signature=[^&]+/, 'signature=x'))).status).toBe(403);
  });
});

describe('file TTL', () => {
  it('puts a file in the trash when its TTL runs out, on the process runtime', async () => {
    const runtime = t().app.ctx.processes();
    if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
    const o = await owner();
    const f = (await o.file('temporary.txt', 'soon gone')).body.id as string;
    const expiresAt = new Date(t().clock.now().getTime() + 2 * 86_400_000).toISOString();
    expect((await o.http.put(`${o.base}/items/${f}/info/`, { ttl: expiresAt })).status).toBe(200);
    for (let i = 0; i < 100 && !(await runtime.getProcess('file-ttl', `${o.storageId}:${f}`))?.nextTimer; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await runtime.getProcess('file-ttl', `${o.storageId}:${f}`))?.nextTimer).toEqual({ name: 'expire', at: expiresAt });

    t().clock.advance(86_400_000);
    await runtime.fireDueTimers();
    await runtime.whenIdle();
    // (the session has timed out by now: the read model is asked directly)
    const trashedAt = async () => (await t().app.ctx.pool.query('select trashed_at from storage_items where id = $1', [f])).rows[0]?.trashed_at as Date | null;
    expect(await trashedAt()).toBeNull();
    t().clock.advance(86_400_000 + 60_000);
    try {
      await runtime.fireDueTimers();
      await runtime.whenIdle();
      expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);
      expect(await trashedAt()).toBeInstanceOf(Date);
      const trashed = (await t().app.ctx.store.readStream(`storage-${o.storageId}`)).events.find((e) => e.type === 'ItemTrashed')!;
      expect(trashed.metadata).toMatchObject({ actorKind: 'process', actorId: `file-ttl:${o.storageId}:${f}` });
    } finally {
      t().clock.advance(-(2 * 86_400_000 + 60_000));
    }
  });
});

describe('account purge', () => {
  it('purges the storages of a purged account: content destroyed, names forgotten in the log, read model emptied', async () => {
    const runtime = t().app.ctx.processes();
    if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
    const o = await owner();
    const made = (await o.file('Diary of Ada Lovelace.txt', 'private words')).body;
    const keyId = (await t().app.ctx.pool.query(`select manifest->>'keyId' as k from storage_items where id = $1`, [made.id])).rows[0].k as string;
    await o.task({ action: 'archive', itemIds: [made.id], archiveName: 'Letters to Charles Babbage' });
    expect((await o.http.delete(`/api/users/${o.id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);

    // the deletion process sets its purge timer first
    for (let i = 0; i < 100 && !(await runtime.getProcess('account-deletion', o.id))?.nextTimer; i++) await new Promise((r) => setTimeout(r, 50));
    t().clock.advance(31 * 86_400_000);
    try {
      for (let i = 0; i < 100 && bytes.has(keyId); i++) {
        await runtime.fireDueTimers();
        await new Promise((r) => setTimeout(r, 100));
      }
      await runtime.whenIdle();
      expect(bytes.has(keyId)).toBe(false);
      expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);
      const { events } = await t().app.ctx.store.readStream(`storage-${o.storageId}`);
      expect(events.find((e) => e.type === 'FileAdded')!.data).toMatchObject({ name: '[erased]', size: 13 });
      expect(events.at(-1)!.metadata).toMatchObject({ actorKind: 'process', actorId: `storage-purge:${o.id}` });
      const raw = await t().app.ctx.pool.query(`select count(*)::int as n from es_events where data::text like '%Ada Lovelace%'`);
      expect(raw.rows[0].n).toBe(0);
      expect((await t().app.ctx.pool.query('select count(*)::int as n from storages where id = $1', [o.storageId])).rows[0].n).toBe(0);
      expect((await t().app.ctx.pool.query('select count(*)::int as n from storage_items where storage_id = $1', [o.storageId])).rows[0].n).toBe(0);
      expect((await t().app.ctx.pool.query('select count(*)::int as n from storage_tasks where user_id = $1', [o.id])).rows[0].n).toBe(0);
    } finally {
      t().clock.advance(-31 * 86_400_000);
    }
  });
});

describe('storage read model', () => {
  it('rebuilds to the very same rows', async () => {
    const o = await owner();
    const d = await o.folder('Keep');
    await o.file('k.txt', 'keep', d);
    const gone = (await o.file('gone.txt', 'gone')).body.id as string;
    await o.task({ action: 'trash', itemIds: [gone] });
    await o.http.put(`${o.base}/items/${d}/info/`, { description: 'kept things' });
    const projection = t().app.ctx.runner.projections.find((p) => p.name === 'storage')!;
    const rows = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of Object.values(liveTables(projection))) out[table] = (await t().app.ctx.pool.query(`select * from "${table}" order by id`)).rows;
      return out;
    };
    const before = await rows();
    await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    expect(await rows()).toEqual(before);
  });
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpClient, useTestApp } from '../../testing/harness';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/*
 * A share's archive belongs to the share and the visit that made it (or the owner's session on
 * it): its URL goes to nobody else, its bytes stop with the share, and the 10 MiB rule on shared
 * files holds where bytes leave, whenever a file came into a shared folder.
 */

const lines: string[] = [];
const t = useTestApp({ logLines: lines });
const { caughtUp, owner, visitor, password, bytesOf } = shareAccessHelpers(t);

type Visitor = ReturnType<typeof visitor>;
const urlOf = (v: Visitor, shareId: string, taskId: string) => v.call(`/api/urls/share-archive-download/?shareId=${shareId}&archiveTaskId=${taskId}`);
const archiveOf = async (v: Visitor, linkId: string, body: Record<string, unknown> = {}) => {
  const res = await v.call(`/api/share-links/${linkId}/archive-tasks/`, {}, 'POST', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const MiB = 1024 * 1024;

describe("a share's archive", () => {
  it("is never the owner's own archive of a private folder, nor another visit's", async () => {
    const o = await owner();
    const secret = await o.folder('Private');
    await o.file('diary.txt', Buffer.from('my private diary'), secret);
    const pub = await o.folder('Public');
    await o.file('flyer.txt', Buffer.from('come along'), pub);
    // the owner's own archive of the private folder
    const own = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [secret] });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const s = await o.share({ itemIds: [pub] });
    const v = visitor();
    expect((await v.call(`/api/share-links/${s.shareLinkId}`)).status).toBe(200);
    const stolen = await urlOf(v, s.shareLinkId, own.body.id);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('TASK_NOT_FOUND');

    // another visitor of the same share cannot take this visit's archive, nor can the owner's session
    const mine = await archiveOf(v, s.shareLinkId);
    const other = visitor();
    expect((await other.call(`/api/share-links/${s.shareLinkId}`)).status).toBe(200);
    expect((await urlOf(other, s.shareLinkId, mine)).body.code).toBe('TASK_NOT_FOUND');
    expect((await o.http.get(`/api/urls/share-archive-download/?shareId=${s.id}&archiveTaskId=${mine}`)).body.code).toBe('TASK_NOT_FOUND');
    // the owner's archive through the share is theirs alone
    const ownShareTask = await o.http.post(`/api/shares/${s.id}/archive-tasks/`, {});
    expect(ownShareTask.status).toBe(201);
    expect((await urlOf(v, s.shareLinkId, ownShareTask.body.id)).body.code).toBe('TASK_NOT_FOUND');
    const ownerUrl = await o.http.get(`/api/urls/share-archive-download/?shareId=${s.id}&archiveTaskId=${ownShareTask.body.id}`);
    expect(ownerUrl.status, JSON.stringify(ownerUrl.body)).toBe(200);
    expect((await bytesOf(ownerUrl.body.url)).body.includes(Buffer.from('come along'))).toBe(true);

    const ok = await urlOf(v, s.shareLinkId, mine);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const zip = await bytesOf(ok.body.url);
    expect(zip.status).toBe(200);
    expect(zip.body.includes(Buffer.from('come along'))).toBe(true);
    expect(zip.body.includes(Buffer.from('diary'))).toBe(false);
    // the share's URL is no storage archive URL, and a tampered one is refused
    expect((await bytesOf(ok.body.url.replace(`/share-links/${s.shareLinkId}/archives/`, '/storage-archives/'))).status).toBe(403);
    expect((await bytesOf(ok.body.url.replace(mine, own.body.id))).status).toBe(403);

    // the task ids never reach the request log
    const log = lines.join('');
    for (const id of [mine, own.body.id, ownShareTask.body.id]) expect(log).not.toContain(id);
  });

  it('dies with its share: a revoked password share is not read through another share of the same owner', async () => {
    const o = await owner();
    const folder = await o.folder('Plans');
    await o.file('plan.txt', Buffer.from('the plan'), folder);
    const guarded = await o.share({ itemIds: [folder], password: SHARE_PASSWORD });
    const other = await o.file('open.txt', Buffer.from('open'));
    const open = await o.share({ itemIds: [other] });
    const v = visitor();
    expect((await v.call(`/api/share-links/${guarded.shareLinkId}`, password(SHARE_PASSWORD))).status).toBe(200);
    const task = await archiveOf(v, guarded.shareLinkId);
    const held = (await urlOf(v, guarded.shareLinkId, task)).body.url as string;
    expect((await bytesOf(held)).status).toBe(200);

    expect((await o.http.post(`/api/shares/${guarded.id}/revoke`)).status).toBe(200);
    await o.file('added-later.txt', Buffer.from('added after the revocation'), folder);
    const refused = await bytesOf(held);
    expect(refused.status).toBe(410);
    expect(JSON.parse(refused.body.toString()).code).toBe('LINK_BLOCKED');
    // the same visitor, now on a public share of the same owner
    v.forget();
    expect((await v.call(`/api/share-links/${open.shareLinkId}`)).status).toBe(200);
    const through = await urlOf(v, open.shareLinkId, task);
    expect(through.status).toBe(404);
    expect(through.body.code).toBe('TASK_NOT_FOUND');
  });

  it('stops when the password changes, the share becomes view-only or expires, and leaves out what left the share', async () => {
    const o = await owner();
    const folder = await o.folder('Album');
    await o.file('one.txt', Buffer.from('first file'), folder);
    const loose = await o.file('loose.txt', Buffer.from('loose file'));
    const s = await o.share({ itemIds: [folder, loose], password: SHARE_PASSWORD, expiresAt: new Date(t().clock.now().getTime() + 86_400_000).toISOString() });
    const link = s.shareLinkId;
    const v = visitor();
    expect((await v.call(`/api/share-links/${link}`, password(SHARE_PASSWORD))).status).toBe(200);
    const url = (await urlOf(v, link, await archiveOf(v, link))).body.url as string;
    expect((await bytesOf(url)).body.includes(Buffer.from('loose file'))).toBe(true);

    // an item taken out of the share (trashed) is no longer in its archive
    const trashed = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'trash', itemIds: [loose] });
    expect(trashed.status).toBe(201);
    const now = await bytesOf(url);
    expect(now.status).toBe(200);
    expect(now.body.includes(Buffer.from('first file'))).toBe(true);
    expect(now.body.includes(Buffer.from('loose file'))).toBe(false);

    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { downloadable: false })).status).toBe(200);
    expect(JSON.parse((await bytesOf(url)).body.toString()).code).toBe('SHARE_VIEW_ONLY');
    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { downloadable: true })).status).toBe(200);
    expect((await bytesOf(url)).status).toBe(200);

    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { password: 'another-pass-77' })).status).toBe(200);
    const afterChange = await bytesOf(url);
    expect(afterChange.status).toBe(403);
    expect(JSON.parse(afterChange.body.toString()).code).toBe('SHARE_PROTECTED');

    const w = visitor();
    expect((await w.call(`/api/share-links/${link}`, password('another-pass-77'))).status).toBe(200);
    const fresh = (await urlOf(w, link, await archiveOf(w, link))).body.url as string;
    expect((await bytesOf(fresh)).status).toBe(200);
    // the share expires while the URL (15 minutes) still would not
    const soon = new Date(t().clock.now().getTime() + 60_000).toISOString();
    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { expiresAt: soon })).status).toBe(200);
    t().clock.advance(60_001);
    expect(JSON.parse((await bytesOf(fresh)).body.toString()).code).toBe('LINK_EXPIRED');
  });

  it('refuses a name against the file name rules, for a share archive and a storage archive alike', async () => {
    const o = await owner();
    const doc = await o.file('doc.txt', Buffer.from('doc'));
    const s = await o.share({ itemIds: [doc] });
    const v = visitor();
    for (const archiveName of ['../../etc/passwd.zip', 'a\\b.zip', '.hidden.zip', 'x:y.zip', 'say "hi".zip']) {
      const shared = await v.call(`/api/share-links/${s.shareLinkId}/archive-tasks/`, {}, 'POST', { archiveName });
      expect(shared.status, archiveName).toBe(400);
      expect(shared.body).toMatchObject({ code: 'INVALID_NAME', data: { field: 'archiveName' } });
      const own = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [doc], archiveName });
      expect(own.status, archiveName).toBe(400);
      expect(own.body.code).toBe('INVALID_NAME');
    }
    const named = await archiveOf(v, s.shareLinkId, { archiveName: 'Holiday 2026' });
    const zip = await bytesOf((await urlOf(v, s.shareLinkId, named)).body.url);
    expect(zip.headers.get('content-disposition')).toMatch(/^attachment; filename="Holiday 2026.zip"/);
  });
});

describe('the storage archive URL (GET /urls/storage-archive-download/)', () => {
  it("answers the owner's own finished archive, and nobody else's", async () => {
    const o = await owner();
    const folder = await o.folder('Mine');
    await o.file('m.txt', Buffer.from('mine alone'), folder);
    const task = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [folder] });
    expect(task.status).toBe(201);
    const res = await o.http.get(`/api/urls/storage-archive-download/?archiveTaskId=${task.body.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ url: expect.stringContaining(`/api/storage-archives/${task.body.id}/`), expiresAt: expect.any(String) });
    const zip = await bytesOf(res.body.url);
    expect(zip.status).toBe(200);
    expect(zip.body.includes(Buffer.from('mine alone'))).toBe(true);

    const stranger = await owner();
    const theirs = await stranger.http.get(`/api/urls/storage-archive-download/?archiveTaskId=${task.body.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('TASK_NOT_FOUND');
    expect((await new HttpClient(t().url).get(`/api/urls/storage-archive-download/?archiveTaskId=${task.body.id}`)).status).toBe(401);
    // a task that is no archive, and a share visitor's archive of the owner's items, are not served here
    const trash = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'trash', itemIds: [randomBytes(8).toString('hex')] });
    expect((await o.http.get(`/api/urls/storage-archive-download/?archiveTaskId=${trash.body.id}`)).body.code).toBe('TASK_NOT_FOUND');
    const s = await o.share({ itemIds: [folder] });
    const v = visitor();
    const visit = await archiveOf(v, s.shareLinkId);
    expect((await o.http.get(`/api/urls/storage-archive-download/?archiveTaskId=${visit}`)).body.code).toBe('TASK_NOT_FOUND');
    expect((await o.http.get(`/api/urls/storage-archive-download/`)).body.code).toBe('VALIDATION_FAILED');
  });
});

describe('the 10 MiB rule on shared files', () => {
  it('holds for a file moved into a shared folder after sharing, for every read and archive, and totalSize follows the folder', async () => {
    const o = await owner();
    const folder = await o.folder('Shared');
    await o.file('small.txt', Buffer.from('small'), folder);
    const s = await o.share({ itemIds: [folder] });
    const big = await o.file('big.bin', randomBytes(11 * MiB));
    const moved = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'move', itemIds: [big], destinationId: folder });
    expect(moved.status).toBe(201);
    expect((await o.http.get(moved.body.stateURL)).body.status).toBe('done');
    await caughtUp();

    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    const summary = await v.call(link);
    expect(summary.body.totalSize).toBe(5 + 11 * MiB);
    expect((await o.http.get(`/api/shares/${s.id}/`)).body.totalSize).toBe(5 + 11 * MiB);
    for (const path of [`${link}/entries/${big}?q=download-url`, `${link}/entries/${big}?q=download-url&inline=true`]) {
      const res = await v.call(path);
      expect(res.status, path).toBe(413);
      expect(res.body).toMatchObject({ code: 'SHARED_FILE_TOO_LARGE', data: { itemId: big, maxSize: 10 * MiB } });
    }
    const archive = await v.call(`${link}/archive-tasks/`, {}, 'POST', {});
    expect(archive.status).toBe(413);
    expect(archive.body.code).toBe('SHARED_FILE_TOO_LARGE');
    // an archive made before the file came in does not carry it out either
    const w = visitor();
    const moveOut = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'move', itemIds: [big], destinationId: null });
    expect(moveOut.status).toBe(201);
    await caughtUp();
    expect((await w.call(link)).body.totalSize).toBe(5);
    const before = (await urlOf(w, s.shareLinkId, await archiveOf(w, s.shareLinkId))).body.url as string;
    expect((await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'move', itemIds: [big], destinationId: folder })).status).toBe(201);
    const zip = await bytesOf(before);
    expect(zip.status).toBe(413);
    expect(JSON.parse(zip.body.toString()).code).toBe('SHARED_FILE_TOO_LARGE');
    // the owner reads their own file through their share
    const own = await o.http.get(`/api/shares/${s.id}/entries/${big}?q=download-url`);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    // deleting it brings totalSize back down
    expect((await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'delete', itemIds: [big] })).status).toBe(201);
    await caughtUp();
    expect((await w.call(link)).body.totalSize).toBe(5);
    expect((await o.http.get(`/api/shares/`)).body.data.find((x: { id: string }) => x.id === s.id).totalSize).toBe(5);
  });
});

describe('archives over any mix of shares, visits and tasks', () => {
  it('hand out a URL only to the visit that made the archive, and serve it only while that share lets the visit in', async () => {
    const o = await owner();
    const folders = [await o.folder('One'), await o.folder('Two'), await o.folder('Three')];
    for (const [i, f] of folders.entries()) await o.file(`f${i}.txt`, Buffer.from(`file ${i}`), f);
    const shares = [
      { ...(await o.share({ itemIds: [folders[0]] })), pw: null as string | null },
      { ...(await o.share({ itemIds: [folders[1]], password: SHARE_PASSWORD })), pw: SHARE_PASSWORD as string | null },
      { ...(await o.share({ itemIds: [folders[2]] })), pw: null as string | null },
    ];
    const own = (await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: folders })).body.id as string;
    // two visits per share, each with its archive and its URL
    const visits: { v: Visitor; share: number; task: string; url: string }[] = [];
    for (const [i, s] of shares.entries()) {
      for (let k = 0; k < 2; k++) {
        const v = visitor();
        expect((await v.call(`/api/share-links/${s.shareLinkId}`, s.pw ? password(s.pw) : {})).status).toBe(200);
        const task = await archiveOf(v, s.shareLinkId);
        const url = (await urlOf(v, s.shareLinkId, task)).body.url as string;
        visits.push({ v, share: i, task, url });
      }
    }
    const tasks = [...visits.map((x) => x.task), own];
    const pairs = fc.sample(fc.tuple(fc.integer({ min: 0, max: visits.length - 1 }), fc.integer({ min: 0, max: tasks.length - 1 })), { numRuns: 30, seed: 19 });
    for (const [caller, task] of pairs) {
      const c = visits[caller]!;
      const res = await urlOf(c.v, shares[c.share]!.shareLinkId, tasks[task]!);
      expect(res.status, `visit ${caller} asking for task ${task}`).toBe(tasks[task] === c.task ? 200 : 404);
    }
    // one change to each share, in a seeded order: only URLs of untouched shares still serve
    const changes = fc.sample(fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }), { numRuns: 1, seed: 19 })[0]!;
    const dead = new Set<number>();
    for (const i of changes) {
      const s = shares[i]!;
      const change = [
        () => o.http.post(`/api/shares/${s.id}/revoke`),
        () => o.http.request('PATCH', `/api/shares/${s.id}/`, { password: `changed-${i}-pass` }),
        () => o.http.request('PATCH', `/api/shares/${s.id}/`, { downloadable: false }),
      ][i % 3]!;
      expect((await change()).status).toBe(200);
      dead.add(i);
      for (const x of visits)
        expect((await bytesOf(x.url)).status, `share ${x.share} after changing ${[...dead]}`).toBe(dead.has(x.share) ? (x.share === 0 ? 410 : 403) : 200);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HttpClient, useTestApp } from '../../testing/harness';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/* Share links as visitors and recipients use them, over real HTTP, PostgreSQL and the byte pipeline. */

const t = useTestApp();
const { caughtUp, owner, visitor, password, basic, bytesOf, signIn } = shareAccessHelpers(t);

describe('a password-protected public share of a folder', () => {
  it('asks for the password, refuses a wrong one with 5403, lets the Basic form in and browses on the token alone', async () => {
    const o = await owner();
    const root = await o.folder('Trip');
    const inner = await o.folder('Day one', root);
    const photo = randomBytes(3 * 1024 * 1024 + 17);
    const photoId = await o.file('beach.bin', photo, inner);
    await o.file('notes.txt', Buffer.from('sunny'), root);
    const outside = await o.folder('Not shared');
    const s = await o.share({ itemIds: [root], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;

    const v = visitor();
    const asked = await v.call(link);
    expect(asked.status).toBe(403);
    expect(asked.body).toMatchObject({ code: 'SHARE_PROTECTED', data: { kind: 'public', hasPassword: true, requireLogin: false } });
    expect(JSON.stringify(asked.body)).not.toContain('Holiday');
    expect(asked.headers.get('x-object-access')).toBeNull();

    const wrong = await v.call(link, password('not-the-password'));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 5403, message: 'Wrong share password' });
    expect((await v.call(link, basic('not-the-password'))).body.code).toBe(5403);

    const opened = await v.call(link, basic(SHARE_PASSWORD));
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({
      id: s.id,
      title: 'Holiday photos',
      kind: 'public',
      hasPassword: true,
      downloadable: true,
      itemsCount: 1,
      ownerName: null,
      ownerEmail: null,
      message: null,
    });
    // a public link travels anywhere: it never tells the owner's e-mail
    expect(JSON.stringify(opened.body)).not.toContain(o.email);
    // the owner's name from their profile, once they have one (never their e-mail)
    expect((await o.http.put(`/api/users/${o.id}/profile`, { firstName: 'Ana', lastName: 'Lima' })).status).toBe(200);
    await caughtUp();
    expect((await v.call(link)).body.ownerName).toBe('Ana Lima');
    expect(opened.body).not.toHaveProperty('passwordHash');
    expect(v.token()).toMatch(/^[\w-]+\.[\w-]+$/);

    // the token alone, no password: the root, a folder inside, and nothing outside the share
    const top = await v.call(`${link}/entries/`);
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    expect(top.body.data.map((e: { name: string; parentId: string | null }) => [e.name, e.parentId])).toEqual([['Trip', null]]);
    const trip = await v.call(`${link}/entries/?vertexId=${root}`);
    expect(trip.body.data.map((e: { name: string }) => e.name)).toEqual(['Day one', 'notes.txt']);
    expect((await v.call(`${link}/entries/?vertexId=${root}&name=NOTES`)).body.data.map((e: { name: string }) => e.name)).toEqual(['notes.txt']);
    const day = await v.call(`${link}/entries/?sfFolderId=${inner}`);
    expect(day.body.data).toEqual([expect.objectContaining({ id: photoId, name: 'beach.bin', size: photo.length, label: 'file' })]);
    const foreign = await v.call(`${link}/entries/?vertexId=${outside}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('FOLDER_NOT_FOUND');
    expect((await v.call(`${link}/entries/${outside}`)).body.code).toBe('ITEM_NOT_FOUND');

    // a forged or foreign token is no credential
    const stranger = visitor();
    expect((await stranger.call(`${link}/entries/`, { 'x-object-access': `${v.token()!.split('.')[0]}.forged` })).body.code).toBe('SHARE_PROTECTED');

    // download: byte for byte, by range, as an attachment
    const url = await v.call(`${link}/entries/${photoId}?q=download-url`);
    expect(url.status, JSON.stringify(url.body)).toBe(200);
    // a path, not an address: the page resolves it on the host name it was opened on
    expect(url.body.url).toMatch(new RegExp(`^/api/share-links/${s.shareLinkId}/download/${photoId}\\?t=`));
    const whole = await bytesOf(url.body.url, { 'user-agent': v.userAgent });
    expect(whole.status).toBe(200);
    expect(whole.body.equals(photo)).toBe(true);
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="beach.bin"/);
    const part = await bytesOf(url.body.url, { range: 'bytes=1048570-1048589' });
    expect(part.status).toBe(206);
    expect(part.body.equals(photo.subarray(1048570, 1048590))).toBe(true);
    expect((await bytesOf(url.body.url.replace(photoId, root))).status).toBe(403);
    const tampered = new URL(url.body.url, t().url);
    tampered.searchParams.set('t', `${tampered.searchParams.get('t')!.slice(0, -2)}xx`);
    const refused = await bytesOf(tampered.toString());
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'INVALID_URL', message: 'Invalid Url' });

    // the owner sees one open (the token's calls are the same visit), one download (the range read is not another), and who
    await caughtUp();
    const seen = await o.http.get(`/api/shares/${s.id}/`);
    expect(seen.body).toMatchObject({ openedCount: 1, deliveredOn: expect.any(String) });
    const log = await o.http.get(`/api/shares/${s.id}/access-log`);
    expect(log.status).toBe(200);
    expect(log.body.data.map((r: { action: string }) => r.action)).toEqual(['download', 'open']);
    expect(log.body.data[1]).toMatchObject({ ip: '127.0.0.1', userAgent: v.userAgent, recipientEmail: null, time: expect.any(String) });
    expect(log.body.data[0]).toMatchObject({ entryId: photoId, entryName: 'beach.bin', userAgent: v.userAgent });
    expect(log.body.data[0].visitId).toBe(log.body.data[1].visitId);

    // another visit is another open; the owner looking at their own link is none
    const second = visitor();
    expect((await second.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    expect((await o.http.request('GET', link)).status).toBe(200);
    await caughtUp();
    expect((await o.http.get(`/api/shares/${s.id}/`)).body.openedCount).toBe(2);

    // the owner's access log and entries are the owner's alone
    const other = await owner();
    expect((await other.http.get(`/api/shares/${s.id}/access-log`)).status).toBe(404);
    expect((await other.http.get(`/api/shares/${s.id}/entries/`)).status).toBe(404);
    expect((await new HttpClient(t().url).get(`/api/shares/${s.id}/access-log`)).status).toBe(401);
    const mine = await o.http.get(`/api/shares/${s.id}/entries/?vertexId=${inner}`);
    expect(mine.body.data.map((e: { id: string }) => e.id)).toEqual([photoId]);
    const ownUrl = await o.http.get(`/api/shares/${s.id}/entries/${photoId}?q=download-url`);
    expect((await bytesOf(ownUrl.body.url)).body.equals(photo)).toBe(true);

    // a changed password ends the visits made with the old one
    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { password: 'another-pass-77' })).status).toBe(200);
    const after = await v.call(`${link}/entries/`);
    expect(after.body.code).toBe('SHARE_PROTECTED');
  });

  it('downloads the shared folder as a zip through a storage archive task', async () => {
    const o = await owner();
    const root = await o.folder('Docs');
    await o.file('a.txt', Buffer.from('alpha'), root);
    await o.file('b.txt', Buffer.from('bravo'), root);
    const s = await o.share({ itemIds: [root], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    const task = await v.call(`${link}/archive-tasks/`, {}, 'POST', {});
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    expect(task.body).toMatchObject({ status: 'done', size: 10 });
    const url = await v.call(`/api/urls/share-archive-download/?shareId=${s.shareLinkId}&archiveTaskId=${task.body.id}`);
    expect(url.status, JSON.stringify(url.body)).toBe(200);
    const zip = await bytesOf(url.body.url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.body.subarray(0, 2).toString()).toBe('PK');
    expect(zip.body.includes(Buffer.from('Docs/a.txt'))).toBe(true);
    expect(zip.body.includes(Buffer.from('bravo'))).toBe(true);
    // a task that is not this share's, and a visitor without credentials
    expect((await v.call(`/api/urls/share-archive-download/?shareId=${s.shareLinkId}&archiveTaskId=nope`)).body.code).toBe('TASK_NOT_FOUND');
    expect((await visitor().call(`${link}/archive-tasks/`, {}, 'POST', {})).body.code).toBe('SHARE_PROTECTED');
    await caughtUp();
    const log = await o.http.get(`/api/shares/${s.id}/access-log`);
    expect(log.body.data.map((r: { action: string; entryName: string | null }) => [r.action, r.entryName])).toEqual([
      ['archive', 'Holiday photos.zip'],
      ['open', null],
    ]);
  });
});

describe('a long visit', () => {
  it('gets a fresh token in the second half of its hour, still one open', async () => {
    const o = await owner();
    const doc = await o.file('long.txt', Buffer.from('long read'));
    const s = await o.share({ itemIds: [doc], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    const first = v.token();
    t().clock.advance(20 * 60_000);
    expect((await v.call(`${link}/entries/`)).status).toBe(200);
    expect(v.token()).toBe(first);
    t().clock.advance(20 * 60_000);
    expect((await v.call(`${link}/entries/`)).status).toBe(200);
    expect(v.token()).not.toBe(first);
    // past the first token's hour, the renewed one still works; the first does not
    t().clock.advance(30 * 60_000);
    expect((await v.call(`${link}/entries/`)).status).toBe(200);
    expect((await visitor().call(`${link}/entries/`, { 'x-object-access': first! })).body.code).toBe('SHARE_PROTECTED');
    await caughtUp();
    // the owner signs in again after the hour and more
    const { http } = await signIn(o.email);
    expect((await http.get(`/api/shares/${s.id}/`)).body.openedCount).toBe(1);
  });
});

describe('a share that needs a login', () => {
  it('sends a visitor without a session to sign in, and lets a signed-in one in, named in the access log', async () => {
    const o = await owner();
    const doc = await o.file('members.txt', Buffer.from('members only'));
    const s = await o.share({ itemIds: [doc], requireLogin: true });
    const link = `/api/share-links/${s.shareLinkId}`;
    const anonymous = await visitor().call(link);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'SHARE_LOGIN_REQUIRED', data: { requireLogin: true } });
    const reader = await owner();
    const opened = await reader.http.request('GET', link, undefined, { 'user-agent': 'member-browser' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    await caughtUp();
    const log = await o.http.get(`/api/shares/${s.id}/access-log`);
    expect(log.body.data).toEqual([expect.objectContaining({ action: 'open', recipientEmail: reader.email.toLowerCase(), userAgent: 'member-browser' })]);
  });

  it('refuses an archive over 10 GB', async () => {
    const o = await owner();
    const root = await o.folder('Big');
    const doc = await o.file('huge.bin', Buffer.from('pretend'), root);
    const s = await o.share({ itemIds: [root] });
    // the storage's read model says the file is 11 GB (no test uploads that much)
    await t().app.ctx.pool.query('update storage_items set size = $2 where id = $1', [doc, 11_000_000_000]);
    const res = await visitor().call(`/api/share-links/${s.shareLinkId}/archive-tasks/`, {}, 'POST', {});
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('DOWNLOAD_SIZE_EXCEEDED');
  });
});

describe('a view-only share', () => {
  it('refuses downloads and archives but previews a file inline', async () => {
    const o = await owner();
    const text = await o.file('read-me.txt', Buffer.from('look, do not take'));
    const blob = await o.file('data.bin', randomBytes(100));
    const s = await o.share({ itemIds: [text, blob], downloadable: false });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link)).body).toMatchObject({ downloadable: false, hasPassword: false });
    const refused = await v.call(`${link}/entries/${text}?q=download-url`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SHARE_VIEW_ONLY');
    expect((await v.call(`${link}/entries/${blob}?q=download-url&inline=true`)).body.code).toBe('SHARE_VIEW_ONLY');
    expect((await v.call(`${link}/archive-tasks/`, {}, 'POST', {})).body.code).toBe('SHARE_VIEW_ONLY');
    const preview = await v.call(`${link}/entries/${text}?q=download-url&inline=true`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const shown = await bytesOf(preview.body.url);
    expect(shown.body.toString()).toBe('look, do not take');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline/);
    // a preview is not a download
    await caughtUp();
    expect((await o.http.get(`/api/shares/${s.id}/access-log`)).body.data.map((r: { action: string }) => r.action)).toEqual(['open']);
  });
});

describe('a private share', () => {
  it('is for its recipients only, tells the owner of each first open, and shuts out a blocked recipient', async () => {
    const o = await owner();
    const doc = await o.file('contract.txt', Buffer.from('sign here'));
    const s = await o.share({ itemIds: [doc], recipients: ['ann@example.com', 'bob@example.com'], message: 'For you', password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;

    // the password first: without it, a stranger's address and a recipient's get the same answer
    const probes = [];
    for (const email of ['eve@example.com', 'ann@example.com']) {
      for (const credential of [{}, password('wrong-password-1')]) {
        const probe = await visitor().call(link, { ...credential, 'x-share-email': email });
        probes.push({ email, status: probe.status, body: probe.body });
      }
    }
    expect(probes.map((p) => [p.email, p.status, p.body.code])).toEqual([
      ['eve@example.com', 403, 'SHARE_PROTECTED'],
      ['eve@example.com', 403, 5403],
      ['ann@example.com', 403, 'SHARE_PROTECTED'],
      ['ann@example.com', 403, 5403],
    ]);
    expect(probes[0]!.body).toEqual(probes[2]!.body);
    expect(probes[1]!.body).toEqual(probes[3]!.body);

    const eve = visitor();
    const asked = await eve.call(link, password(SHARE_PASSWORD));
    expect(asked.body).toMatchObject({ code: 'PRIVATE_SHARE_EMAIL_REQUIRED', data: { kind: 'private' } });
    const denied = await eve.call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'eve@example.com' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PRIVATE_SHARE_RECIPIENT_ONLY', message: 'This private share is for the intended recipient only' });
    expect(denied.headers.get('x-object-access')).toBeNull();

    const ann = visitor();
    expect((await ann.call(link, { ...password('wrong-password-1'), 'x-share-email': 'ann@example.com' })).body.code).toBe(5403);
    const opened = await ann.call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'Ann@Example.com' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    // the recipient is told who sent it (the address the share's mail came from) and the owner's message
    expect(opened.body).toMatchObject({ kind: 'private', ownerName: null, ownerEmail: o.email, message: 'For you' });
    // the token keeps Ann as the recipient: another e-mail header does not turn the visit into someone else's
    expect((await ann.call(`${link}/entries/`, { 'x-share-email': 'eve@example.com' })).status).toBe(200);
    const again = visitor();
    expect((await again.call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'ann@example.com' })).status).toBe(200);

    const bob = visitor();
    expect((await bob.call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'bob@example.com' })).status).toBe(200);
    await caughtUp();
    const notices = await o.http.get(`/api/users/${o.id}/notifications/`);
    const opens = notices.body.data.filter((n: { type: string }) => n.type === 'share_opened');
    expect(opens.map((n: { body: string }) => n.body).sort()).toEqual([
      'ann@example.com opened your private share for the first time.',
      'bob@example.com opened your private share for the first time.',
    ]);
    const seen = await o.http.get(`/api/shares/${s.id}/`);
    expect(seen.body.openedCount).toBe(3);
    expect(seen.body.recipients).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: 'ann@example.com', openedAt: expect.any(String) }),
        expect.objectContaining({ email: 'bob@example.com' }),
      ]),
    );
    const log = await o.http.get(`/api/shares/${s.id}/access-log`);
    expect(log.body.data.map((r: { recipientEmail: string }) => r.recipientEmail)).toEqual(['bob@example.com', 'ann@example.com', 'ann@example.com']);

    // blocked: refused with the password, and the visit already made ends too
    expect((await o.http.post(`/api/shares/${s.id}/recipients/bob@example.com/block`)).status).toBe(200);
    const blocked = await bob.call(`${link}/entries/`);
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('SHARE_RECIPIENT_BLOCKED');
    bob.forget();
    expect((await bob.call(link, { 'x-share-email': 'bob@example.com' })).body.code).toBe('SHARE_PROTECTED');
    expect((await bob.call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'bob@example.com' })).body.code).toBe('SHARE_RECIPIENT_BLOCKED');
    expect((await ann.call(`${link}/entries/`)).status).toBe(200);
  });
});

describe('links that no longer work', () => {
  it('say so when revoked or expired, for a held token and a handed-out download URL too', async () => {
    const o = await owner();
    const doc = await o.file('a.txt', Buffer.from('a'));
    const revoked = await o.share({ itemIds: [doc] });
    const v = visitor();
    const link = `/api/share-links/${revoked.shareLinkId}`;
    expect((await v.call(link)).status).toBe(200);
    const url = (await v.call(`${link}/entries/${doc}?q=download-url`)).body.url as string;
    expect((await o.http.post(`/api/shares/${revoked.id}/revoke`)).status).toBe(200);
    for (const res of [await v.call(link), await v.call(`${link}/entries/`), await visitor().call(link)]) {
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ code: 'LINK_BLOCKED', message: 'This link is blocked' });
    }
    expect((await bytesOf(url)).status).toBe(410);

    const expiring = await o.share({ itemIds: [doc], expiresAt: new Date(t().clock.now().getTime() + 3_600_000).toISOString() });
    const w = visitor();
    expect((await w.call(`/api/share-links/${expiring.shareLinkId}`)).status).toBe(200);
    t().clock.advance(3_600_001);
    const expired = await w.call(`/api/share-links/${expiring.shareLinkId}/entries/`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('LINK_EXPIRED');
    expect((await visitor().call(`/api/share-links/${randomBytes(16).toString('base64url').slice(0, 22)}`)).body.code).toBe('SHARE_NOT_FOUND');
  });

  it('says the share has nothing left when its items are gone', async () => {
    const o = await owner();
    const doc = await o.file('gone.txt', Buffer.from('soon gone'));
    const s = await o.share({ itemIds: [doc] });
    const started = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'trash', itemIds: [doc] });
    expect((await o.http.get(started.body.stateURL)).body.status).toBe('done');
    const res = await visitor().call(`/api/share-links/${s.shareLinkId}/entries/`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SHARE_ENTRY_EMPTY');
  });
});

describe('password guessing', () => {
  it('is cut off per link after 60 calls a minute without a valid token (a forged one is none), while a let-in visit goes on', async () => {
    const o = await owner();
    const doc = await o.file('secret.txt', Buffer.from('s'));
    const s = await o.share({ itemIds: [doc], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    const guesser = visitor();
    const answers: number[] = [];
    // half of the guesses claim the link in a forged token: only a token signed here spares the link's cap
    const forged = { 'x-object-access': `${v.token()!.split('.')[0]}.forged` };
    for (let i = 0; i < 61; i++) answers.push((await guesser.call(link, i % 2 ? forged : {})).status);
    expect(answers.slice(0, 59).every((s) => s === 403)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    expect((await v.call(link)).status).toBe(200);
  });
});

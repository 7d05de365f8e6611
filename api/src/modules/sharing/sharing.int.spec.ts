import { SHARED_FILE_MAX_BYTES } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient } from '../../testing/harness';
import { BillingService } from '../billing/billing.service';
import { storageTestApp } from '../files/storage.testing';

const { t, bytes } = storageTestApp();
const { signedInUser, lastMail, mailCount, uniqueEmail, signIn } = accountHelpers(t);

const DAY = 86_400_000;
const inDays = (days: number) => new Date(t().clock.now().getTime() + days * DAY).toISOString();

/** A signed-in user with their online storage and helpers to fill it. */
const owner = async () => {
  const { http, email, id, storageId } = await signedInUser();
  const base = `/api/users/${id}/storages/${storageId}`;
  const folder = async (name: string, parent?: string) => {
    const res = await http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'folder', name });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const file = async (name: string, content: string, parent?: string, claimedSize?: number) => {
    const uploadId = bytes.upload(id, storageId, content, claimedSize);
    const res = await http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'file', name, uploadId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const share = (body: Record<string, unknown>) => http.post('/api/shares/', { title: 'Shared', downloadable: true, ...body });
  const patch = (shareId: string, body: Record<string, unknown>) => http.request('PATCH', `/api/shares/${shareId}/`, body);
  return { http, email, id, storageId, folder, file, share, patch };
};
type Owner = Awaited<ReturnType<typeof owner>>;

const refused = (res: { status: number; body: { code: unknown } }) => [res.status, res.body.code];

describe('creating shares', () => {
  it('shares files and folders of the own storage: 201 with the link, sizes, flags and no password hash', async () => {
    const o = await owner();
    const fileId = await o.file('notes.txt', 'hello');
    const folderId = await o.folder('Photos');
    const inner = await o.folder('Summer', folderId);
    await o.file('a.jpg', 'aaaaaaaaaa', inner);
    await o.file('b.jpg', 'bbb', folderId);
    const res = await o.share({
      itemIds: [fileId, folderId],
      title: ' Holiday ',
      description: 'Pictures from the trip',
      expiresAt: inDays(10),
      password: 'open-sesame',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      type: 'normal',
      kind: 'public',
      status: 'active',
      title: 'Holiday',
      description: 'Pictures from the trip',
      downloadable: true,
      requireLogin: false,
      esign: false,
      hasPassword: true,
      ownerId: o.id,
      storageId: o.storageId,
      totalSize: 5 + 10 + 3,
      openedCount: 0,
      deliveredOn: null,
      revokedAt: null,
      items: [
        { id: fileId, kind: 'file', name: 'notes.txt', size: 5 },
        { id: folderId, kind: 'folder', name: 'Photos', size: 13 },
      ],
    });
    expect(res.body.shareId).toBe(res.body.id);
    expect(res.body.shareLinkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.body.url).toBe(`${t().url}/shares/${res.body.shareLinkId}`);
    expect(JSON.stringify(res.body)).not.toContain('argon2');
    expect((await o.http.get(`/api/shares/${res.body.id}/`)).body).toEqual(res.body);
  });

  it('answers every refusal of the sharing rules with its code, and counts none of them', async () => {
    const o = await owner();
    const fileId = await o.file('ok.txt', 'x');
    const empty = await o.folder('Empty');
    const onlyFolders = await o.folder('Nested');
    await o.folder('Deeper', onlyFolders);
    const big = await o.file('big.bin', 'x', undefined, SHARED_FILE_MAX_BYTES + 1);
    const bigInside = await o.folder('Archive');
    await o.file('inside.bin', 'x', bigInside, SHARED_FILE_MAX_BYTES + 1);
    const exact = await o.file('exact.bin', 'x', undefined, SHARED_FILE_MAX_BYTES);
    const other = await owner();
    const foreign = await other.file('theirs.txt', 'x');
    const priv = { itemIds: [fileId], title: 'For you', message: 'Have a look', password: 'open-sesame' };

    expect(refused(await o.share({ itemIds: [empty] }))).toEqual([400, 'EMPTY_FOLDER_SHARE']);
    expect(refused(await o.share({ itemIds: [onlyFolders] }))).toEqual([400, 'EMPTY_FOLDER_SHARE']);
    expect(refused(await o.share({ itemIds: [big] }))).toEqual([413, 'SHARED_FILE_TOO_LARGE']);
    expect(refused(await o.share({ itemIds: [bigInside] }))).toEqual([413, 'SHARED_FILE_TOO_LARGE']);
    expect(refused(await o.share({ itemIds: [foreign] }))).toEqual([404, 'ITEM_NOT_FOUND']);
    expect(refused(await o.share({ itemIds: [] }))).toEqual([400, 'VALIDATION_FAILED']);
    expect(refused(await o.share({ itemIds: [fileId], title: 'Fun 🎉' }))).toEqual([400, 'INVALID_TITLE']);
    expect(refused(await o.share({ itemIds: [fileId], title: 'shit list' }))).toEqual([400, 'PROFANITY']);
    expect(refused(await o.share({ itemIds: [fileId], esign: true }))).toEqual([403, 'ESIGN_NOT_IN_PLAN']);
    expect(refused(await o.share({ itemIds: [fileId], description: 'a|b' }))).toEqual([400, 'INVALID_NOTE']);
    expect(refused(await o.share({ itemIds: [fileId], password: 'short' }))).toEqual([400, 'INVALID_SHARE_PASSWORD']);
    expect(refused(await o.share({ itemIds: [fileId], expiresAt: inDays(-1) }))).toEqual([400, 'INVALID_EXPIRY']);
    const eleven = Array.from({ length: 11 }, () => uniqueEmail('r'));
    expect(refused(await o.share({ ...priv, recipients: eleven }))).toEqual([400, 'TOO_MANY_RECIPIENTS']);
    expect(refused(await o.share({ ...priv, recipients: [o.email.toUpperCase()] }))).toEqual([400, 'OWN_EMAIL_RECIPIENT']);
    expect(refused(await o.share({ ...priv, recipients: ['a@example.com', 'A@example.com'] }))).toEqual([400, 'DUPLICATE_RECIPIENT']);
    expect(refused(await o.share({ ...priv, recipients: ['nobody'] }))).toEqual([400, 'INVALID_RECIPIENT']);
    expect(refused(await o.share({ ...priv, password: undefined, recipients: ['a@example.com'] }))).toEqual([400, 'PRIVATE_SHARE_FIELDS_REQUIRED']);
    expect(refused(await o.share({ ...priv, message: undefined, recipients: ['a@example.com'] }))).toEqual([400, 'PRIVATE_SHARE_FIELDS_REQUIRED']);
    expect(refused(await new HttpClient(t().url).post('/api/shares/', { itemIds: [fileId], title: 'x', downloadable: true }))).toEqual([401, 'UNAUTHORIZED']);

    expect((await o.http.get('/api/shares/user-plan-count/')).body).toEqual({ count: 0, limit: 5 });
    expect((await o.share({ itemIds: [exact] })).status).toBe(201);
    expect((await o.http.get('/api/shares/user-plan-count/')).body).toEqual({ count: 1, limit: 5 });
  });

  it('the sixth share of a Basic month is refused; on Professional large files and more shares pass', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    for (let i = 0; i < 5; i++) expect((await o.share({ itemIds: [fileId], title: `Share ${i}` })).status).toBe(201);
    const sixth = await o.share({ itemIds: [fileId] });
    expect(sixth.status).toBe(403);
    expect(sixth.body).toMatchObject({ code: 'SHARE_LIMIT_REACHED', message: 'You have used all 5 shares of your plan this month', data: { limit: 5 } });
    // a deleted share still counts for the month
    const first = (await o.http.get('/api/shares/')).body.data[0].id as string;
    expect((await o.http.delete(`/api/shares/${first}/`)).status).toBe(204);
    expect((await o.share({ itemIds: [fileId] })).body.code).toBe('SHARE_LIMIT_REACHED');
    expect((await o.http.get(`/api/shares/user-plan-count/?sinceDate=${encodeURIComponent(inDays(-1))}`)).body.count).toBe(5);
    expect((await o.http.get(`/api/shares/user-plan-count/?sinceDate=${encodeURIComponent(inDays(1))}`)).body.count).toBe(0);

    await new BillingService(t().app.ctx, () => null).changePlanByStaff(o.id, 200, 'staff-test', {
      ip: null,
      userAgent: null,
      client: null,
      correlationId: 'c',
    });
    const big = await o.file('big.bin', 'x', undefined, SHARED_FILE_MAX_BYTES * 3);
    expect((await o.share({ itemIds: [big], esign: true })).body).toMatchObject({ esign: true, totalSize: SHARED_FILE_MAX_BYTES * 3 });
    expect((await o.http.get('/api/shares/user-plan-count/')).body).toEqual({ count: 6, limit: null });
  });

  it('10 parallel creates on a Basic account with 3 used: exactly 2 pass', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    for (let i = 0; i < 3; i++) expect((await o.share({ itemIds: [fileId] })).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => o.share({ itemIds: [fileId], title: `Race ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 403 && r.body.code === 'SHARE_LIMIT_REACHED')).toHaveLength(8);
    expect((await o.http.get('/api/shares/')).body.totalCount).toBe(5);
    expect((await o.http.get('/api/shares/user-plan-count/')).body.count).toBe(5);
  });
});

describe('private shares', () => {
  const privateShare = async (o: Owner, recipients: string[]) => {
    const fileId = await o.file('contract.pdf', 'pdf bytes');
    const res = await o.share({ itemIds: [fileId], title: 'Contract', message: 'Please sign by Friday', password: 'open-sesame', recipients });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('mails each recipient the sender, title, message and link; the owner sees the recipients', async () => {
    const o = await owner();
    const [ann, bob] = [uniqueEmail('ann'), uniqueEmail('bob')];
    const share = await privateShare(o, [ann, bob.toUpperCase()]);
    expect(share).toMatchObject({ kind: 'private', url: `${t().url}/private-share/${share.shareLinkId}` });
    expect(share.recipients).toEqual([
      { email: ann, blocked: false, openedAt: null },
      { email: bob, blocked: false, openedAt: null },
    ]);
    for (const to of [ann, bob]) {
      const mail = await lastMail(to, 'A private share was sent to you');
      expect(mail.text).toContain(o.email);
      expect(mail.text).toContain('"Contract"');
      expect(mail.text).toContain('Please sign by Friday');
      expect(mail.text).toContain(share.url);
      expect(mail.text).not.toContain('open-sesame');
    }
  });

  it('blocks and unblocks a recipient; a resend goes to the unblocked ones only', async () => {
    const o = await owner();
    const [ann, bob] = [uniqueEmail('ann'), uniqueEmail('bob')];
    const share = await privateShare(o, [ann, bob]);
    await lastMail(bob);
    const blocked = await o.http.post(`/api/shares/${share.id}/recipients/${encodeURIComponent(bob)}/block`);
    expect(blocked.status).toBe(200);
    expect(blocked.body.recipients).toEqual([
      { email: ann, blocked: false, openedAt: null },
      { email: bob, blocked: true, openedAt: null },
    ]);
    const [annBefore, bobBefore] = [await mailCount(ann), await mailCount(bob)];
    expect((await o.http.post(`/api/shares/${share.id}/resend`)).status).toBe(200);
    for (let i = 0; i < 100 && (await mailCount(ann)) === annBefore; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await mailCount(ann)).toBe(annBefore + 1);
    expect(await mailCount(bob)).toBe(bobBefore);
    expect(refused(await o.http.post(`/api/shares/${share.id}/recipients/${encodeURIComponent(uniqueEmail('x'))}/block`))).toEqual([
      404,
      'RECIPIENT_NOT_FOUND',
    ]);
    const unblocked = await o.http.post(`/api/shares/${share.id}/recipients/${encodeURIComponent(bob)}/unblock`);
    expect(unblocked.body.recipients[1]).toEqual({ email: bob, blocked: false, openedAt: null });
    // a private share keeps its password
    expect(refused(await o.patch(share.id, { password: null }))).toEqual([400, 'PRIVATE_SHARE_FIELDS_REQUIRED']);
    // an expired share is not sent again
    expect((await o.patch(share.id, { expiresAt: new Date(t().clock.now().getTime() + 60_000).toISOString() })).status).toBe(200);
    t().clock.advance(61_000);
    expect(refused(await o.http.post(`/api/shares/${share.id}/resend`))).toEqual([410, 'LINK_EXPIRED']);
  });

  it('caps resends per recipient and per account in any 24 hours: 429 with Retry-After beyond, no mail sent', async () => {
    const o = await owner();
    const recipients = Array.from({ length: 10 }, (_, i) => uniqueEmail(`r${i}`));
    const share = await privateShare(o, recipients);
    const other = await o.file('other.pdf', 'other bytes');
    const made = await o.share({
      itemIds: [other],
      title: 'Other',
      message: 'Another one',
      password: 'open-sesame',
      recipients: Array.from({ length: 10 }, (_, i) => uniqueEmail(`s${i}`)),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const second = made.body as { id: string };
    const waitFor = async (count: number) => {
      for (let i = 0; i < 600 && (await Promise.all(recipients.map(mailCount))).some((n) => n < count); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await Promise.all(recipients.map(mailCount))).toEqual(recipients.map(() => count));
    };
    const answers: number[] = [];
    let last: Awaited<ReturnType<typeof o.http.post>> | null = null;
    for (let i = 0; i < 15; i++) {
      last = await o.http.post(`/api/shares/${share.id}/resend`);
      answers.push(last.status);
    }
    expect(answers).toEqual([200, 200, 200, ...Array(12).fill(429)]);
    expect(last!.body).toMatchObject({ code: 'RATE_LIMITED', data: { cap: 'recipient' } });
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(86_000);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // the share mail and three resends each, not 15
    await waitFor(4);
    t().clock.advance(retryAfter * 1000);
    let { http } = await signIn(o.email);
    expect((await http.post(`/api/shares/${share.id}/resend`)).status).toBe(200);
    await waitFor(5);

    // the account's cap over all its shares: 50 resend mails in 24 hours
    t().clock.advance(86_400_000);
    ({ http } = await signIn(o.email));
    for (let i = 0; i < 3; i++) expect((await http.post(`/api/shares/${share.id}/resend`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await http.post(`/api/shares/${second.id}/resend`)).status).toBe(200);
    const overAccount = await http.post(`/api/shares/${second.id}/resend`);
    expect(overAccount.status).toBe(429);
    expect(overAccount.body.data.cap).toBe('account');
    expect(Number(overAccount.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 180_000);

  it('recipients belong to private shares only', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    const pub = (await o.share({ itemIds: [fileId] })).body;
    expect(refused(await o.http.post(`/api/shares/${pub.id}/resend`))).toEqual([400, 'NOT_PRIVATE_SHARE']);
    expect(refused(await o.http.post(`/api/shares/${pub.id}/recipients/a%40example.com/block`))).toEqual([400, 'NOT_PRIVATE_SHARE']);
    expect(pub).not.toHaveProperty('recipients');
  });
});

describe('owner actions and lists', () => {
  it('edits, revokes for good and deletes; nobody else sees or touches the share', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    const share = (await o.share({ itemIds: [fileId], title: 'Draft' })).body;
    const expiresAt = inDays(3);
    const edited = await o.patch(share.id, { title: 'Final', downloadable: false, expiresAt, password: 'new-secret', requireLogin: true });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Final', downloadable: false, expiresAt, hasPassword: true, requireLogin: true });
    expect((await o.patch(share.id, { password: null })).body.hasPassword).toBe(false);
    expect(refused(await o.patch(share.id, { expiresAt: inDays(-1) }))).toEqual([400, 'INVALID_EXPIRY']);
    expect(refused(await o.patch(share.id, { owner: 'x' }))).toEqual([400, 'VALIDATION_FAILED']);

    const stranger = await owner();
    expect(refused(await stranger.http.get(`/api/shares/${share.id}/`))).toEqual([404, 'SHARE_NOT_FOUND']);
    expect(refused(await stranger.patch(share.id, { title: 'Mine' }))).toEqual([404, 'SHARE_NOT_FOUND']);
    expect(refused(await stranger.http.post(`/api/shares/${share.id}/revoke`))).toEqual([404, 'SHARE_NOT_FOUND']);
    expect(refused(await stranger.http.delete(`/api/shares/${share.id}/`))).toEqual([404, 'SHARE_NOT_FOUND']);
    expect((await stranger.http.get('/api/shares/')).body.totalCount).toBe(0);
    expect(refused(await o.http.get('/api/shares/not-a-share/'))).toEqual([404, 'SHARE_NOT_FOUND']);

    const revoked = await o.http.post(`/api/shares/${share.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toBe(revoked.body.modifiedAt);
    expect(refused(await o.patch(share.id, { title: 'Again' }))).toEqual([409, 'SHARE_ALREADY_REVOKED']);
    expect((await o.http.get('/api/shares/')).body.data[0]).toMatchObject({ id: share.id, revokedAt: revoked.body.revokedAt });

    expect((await o.http.delete(`/api/shares/${share.id}/`)).status).toBe(204);
    expect(refused(await o.http.get(`/api/shares/${share.id}/`))).toEqual([404, 'SHARE_NOT_FOUND']);
    expect((await o.http.get('/api/shares/')).body.totalCount).toBe(0);
  });

  it('an edit with If-Match applies only to the revision the client read (412 otherwise)', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    const share = (await o.share({ itemIds: [fileId], title: 'Draft' })).body;
    const read = await o.http.get(`/api/shares/${share.id}/`);
    const etag = read.headers.get('etag')!;
    expect(etag).toBe('"0"');
    // another tab edits first
    expect((await o.patch(share.id, { title: 'Other tab' })).headers.get('etag')).toBe('"1"');
    const stale = await o.http.request('PATCH', `/api/shares/${share.id}/`, { title: 'Mine' }, { 'if-match': etag });
    expect(refused(stale)).toEqual([412, 'PRECONDITION_FAILED']);
    expect(refused(await o.http.request('PATCH', `/api/shares/${share.id}/`, { title: 'Mine' }, { 'if-match': 'garbage' }))).toEqual([
      412,
      'PRECONDITION_FAILED',
    ]);
    const fresh = await o.http.request('PATCH', `/api/shares/${share.id}/`, { title: 'Mine' }, { 'if-match': '"1"' });
    expect(fresh.status).toBe(200);
    expect(fresh.body.title).toBe('Mine');
    expect(fresh.headers.get('etag')).toBe('"2"');
    expect((await o.http.get(`/api/shares/${share.id}/`)).body.title).toBe('Mine');
  });

  it('lists newest first by default; sorts, pages, searches, filters by expiry and looks up an e-mail with its range', async () => {
    const o = await owner();
    const fileId = await o.file('a.txt', 'a');
    const ann = uniqueEmail('ann');
    const a = (await o.share({ itemIds: [fileId], title: 'Alpha report', expiresAt: inDays(2) })).body;
    t().clock.advance(1000);
    const b = (await o.share({ itemIds: [fileId], title: 'beta', expiresAt: inDays(20), recipients: [ann], message: 'hi', password: 'open-sesame' })).body;
    t().clock.advance(1000);
    const c = (await o.share({ itemIds: [fileId], title: 'Gamma report' })).body;
    const ids = async (query: string) => ((await o.http.get(`/api/shares/${query}`)).body.data as { id: string }[]).map((s) => s.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?sortBy=title&sortOrder=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?perPage=2&page=2')).toEqual([a.id]);
    expect(await ids('?q=REPORT')).toEqual([c.id, a.id]);
    expect(await ids('search?q=gamma')).toEqual([c.id]);
    const range = `expiresFrom=${encodeURIComponent(inDays(1))}&expiresAt=${encodeURIComponent(inDays(30))}`;
    expect(await ids(`?${range}`)).toEqual([b.id, a.id]);
    expect(await ids(`?email=${encodeURIComponent(ann.toUpperCase())}&${range}`)).toEqual([b.id]);
    expect(refused(await o.http.get(`/api/shares/?email=${encodeURIComponent(ann)}`))).toEqual([400, 'VALIDATION_FAILED']);
    expect(refused(await o.http.get('/api/shares/?sortBy=password'))).toEqual([400, 'VALIDATION_FAILED']);
    const list = (await o.http.get('/api/shares/')).body;
    expect(list).toMatchObject({ totalCount: 3, page: 1, perPage: 500 });
    expect(list.data[1].recipients).toEqual([{ email: ann, blocked: false, openedAt: null }]);
  });

  it('counts the secure fetches of a user for their own account only', async () => {
    const o = await owner();
    expect((await o.http.get(`/api/users/${o.id}/counters/sf/`)).body).toEqual({ count: 0 });
    const other = await owner();
    expect((await other.http.get(`/api/users/${o.id}/counters/sf/`)).status).toBe(403);
  });
});

import { LOCK_CODE_TTL_MS, LOCK_GRANT_IDLE_MS } from '@axel/domain';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { HttpClient } from '../../testing/harness';
import { storageTestApp } from '../files/storage.testing';

/*
 * The two-factor lock of files and folders (spec §4 File 2FA lock; §8 incorrect 2FA code, 5102),
 * as the web app drives it: ask for a code, lock, be asked again before opening, open with a fresh
 * code for the session, unlock.
 */

const { t, bytes } = storageTestApp();
const { signUpConfirmed, signIn, lastMail, mailCount } = accountHelpers(t);

const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(t().clock.now().getTime() / 1000) });

/** A user with a folder `Private` holding `plan.txt`, and `notes.txt` at the root. */
const owner = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
  const base = `/api/users/${id}/storages/${storageId}`;
  const folder = await http.post(`${base}/items/`, { label: 'folder', name: 'Private' });
  expect(folder.status, JSON.stringify(folder.body)).toBe(201);
  const file = await http.post(`${base}/folders/${folder.body.id}/items/`, {
    label: 'file',
    name: 'plan.txt',
    uploadId: bytes.upload(id, storageId, 'the secret plan'),
  });
  expect(file.status, JSON.stringify(file.body)).toBe(201);
  const loose = await http.post(`${base}/items/`, { label: 'file', name: 'notes.txt', uploadId: bytes.upload(id, storageId, 'open notes') });
  return { http, id, email, storageId, base, folderId: folder.body.id as string, fileId: file.body.id as string, looseId: loose.body.id as string };
};

/** Asks for a mailed code and reads it from the development mailbox. */
const mailedCode = async (o: { http: HttpClient; base: string; email: string }) => {
  const before = await mailCount(o.email);
  const asked = await o.http.post(`${o.base}/two-factor-code/`);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  expect(asked.body).toEqual({ method: 'email' });
  for (let i = 0; i < 100 && (await mailCount(o.email)) === before; i++) await new Promise((r) => setTimeout(r, 50));
  const mail = await lastMail(o.email, 'Your verification code');
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
};

const task = async (http: HttpClient, userId: string, body: Record<string, unknown>) => {
  const started = await http.post(`/api/users/${userId}/storage-tasks/`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return (await http.get(started.body.stateURL)).body;
};

const lockEvents = async (storageId: string) => (await t().app.ctx.store.readStream(`file-lock-${storageId}`)).events.map((e) => e.type);

describe('the two-factor lock (e-mail codes)', () => {
  it('locks a folder with a mailed code; everything in it then asks for a fresh code before it is opened, downloaded, shared or archived', async () => {
    const o = await owner();
    const wrong = await o.http.post(`${o.base}/items/${o.folderId}/two-factor-lock/`, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('CODE_INVALID');

    const code = await mailedCode(o);
    const bad = await o.http.post(`${o.base}/items/${o.folderId}/two-factor-lock/`, { code: code === '123456' ? '654321' : '123456' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'TWO_FACTOR_INCORRECT', message: 'Incorrect 2FA code' });
    const locked = await o.http.post(`${o.base}/items/${o.folderId}/two-factor-lock/`, { code });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    expect(locked.body).toEqual({ itemId: o.folderId, twoFactorLock: true });
    // the code is spent
    expect((await o.http.post(`${o.base}/items/${o.looseId}/two-factor-lock/`, { code })).body.code).toBe('CODE_INVALID');
    expect((await o.http.post(`${o.base}/items/${o.folderId}/two-factor-lock/`, { code })).body.code).toBe('ALREADY_LOCKED');

    const asked = await o.http.get(`${o.base}/two-factor-files/?itemId=${o.folderId},${o.fileId},${o.looseId}`);
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual([o.folderId, o.fileId]);
    expect(asked.body.items).toEqual([
      { itemId: o.folderId, lockedItemId: o.folderId, inherited: false },
      { itemId: o.fileId, lockedItemId: o.folderId, inherited: true },
    ]);
    expect((await o.http.get(`${o.base}/items/${o.folderId}/info/`)).body.twoFactorLock).toBe(true);
    expect((await o.http.get(`${o.base}/items/${o.looseId}/info/`)).body.twoFactorLock).toBe(false);

    const refused = [
      await o.http.get(`${o.base}/folders/${o.folderId}/items/`),
      await o.http.get(`${o.base}/files/${o.fileId}/sources/`),
      await o.http.get(`/api/urls/storage-download/?userId=${o.id}&storageId=${o.storageId}&fileId=${o.fileId}`),
      await o.http.post('/api/shares/', { itemIds: [o.fileId], title: 'plan', downloadable: true }),
    ];
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body.code).toBe('5102');
    }
    // the loose file is not asked about
    expect((await o.http.get(`${o.base}/files/${o.looseId}/sources/`)).status).toBe(200);

    // a storage task including a locked item fails with 5102, skip2fa alone does not pass it
    for (const body of [
      { action: 'archive', itemIds: [o.looseId, o.folderId] },
      { action: 'archive', itemIds: [o.fileId], skip2fa: true },
      { action: 'copy', itemIds: [o.fileId] },
      { action: 'trash', itemIds: [o.folderId] },
    ]) {
      expect(await task(o.http, o.id, body)).toMatchObject({ status: 'failed', errorCode: '5102', downloadURL: null });
    }
    // a wrong code with skip2fa is a form error; the right one passes the task
    const wrongSkip = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [o.folderId], skip2fa: true, code: '999999' });
    expect(wrongSkip.status).toBe(400);
    const archived = await task(o.http, o.id, { action: 'archive', itemIds: [o.folderId], skip2fa: true, code: await mailedCode(o) });
    expect(archived).toMatchObject({ status: 'done', errorCode: null });
    const zip = Buffer.from(await (await fetch(archived.downloadURL as string)).arrayBuffer());
    expect(zip.includes(Buffer.from('the secret plan'))).toBe(true);

    const types = await lockEvents(o.storageId);
    expect(types).toEqual(expect.arrayContaining(['LockCodeIssued', 'LockCodeRejected', 'ItemTwoFactorLocked', 'LockAccessGranted', 'LockedItemOpened']));
  });

  it('a grant opens the locked items for that session only, until 20 minutes go by without use; a code expires after 10 minutes', async () => {
    const o = await owner();
    await o.http.post(`${o.base}/items/${o.folderId}/two-factor-lock/`, { code: await mailedCode(o) });

    const stale = await mailedCode(o);
    t().clock.advance(LOCK_CODE_TTL_MS);
    const late = await o.http.post(`${o.base}/items/${o.fileId}/two-factor-access/`, { code: stale });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('CODE_INVALID');

    const granted = await o.http.post(`${o.base}/items/${o.fileId}/two-factor-access/`, { code: await mailedCode(o) });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body).toEqual({ itemId: o.fileId, lockedItemIds: [o.folderId] });

    const download = await o.http.get(`${o.base}/files/${o.fileId}/sources/`);
    expect(download.status).toBe(200);
    expect(download.body).toBe('the secret plan');
    expect((await o.http.get(`${o.base}/folders/${o.folderId}/items/`)).status).toBe(200);

    // another session of the same user is asked
    const other = (await signIn(o.email)).http;
    expect((await other.get(`${o.base}/files/${o.fileId}/sources/`)).body.code).toBe('5102');

    // use keeps the grant alive; 20 minutes without use end it
    t().clock.advance(LOCK_GRANT_IDLE_MS - 60_000);
    expect((await o.http.get(`${o.base}/files/${o.fileId}/sources/`)).status).toBe(200);
    t().clock.advance(LOCK_GRANT_IDLE_MS - 60_000);
    expect((await o.http.get(`${o.base}/files/${o.fileId}/sources/`)).status).toBe(200);
    t().clock.advance(LOCK_GRANT_IDLE_MS);
    expect((await o.http.get(`${o.base}/files/${o.fileId}/sources/`)).body.code).toBe('5102');
  });

  it('unlocks with a code: the items are no longer asked about', async () => {
    const o = await owner();
    await o.http.post(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code: await mailedCode(o) });
    expect((await o.http.get(`${o.base}/two-factor-files/?itemId=${o.fileId}`)).body.data).toEqual([o.fileId]);
    const unlocked = await o.http.delete(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code: await mailedCode(o) });
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    expect(unlocked.body).toEqual({ itemId: o.fileId, twoFactorLock: false });
    expect((await o.http.get(`${o.base}/two-factor-files/?itemId=${o.fileId}`)).body.data).toEqual([]);
    expect((await o.http.get(`${o.base}/files/${o.fileId}/sources/`)).status).toBe(200);
    const again = await o.http.delete(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code: '123456' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOT_LOCKED');
    expect(await lockEvents(o.storageId)).toContain('ItemTwoFactorUnlocked');
  });

  it('refuses what is not its own, malformed codes and unknown items', async () => {
    const o = await owner();
    const stranger = await owner();
    expect((await stranger.http.post(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code: '123456' })).status).toBe(403);
    expect((await o.http.post(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code: 'abc' })).status).toBe(400);
    expect((await o.http.post(`${o.base}/items/nope/two-factor-lock/`, { code: '123456' })).status).toBe(404);
    expect((await o.http.get(`${o.base}/two-factor-files/?itemId=`)).body.data).toEqual([]);
  });
});

describe('the two-factor lock (authenticator app)', () => {
  it('an account whose second factor is an authenticator locks and opens with its codes, each accepted once', async () => {
    const o = await owner();
    const setup = await o.http.post(`/api/users/${o.id}/two-factor/totp`);
    const secret = setup.body.secret as string;
    expect((await o.http.post(`/api/users/${o.id}/two-factor/enable`, { method: 'totp', code: await totpCode(secret) })).status).toBe(200);
    t().clock.advance(30_000);

    expect((await o.http.post(`${o.base}/two-factor-code/`)).body).toEqual({ method: 'totp' });
    const code = await totpCode(secret);
    expect((await o.http.post(`${o.base}/items/${o.fileId}/two-factor-lock/`, { code })).status).toBe(200);
    const replay = await o.http.post(`${o.base}/items/${o.fileId}/two-factor-access/`, { code });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('TWO_FACTOR_INCORRECT');
    t().clock.advance(30_000);
    expect((await o.http.post(`${o.base}/items/${o.fileId}/two-factor-access/`, { code: await totpCode(secret) })).status).toBe(200);
    expect((await o.http.get(`${o.base}/files/${o.fileId}/sources/`)).status).toBe(200);
  });
});

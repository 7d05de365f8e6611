import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { HttpClient } from '../../testing/harness';
import { FRESH_SECOND_FACTOR_MS } from './storage-tasks.routes';
import { storageTestApp } from './storage.testing';

/*
 * Spec §8: a storage task failing with code 5102 opens the skip-2FA dialog, whose "Continue"
 * starts the task again with `skip2fa`. The server's side of that loop, as the browser drives it.
 */

const { t, bytes } = storageTestApp();
const { signUpConfirmed, signIn, PASSWORD } = accountHelpers(t);

const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(t().clock.now().getTime() / 1000) });

/** A user with one file in their online storage; with `twoFactor`, an authenticator app turned on. */
const owner = async (twoFactor: boolean) => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  let secret: string | null = null;
  if (twoFactor) {
    const setup = await http.post(`/api/users/${id}/two-factor/totp`);
    secret = setup.body.secret as string;
    const on = await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: await totpCode(secret) });
    expect(on.body.twoFactor).toEqual({ enabled: true, method: 'totp' });
  }
  const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
  const made = await http.post(`/api/users/${id}/storages/${storageId}/items/`, {
    label: 'file',
    name: 'report.txt',
    uploadId: bytes.upload(id, storageId, 'quarterly figures'),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { http, id, email, secret, fileId: made.body.id as string };
};

/** Starts a task and reads its state once (tasks are decided when they are created). */
const task = async (http: HttpClient, userId: string, body: Record<string, unknown>) => {
  const started = await http.post(`/api/users/${userId}/storage-tasks/`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const state = await http.get(started.body.stateURL);
  expect(state.status).toBe(200);
  return state.body;
};

describe('storage tasks and the second factor (code 5102)', () => {
  it('a two-factor account whose session is not fresh: the archive fails with 5102; started again with skip2fa it is done and its zip downloads', async () => {
    const o = await owner(true);
    t().clock.advance(FRESH_SECOND_FACTOR_MS + 60_000);

    const asked = await task(o.http, o.id, { action: 'archive', itemIds: [o.fileId], archiveName: 'figures' });
    expect(asked).toMatchObject({ type: 'archive', status: 'failed', errorCode: '5102', downloadURL: null });
    expect(asked.errorMessage).toMatch(/two-factor/i);

    const skipped = await task(o.http, o.id, { action: 'archive', itemIds: [o.fileId], archiveName: 'figures', skip2fa: true });
    expect(skipped).toMatchObject({ type: 'archive', status: 'done', errorCode: null });
    const zip = await fetch(skipped.downloadURL as string);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).includes(Buffer.from('quarterly figures'))).toBe(true);

    // skip2fa: false is no choice to skip
    expect(await task(o.http, o.id, { action: 'archive', itemIds: [o.fileId], skip2fa: false })).toMatchObject({ status: 'failed', errorCode: '5102' });
  });

  it('a session just opened with the code is a fresh second factor: the archive is done without asking, until five minutes have passed', async () => {
    const o = await owner(true);
    // the code that turned two-factor on was used up: the next one comes with the next time step
    t().clock.advance(30_000);
    const signedIn = await signIn(o.email, PASSWORD, await totpCode(o.secret!));
    expect(signedIn.res.status, JSON.stringify(signedIn.res.body)).toBe(200);

    expect(await task(signedIn.http, o.id, { action: 'archive', itemIds: [o.fileId] })).toMatchObject({ status: 'done', errorCode: null });
    t().clock.advance(FRESH_SECOND_FACTOR_MS + 1_000);
    expect(await task(signedIn.http, o.id, { action: 'archive', itemIds: [o.fileId] })).toMatchObject({ status: 'failed', errorCode: '5102' });
  });

  it('tasks that keep the files in the account are not asked, and an account without two-factor is never asked', async () => {
    const o = await owner(true);
    const plain = await owner(false);
    t().clock.advance(FRESH_SECOND_FACTOR_MS + 60_000);

    expect(await task(o.http, o.id, { action: 'trash', itemIds: [o.fileId] })).toMatchObject({ status: 'done', errorCode: null });
    expect(await task(o.http, o.id, { action: 'restore', itemIds: [o.fileId] })).toMatchObject({ status: 'done', errorCode: null });

    const archived = await task(plain.http, plain.id, { action: 'archive', itemIds: [plain.fileId] });
    expect(archived).toMatchObject({ status: 'done', errorCode: null });
    expect((await fetch(archived.downloadURL as string)).status).toBe(200);
  });

  it('skip2fa must be a boolean', async () => {
    const o = await owner(true);
    const bad = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [o.fileId], skip2fa: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });
});

import { createMessage, decryptKey, encryptKey, generateKey, readPrivateKey, sign } from 'openpgp';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import type { HttpClient } from '../../testing/harness';
import { storageTestApp } from '../files/storage.testing';
import { E2EE_CONFIG, makeKey } from './e2ee.testing';

/*
 * The end-to-end key of an account (spec §3 User info `e2eePrivateKey`, `encryptionDefault`,
 * `e2eeEnabledGlobalDefault`, `hasE2EEAccess`; §4 passphrase set, change, reset; §6 encryption
 * access), and the signatures of shared files (§7 `pgp-signatures`).
 */

const { t, bytes } = storageTestApp();
const { signUpConfirmed, signIn } = accountHelpers(t);

/** Professional through the test payment provider's own page (end-to-end is Professional and up). */
const professional = async (http: HttpClient, userId: string) => {
  const bought = await http.post(`/api/users/${userId}/products/`, { productId: 200 });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
  expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
};

const user = async (plan: 'basic' | 'professional') => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  if (plan === 'professional') await professional(http, id);
  return { http, id };
};

describe('the end-to-end key of an account', () => {
  it('sets a passphrase-protected key, shows it in the user info, changes the passphrase on the same key and resets to a new one', async () => {
    const u = await user('professional');
    const before = (await u.http.get(`/api/users/${u.id}/`)).body;
    expect(before).toMatchObject({ hasE2EEAccess: true, e2eePrivateKey: null, encryptionDefault: false, e2eeEnabledGlobalDefault: false });

    const first = await makeKey('first passphrase');
    const set = await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: first.privateKey, hint: 'the first one' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ passphraseSet: true, e2eePassphraseHint: 'the first one', hasE2EEAccess: true });
    const info = (await u.http.get(`/api/users/${u.id}/`)).body;
    expect(info.e2eePassphraseHint).toBe('the first one');
    // the key the server keeps opens only with the passphrase
    const kept = await readPrivateKey({ armoredKey: info.e2eePrivateKey });
    expect(kept.isDecrypted()).toBe(false);
    await expect(decryptKey({ privateKey: kept, passphrase: 'wrong passphrase' })).rejects.toThrow();
    const unlocked = await decryptKey({ privateKey: kept, passphrase: 'first passphrase' });
    expect(info.e2eePublicKey).toContain('BEGIN PGP PUBLIC KEY BLOCK');

    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: first.privateKey, hint: 'again' })).body.code).toBe(
      'PASSPHRASE_ALREADY_SET',
    );

    // change: the same key under a new passphrase
    const changed = await encryptKey({ privateKey: unlocked, passphrase: 'second passphrase', config: E2EE_CONFIG });
    const change = await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'change', privateKey: changed.armor(), hint: 'the second one' });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.e2eeKeyFingerprint).toBe(set.body.e2eeKeyFingerprint);
    const other = await makeKey('other passphrase');
    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'change', privateKey: other.privateKey, hint: 'x' })).body.code).toBe('KEY_MISMATCH');

    // reset: a new key
    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'reset', privateKey: changed.armor(), hint: 'x' })).body.code).toBe('KEY_NOT_NEW');
    const reset = await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'reset', privateKey: other.privateKey, hint: 'the third one' });
    expect(reset.status).toBe(200);
    expect(reset.body.e2eeKeyFingerprint).not.toBe(set.body.e2eeKeyFingerprint);
    expect(reset.body.e2eeKeyResetAt).not.toBeNull();
    const events = (await t().app.ctx.store.readStream(`e2ee-keys-${u.id}`)).events.map((e) => e.type);
    expect(events).toEqual(['E2eeKeySet', 'E2eePassphraseChanged', 'E2eeKeyReset']);
  });

  it('refuses a key the server could use, a key without a hint, and a plan without end-to-end access', async () => {
    const u = await user('professional');
    const { privateKey: bare } = await generateKey({ userIDs: [{ email: 'a@example.com' }], format: 'armored' });
    const unprotected = await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: bare, hint: 'h' });
    expect(unprotected.status).toBe(400);
    expect(unprotected.body.code).toBe('INVALID_KEY');
    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: 'hello', hint: 'h' })).body.code).toBe('INVALID_KEY');
    const key = await makeKey('a passphrase');
    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: key.privateKey, hint: '  ' })).body.code).toBe('HINT_REQUIRED');
    expect((await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'change', privateKey: key.privateKey, hint: 'h' })).body.code).toBe('PASSPHRASE_NOT_SET');

    const basic = await user('basic');
    expect((await basic.http.get(`/api/users/${basic.id}/`)).body.hasE2EEAccess).toBe(false);
    const refused = await basic.http.put(`/api/users/${basic.id}/e2ee/key`, { mode: 'set', privateKey: key.privateKey, hint: 'h' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'NO_E2EE_ACCESS', message: 'End-to-end encryption needs the Professional plan or higher' });
  });

  it('the end-to-end switch and the default for new uploads need a passphrase; they show in the user info', async () => {
    const u = await user('professional');
    expect((await u.http.put(`/api/users/${u.id}/e2ee/settings`, { encryptionDefault: true })).body.code).toBe('PASSPHRASE_NOT_SET');
    await u.http.put(`/api/users/${u.id}/e2ee/key`, { mode: 'set', privateKey: (await makeKey('a passphrase')).privateKey, hint: 'h' });
    const on = await u.http.put(`/api/users/${u.id}/e2ee/settings`, { encryptionDefault: true, e2eeEnabledGlobalDefault: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect((await u.http.get(`/api/users/${u.id}/`)).body).toMatchObject({ encryptionDefault: true, e2eeEnabledGlobalDefault: true });
    expect((await u.http.put(`/api/users/${u.id}/e2ee/settings`, {})).status).toBe(400);
  });
});

describe('signatures of shared files', () => {
  it("keeps a shared file's detached signature for its share, once, and refuses files the share does not give", async () => {
    const u = await user('basic');
    const storageId = (await u.http.get(`/api/users/${u.id}/storages/`)).body.data[0].id as string;
    const base = `/api/users/${u.id}/storages/${storageId}`;
    const folder = await u.http.post(`${base}/items/`, { label: 'folder', name: 'Signed' });
    const inside = await u.http.post(`${base}/folders/${folder.body.id}/items/`, {
      label: 'file',
      name: 'deed.pdf',
      uploadId: bytes.upload(u.id, storageId, 'deed'),
    });
    expect(inside.status).toBe(201);
    const outside = await u.http.post(`${base}/items/`, { label: 'file', name: 'other.pdf', uploadId: bytes.upload(u.id, storageId, 'other') });
    const share = await u.http.post('/api/shares/', { itemIds: [folder.body.id], title: 'signed', downloadable: true });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const shareId = share.body.id as string;

    const key = await makeKey('a passphrase');
    const signingKey = await decryptKey({ privateKey: await readPrivateKey({ armoredKey: key.privateKey }), passphrase: 'a passphrase' });
    const signature = await sign({ message: await createMessage({ binary: new Uint8Array([1, 2, 3]) }), signingKeys: signingKey, detached: true });
    const body = { signedFileId: inside.body.id, signedFileName: 'deed.pdf', mime: 'application/pdf', size: 3, pgpmessage: signature };
    const kept = await u.http.post(`/api/shares/${shareId}/pgp-signatures`, body);
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.signerKeyId).toBe(signingKey.getKeyID().toHex());
    expect((await u.http.post(`/api/shares/${shareId}/pgp-signatures`, body)).status).toBe(201);
    const listed = await u.http.get(`/api/shares/${shareId}/pgp-signatures`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ signedFileId: inside.body.id, signedFileName: 'deed.pdf', pgpmessage: signature });

    expect((await u.http.post(`/api/shares/${shareId}/pgp-signatures`, { ...body, signedFileId: outside.body.id })).status).toBe(403);
    expect((await u.http.post(`/api/shares/${shareId}/pgp-signatures`, { ...body, pgpmessage: 'not a signature' })).body.code).toBe('INVALID_SIGNATURE');
    const stranger = await user('basic');
    expect((await stranger.http.post(`/api/shares/${shareId}/pgp-signatures`, body)).status).toBe(404);
  });
});

import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMessage, decrypt, decryptKey, readMessage, readPrivateKey } from 'openpgp';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';
import { settled } from '../../testing/read-models';
import { encryptFor, makeKey } from './e2ee.testing';

/*
 * End-to-end files over the real byte pipeline (spec §3 Entry `pgpmessage`, `e2eeEnabled`): the
 * browser encrypts, the server keeps the key packets apart from the content and never sees the
 * plaintext; an archive hands each out as a whole OpenPGP message.
 */

const t = useTestApp();
const { signUpConfirmed, signIn } = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };
const PASSPHRASE = 'correct horse battery';

const upload = async (http: HttpClient, storageId: string, bytes: Uint8Array) => {
  const created = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(bytes.length),
    'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const sent = await http.request('PATCH', location, new Uint8Array(bytes), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(sent.status).toBe(204);
  return location.split('/').at(-1)!;
};

const owner = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
  return { http, id, storageId, base: `/api/users/${id}/storages/${storageId}` };
};

const decryptWith = async (armoredKey: string, message: Uint8Array): Promise<Buffer> => {
  const privateKey = await decryptKey({ privateKey: await readPrivateKey({ armoredKey }), passphrase: PASSPHRASE });
  const { data } = await decrypt({ message: await readMessage({ binaryMessage: message }), decryptionKeys: privateKey, format: 'binary' });
  return Buffer.from(data);
};

/** Every file under a folder, read whole. */
const filesUnder = async (dir: string): Promise<Buffer[]> => {
  const out: Buffer[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(await readFile(join(entry.parentPath, entry.name)));
  }
  return out;
};

describe('end-to-end encrypted files', () => {
  it('keeps a file made with e2eeEnabled and its key packets apart from its content, and the plaintext is in no table and no blob', async () => {
    const o = await owner();
    const key = await makeKey(PASSPHRASE);
    const marker = `MARKER-${randomBytes(12).toString('hex')}`;
    const plaintext = Buffer.concat([Buffer.from(`confidential ${marker} `), randomBytes(3 * 1024 * 1024), Buffer.from(` ${marker} end`)]);
    const file = await encryptFor([key.publicKey], plaintext);

    const uploadId = await upload(o.http, o.storageId, file.content);
    const made = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'contract.pdf', uploadId, e2eeEnabled: true, pgpmessage: file.pgpmessage });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ e2eeEnabled: true, pgpmessage: file.pgpmessage, size: file.content.length });

    const listed = (await o.http.get(`${o.base}/items/`)).body.data.find((e: { id: string }) => e.id === made.body.id);
    expect(listed).toMatchObject({ e2eeEnabled: true, pgpmessage: file.pgpmessage });
    expect((await o.http.get(`${o.base}/files/${made.body.id}`)).body).toMatchObject({ e2eeEnabled: true, pgpmessage: file.pgpmessage });
    const info = (await o.http.get(`${o.base}/items/${made.body.id}/info/`)).body;
    expect(info).toMatchObject({ e2eeEnabled: true, pgpmessage: file.pgpmessage });

    // the content served is the ciphertext as uploaded; with its key packets in front it opens with the key
    const signed = await o.http.get(`/api/urls/storage-download/?userId=${o.id}&storageId=${o.storageId}&fileId=${made.body.id}`);
    const served = Buffer.from(await (await fetch(`${t().url}${signed.body.url}`)).arrayBuffer());
    expect(served.equals(Buffer.from(file.content))).toBe(true);
    expect(served.includes(marker)).toBe(false);
    expect((await decryptWith(key.privateKey, file.whole)).equals(plaintext)).toBe(true);

    // nowhere on the server: no table (events included), no blob, no file under DATA_DIR
    await settled(t());
    const { rows: tables } = await t().app.ctx.pool.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    const tablesHolding = async (text: string) => {
      const found: string[] = [];
      for (const { name } of tables) {
        const { rows } = await t().app.ctx.pool.query(`select count(*)::int as n from "${name}" r where position($1 in r::text) > 0`, [text]);
        if (rows[0].n > 0) found.push(name);
      }
      return found;
    };
    expect(await tablesHolding(marker)).toEqual([]);
    // the search does find what the server does keep: the key packets, in the read model
    expect(await tablesHolding(file.pgpmessage.split('\n')[2]!)).toContain('storage_items');
    const stored = await filesUnder(t().app.ctx.config.dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const bytes of stored) expect(bytes.includes(marker)).toBe(false);
  });

  it('an archive holds an end-to-end file as a whole OpenPGP message named .pgp, beside plain files as they are', async () => {
    const o = await owner();
    const key = await makeKey(PASSPHRASE);
    const secret = await encryptFor([key.publicKey], Buffer.from('the secret recipe'));
    const e2ee = await o.http.post(`${o.base}/items/`, {
      label: 'file',
      name: 'recipe.txt',
      uploadId: await upload(o.http, o.storageId, secret.content),
      e2eeEnabled: true,
      pgpmessage: secret.pgpmessage,
    });
    const plain = await o.http.post(`${o.base}/items/`, {
      label: 'file',
      name: 'menu.txt',
      uploadId: await upload(o.http, o.storageId, Buffer.from('soup of the day')),
    });
    const started = await o.http.post(`/api/users/${o.id}/storage-tasks/`, { action: 'archive', itemIds: [e2ee.body.id, plain.body.id] });
    const task = (await o.http.get(started.body.stateURL)).body;
    expect(task).toMatchObject({ status: 'done' });
    const zip = Buffer.from(await (await fetch(task.downloadURL as string)).arrayBuffer());
    expect(zip.includes('recipe.txt.pgp')).toBe(true);
    expect(zip.includes(Buffer.from(secret.whole))).toBe(true);
    expect(zip.includes('soup of the day')).toBe(true);
    expect(zip.includes('the secret recipe')).toBe(false);
  });

  it('refuses key packets that are not an OpenPGP message of session-key packets, and an end-to-end file without them', async () => {
    const o = await owner();
    const key = await makeKey(PASSPHRASE);
    const whole = await encryptFor([key.publicKey], Buffer.from('x'));
    const literal = (await createMessage({ text: 'not key packets' })).armor();
    for (const body of [
      { e2eeEnabled: true },
      { e2eeEnabled: true, pgpmessage: 'hello' },
      { e2eeEnabled: true, pgpmessage: literal },
      { e2eeEnabled: false, pgpmessage: whole.pgpmessage },
    ]) {
      const uploadId = await upload(o.http, o.storageId, whole.content);
      const res = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'x.bin', uploadId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('E2EE_KEY_PACKETS');
    }
  });
});

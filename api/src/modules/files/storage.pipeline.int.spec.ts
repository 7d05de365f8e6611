import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';

/* The storage routes over the real byte pipeline: a tus upload becomes a file, read back byte for byte. */

const t = useTestApp();
const { signUpConfirmed, signIn } = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };

const upload = async (http: HttpClient, storageId: string, bytes: Buffer) => {
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

describe('storage over the byte pipeline', () => {
  it('makes a file of a finished tus upload, downloads it whole and by range, and forgets its content when deleted', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const base = `/api/users/${id}/storages/${storageId}`;
    const content = randomBytes(2 * 1024 * 1024 + 123).toString('base64url');
    const bytes = Buffer.from(content);
    const uploadId = await upload(http, storageId, bytes);

    const made = await http.post(`${base}/items/`, { label: 'file', name: 'data.txt', uploadId });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') });
    // its reservation became used bytes
    expect((await http.get(`/api/users/${id}/storages/`)).body.data[0]).toMatchObject({ sizeUsed: bytes.length });
    const { events } = await t().app.ctx.store.readStream(`storage-${storageId}`);
    expect(events.map((e) => e.type)).toEqual(['StorageOpened', 'QuotaReserved', 'FileAdded']);
    // the upload is used up: the same id makes no second file, a retry answers the file it made
    const again = await http.post(`${base}/items/`, { label: 'file', name: 'again.txt', uploadId });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(made.body);
    expect((await t().app.ctx.store.readStream(`storage-${storageId}`)).events.map((e) => e.type)).toEqual(['StorageOpened', 'QuotaReserved', 'FileAdded']);

    const whole = await http.get(`${base}/files/${made.body.id}/sources/`);
    expect(whole.body).toBe(content);
    const from = 1024 * 1024 - 10;
    const part = await http.request('GET', `${base}/files/${made.body.id}/sources/`, undefined, { range: `bytes=${from}-${from + 99}` });
    expect(part.status).toBe(206);
    expect(part.body).toBe(content.slice(from, from + 100));

    const keyId = (await t().app.ctx.pool.query(`select manifest->>'keyId' as k from storage_items where id = $1`, [made.body.id])).rows[0].k as string;
    const started = await http.post(`/api/users/${id}/storage-tasks/`, { action: 'delete', itemIds: [made.body.id] });
    expect((await http.get(started.body.stateURL)).body).toMatchObject({ status: 'done' });
    const key = await t().app.ctx.pool.query('select wrapped_key, destroyed_at from file_keys where key_id = $1', [keyId]);
    expect(key.rows[0]).toMatchObject({ wrapped_key: null, destroyed_at: expect.any(Date) });
    expect((await http.get(`${base}/files/${made.body.id}/sources/`)).status).toBe(404);
  });
});

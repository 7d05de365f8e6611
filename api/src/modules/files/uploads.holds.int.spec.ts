import { randomBytes } from 'node:crypto';
import { deterministicId } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { holdAt } from '../../failpoints';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';
import { ANONYMOUS_IDLE_MS, LINK_UPLOADS_AT_ONCE } from './uploads.store';

/*
 * The owner's space held by uploads sent through a Secure Fetch link: a few at once per link, given
 * back soon without bytes, when the link is revoked and when it is used; the owner sees it. And an
 * upload failing on the server's side answers without naming the server's files.
 */

let t: TestApp;
const logLines: string[] = [];
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, logLines });
});
afterAll(async () => {
  await t?.stop();
});
const { signUpConfirmed, signIn } = accountHelpers(() => t);
const TUS = { 'tus-resumable': '1.0.0' };
const MiB = 1024 * 1024;
const pipeline = () => t.app.files.bytes(t.app.ctx);

const newLink = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const made = await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Please send the files', includeMetadata: false, certificate: false });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const storage = async () => (await http.get(`/api/users/${id}/storages/`)).body.data[0] as { sizeUsed: number; sizeReserved: number; sizeTotal: number };
  return { http, id, fetchId: made.body.id as string, linkId: made.body.linkId as string, storage };
};

const createThrough = (linkId: string, size: number) =>
  new HttpClient(t.url).request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(size),
    'upload-metadata': `secureFetchId ${Buffer.from(linkId).toString('base64')}`,
  });

describe("the owner's space held by anonymous uploads", () => {
  it('30 parallel creations of 10 MiB with no bytes: a few are admitted, shown as reserved, and given back within minutes', async () => {
    const link = await newLink();
    const answers = await Promise.all(Array.from({ length: 30 }, () => createThrough(link.linkId, 10 * MiB)));
    const admitted = answers.filter((a) => a.status === 201);
    expect(admitted).toHaveLength(LINK_UPLOADS_AT_ONCE);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'SECURE_FETCH_BUSY', data: { uploadsAtOnce: LINK_UPLOADS_AT_ONCE } });
    }
    expect(await link.storage()).toMatchObject({ sizeUsed: 0, sizeReserved: LINK_UPLOADS_AT_ONCE * 10 * MiB });

    // without a byte they expire in minutes, not a day
    t.clock.advance(ANONYMOUS_IDLE_MS + 1000);
    expect(await pipeline().store.deleteExpired()).toBeGreaterThanOrEqual(LINK_UPLOADS_AT_ONCE);
    expect(await link.storage()).toMatchObject({ sizeReserved: 0 });
    // gone (an anonymous client is answered as for an upload it has no session for)
    for (const a of admitted) expect([401, 404]).toContain((await new HttpClient(t.url).request('HEAD', a.headers.get('location')!, undefined, TUS)).status);
    expect((await t.app.ctx.pool.query('select 1 from uploads where secure_fetch_link_id = $1', [link.linkId])).rowCount).toBe(0);
    // the link takes files again
    expect((await createThrough(link.linkId, 10 * MiB)).status).toBe(201);
  });

  it("revoking the link gives the owner's space back at once", async () => {
    const link = await newLink();
    for (let i = 0; i < 3; i++) expect((await createThrough(link.linkId, 5 * MiB)).status).toBe(201);
    expect((await link.storage()).sizeReserved).toBe(15 * MiB);
    expect((await link.http.post(`/api/users/${link.id}/secure-fetches/${link.fetchId}/revoke`)).status).toBe(200);
    expect(await link.storage()).toMatchObject({ sizeReserved: 0, sizeUsed: 0 });
  });

  it('a used link gives back what was sent through it and not submitted', async () => {
    const link = await newLink();
    const sender = new HttpClient(t.url);
    const content = randomBytes(2000).toString('base64url');
    const created = await createThrough(link.linkId, content.length);
    const location = created.headers.get('location')!;
    expect(
      (
        await sender.request('PATCH', location, new Uint8Array(Buffer.from(content)), {
          ...TUS,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        })
      ).status,
    ).toBe(204);
    const stray = await createThrough(link.linkId, 4 * MiB);
    expect(stray.status).toBe(201);
    const receipt = await sender.post(`/api/shares/${link.linkId}/`, {
      files: [{ uploadId: location.split('/').at(-1)!, name: 'a.txt', size: content.length, mime: 'text/plain' }],
    });
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(201);
    expect(await link.storage()).toMatchObject({ sizeUsed: content.length, sizeReserved: 0 });
    expect((await t.app.ctx.pool.query('select 1 from uploads where secure_fetch_link_id = $1', [link.linkId])).rowCount).toBe(0);
  });
});

describe('an upload failing on the server side', () => {
  it("answers UPLOAD_FAILED with a generic message: the server's folders and chunk names go to the log only", async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const created = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(2 * MiB),
      'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const where = `${t.app.ctx.config.dataDir}/blobs/shard-2/bi/.bafkreiexampleexampleexample.tmp`;
    const put = vi
      // an upload's chunks go to its region's shards: with no region configured, the home shards
      .spyOn(pipeline().blobs.forRegion(null), 'put')
      .mockRejectedValue(Object.assign(new Error(`ENOENT: no such file or directory, open '${where}'`), { code: 'ENOENT' }));
    try {
      const sent = await http.request('PATCH', created.headers.get('location')!, new Uint8Array(randomBytes(2 * MiB)), {
        ...TUS,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      });
      expect(sent.status).toBe(500);
      expect(sent.body).toEqual({ code: 'UPLOAD_FAILED', message: 'The upload could not be stored', data: null });
      expect(JSON.stringify(sent.body)).not.toContain('shard-');
      expect(put).toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
    expect(logLines.join('\n')).toContain('shard-2/bi/.bafkrei');
  });
});

describe('a claim that outlives the expiry (its process stopped midway)', () => {
  it('the file was made: the upload row goes and the file stays readable; it was not: the upload expires as any other', async () => {
    const { email, id } = await signUpConfirmed();
    let { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const base = `/api/users/${id}/storages/${storageId}`;
    const send = async (content: string) => {
      const created = await http.request('POST', '/api/uploads/', undefined, {
        ...TUS,
        'upload-length': String(content.length),
        'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
      });
      const location = created.headers.get('location')!;
      expect(
        (
          await http.request('PATCH', location, new Uint8Array(Buffer.from(content)), {
            ...TUS,
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
          })
        ).status,
      ).toBe(204);
      return location.split('/').at(-1)!;
    };
    const made = randomBytes(5000).toString('base64url');
    const madeId = await send(made);
    // the request stops right after the file was made, before the upload is marked used
    const stop = holdAt('file-from-upload:added', async () => {
      throw new Error('stopped');
    });
    try {
      expect((await http.post(`${base}/items/`, { label: 'file', name: 'made.txt', uploadId: madeId })).status).toBe(500);
    } finally {
      stop();
    }
    const abandonedId = await send(randomBytes(3000).toString('base64url'));
    expect(await pipeline().uploads.claim(abandonedId, id, null)).not.toBeNull();
    const status = async (uploadId: string) =>
      (await t.app.ctx.pool.query<{ status: string }>('select status from uploads where id = $1', [uploadId])).rows[0]?.status ?? 'gone';
    expect([await status(madeId), await status(abandonedId)]).toEqual(['claimed', 'claimed']);

    t.clock.advance(t.app.ctx.config.UPLOAD_EXPIRY_HOURS * 3_600_000 + 60_000);
    await pipeline().store.deleteExpired();
    // made: the row is gone, the key and chunks stay with the file; not made: unused again
    expect([await status(madeId), await status(abandonedId)]).toEqual(['gone', 'finished']);
    // a day later the session has lapsed too
    ({ http } = await signIn(email));
    const fileId = deterministicId('file-from-upload', madeId);
    let read = await http.get(`${base}/files/${fileId}/sources/`);
    // the read model may still be catching up with the file the stopped request made
    for (let i = 0; i < 50 && read.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      read = await http.get(`${base}/files/${fileId}/sources/`);
    }
    expect(read.body).toBe(made);
    await pipeline().store.deleteExpired();
    expect(await status(abandonedId)).toBe('gone');
    expect((await http.get(`/api/users/${id}/storages/`)).body.data[0]).toMatchObject({ sizeReserved: 0, sizeUsed: made.length });
  });
});

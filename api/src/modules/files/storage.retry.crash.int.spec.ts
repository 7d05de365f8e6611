import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deterministicId, freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { exited, startProductProcess } from '../../../../test/product-process';
import { dropAfterSecretScan } from '../../../../test/scanned-drop';
import { onlineStorageId } from './storage.service';

/*
 * Making a file of an upload, with the server killed after the file was made and before the client
 * heard of it: the client's retry with the same uploadId answers that same file, whole.
 */

const TUS = { 'tus-resumable': '1.0.0', 'x-requested-with': 'XMLHttpRequest' };

let db: TestDatabase;
let port = 0;
let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-file-retry-crash-'));

const startProduct = async (failpoint?: string) => {
  child = await startProductProcess({ port, databaseUrl: db.url, dataDir, failpoint, env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } });
  return child;
};

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await dropAfterSecretScan(db, { ADMIN_PASSWORD: 'Root-pass-123' });
});

const signIn = async () => {
  const res = await fetch(`http://127.0.0.1:${port}/api/sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: 'root@axel.test', password: 'Root-pass-123' }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
};

describe('a retried file creation across a crash', () => {
  it('killed after the file was made, and again after the upload was used up: each retry answers the same file', async () => {
    await startProduct('file-from-upload:after-add');
    const base = `http://127.0.0.1:${port}`;
    let cookie = await signIn();
    const me = (await (await fetch(`${base}/api/sessions/this/`, { headers: { cookie } })).json()) as { user: { id: string } };
    const storageId = onlineStorageId(me.user.id);
    const items = `${base}/api/users/${me.user.id}/storages/${storageId}/items/`;
    const content = randomBytes(30_000).toString('base64url');
    const created = await fetch(`${base}/api/uploads/`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(content.length), 'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}` },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const sent = await fetch(base + location, {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: content,
    });
    expect(sent.status).toBe(204);
    const uploadId = location.split('/').at(-1)!;
    const make = (c: string) =>
      fetch(items, {
        method: 'POST',
        headers: { cookie: c, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ label: 'file', name: 'report.txt', uploadId }),
      });

    // the server dies after the file was made, before the upload was marked used: no answer
    expect(
      await make(cookie).then(
        () => 'answered',
        () => 'no answer',
      ),
    ).toBe('no answer');
    await exited(child!);
    // the retry finds the upload still claimed and finishes; this time the server dies before answering
    await startProduct('file-from-upload:after-consumed');
    cookie = await signIn();
    expect(
      await make(cookie).then(
        () => 'answered',
        () => 'no answer',
      ),
    ).toBe('no answer');
    await exited(child!);

    // the upload is used up now: the retry answers the file it made, as the first answer would have
    await startProduct();
    cookie = await signIn();
    const answer = await make(cookie);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(answer.status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ id: deterministicId('file-from-upload', uploadId), name: 'report.txt', size: content.length });
    const again = await make(cookie);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(body);
    const read = await fetch(`${base}/api/users/${me.user.id}/storages/${storageId}/files/${body.id as string}/sources/`, { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(await read.text()).toBe(content);
    // one file, made once
    const listed = (await (await fetch(items, { headers: { cookie } })).json()) as { data: { name: string }[] };
    expect(listed.data.filter((e) => e.name.startsWith('report'))).toHaveLength(1);
  }, 400_000);
});

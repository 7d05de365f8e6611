import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { migrate } from '@axel/platform';
import { rebuildProjection } from '@axel/projections';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { settled } from '../../testing/read-models';
import { storageLabelMigrations } from '../files/storage.migrations';
import { shareAccessHelpers } from '../sharing/share-access.testing';
import { secureFetchMigrations } from './secure-fetch.migrations';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' } });

const helpers = accountHelpers(t);
const shareAccess = shareAccessHelpers(t);
const owner = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  return { http, id, email };
};
const anonymous = () => new HttpClient(t().url);
/** The session cookie of a client, for raw `fetch` calls that read bytes. */
const cookieOf = (http: HttpClient) => [...(http as unknown as { cookies: Map<string, string> }).cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const TUS = { 'tus-resumable': '1.0.0' };
const MiB = 1024 * 1024;

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** Hashes computed here, independently of the product. */
const reference = (data: Uint8Array) => ({
  md5: createHash('md5').update(data).digest('hex'),
  sha1: createHash('sha1').update(data).digest('hex'),
  sha3_512: createHash('sha3-512').update(data).digest('hex'),
});

/** Canonical JSON written again here (sorted keys, no whitespace): the certificate's hash is checked against it. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

const createLink = (http: HttpClient, id: string, body: Record<string, unknown> = {}) =>
  http.post(`/api/users/${id}/secure-fetches/`, { note: 'Please send the signed contract', includeMetadata: true, certificate: true, ...body });

/** An anonymous tus upload of `data` through the link: creation, then one PATCH. */
const uploadThrough = async (linkId: string, data: Buffer, name = 'contract.pdf') => {
  const http = anonymous();
  const created = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(linkId).toString('base64')},filename ${Buffer.from(name).toString('base64')}`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const patched = await http.request('PATCH', location, new Uint8Array(data), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(204);
  return { uploadId: location.split('/').pop()!, name, size: data.length, mime: 'application/pdf' };
};

const submit = (linkId: string, files: Awaited<ReturnType<typeof uploadThrough>>[], metadata?: Record<string, unknown>) =>
  anonymous().post(`/api/shares/${linkId}/`, { files, ...(metadata ? { metadata } : {}) });

/** A link with files received through it. */
const received = async (options: { certificate?: boolean; contents?: Buffer[] } = {}) => {
  const user = await owner();
  const link = (await createLink(user.http, user.id, { certificate: options.certificate ?? true })).body;
  const contents = options.contents ?? [randomBytes(300_000), Buffer.from('plain text file\n')];
  const files = [];
  for (const [i, data] of contents.entries())
    files.push({ ...(await uploadThrough(link.linkId, data, `file-${i}.bin`)), ...(i === 1 ? { relpath: 'letters/2026' } : {}) });
  const receipt = await submit(link.linkId, files, { author: 'Ann Author', copyrightTypeId: 2, contactEmail: 'ann@example.com', isbn: '978-3-16-148410-0' });
  expect(receipt.status, JSON.stringify(receipt.body)).toBe(201);
  return { ...user, link, contents, files, receipt: receipt.body };
};

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/** A block interval passes on the app's clock; the development chain's miner mines. */
const nextBlock = async (http: HttpClient) => {
  const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  t().clock.advance(10_000);
  await until(
    () => http.get('/api/wallet/v1/blockchaininfo'),
    (r) => r.body.blocks > before,
    'a block',
  );
};

describe('Secure Fetch links', () => {
  it('creates a link the owner lists and reads; the note is required and free of forbidden characters; the expiry lies ahead', async () => {
    const { http, id } = await owner();
    const created = await createLink(http, id, { hashChoice: ['md5', 'sha3-512'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'secure-certificate-fetch',
      status: 'pending',
      certificated: true,
      note: 'Please send the signed contract',
      hashChoice: ['md5', 'sha3-512'],
      cost: '0.009',
      valid: true,
    });
    expect(created.body.linkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created.body.modifiedAt).toBe(created.body.createdAt);
    expect(created.body.url).toBe(`${t().url}/secure-fetch/${created.body.linkId}`);
    const plain = await createLink(http, id, { certificate: false, includeMetadata: false });
    expect(plain.body).toMatchObject({ type: 'upload-link', cost: '0.003' });

    const list = await http.get(`/api/users/${id}/secure-fetches/?q=signed%20contract`);
    expect(list.body.totalCount).toBe(2);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([plain.body.id, created.body.id]);
    expect((await http.get(`/api/users/${id}/secure-fetches/${created.body.id}/`)).body).toMatchObject({ id: created.body.id, items: [] });

    const empty = await createLink(http, id, { note: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'NOTE_REQUIRED', message: 'A note is required' });
    const forbidden = await createLink(http, id, { note: 'send <script>' });
    expect(forbidden.body).toMatchObject({ code: 'INVALID_NOTE' });
    const past = await createLink(http, id, { expiresAt: new Date(t().clock.now().getTime() - 1000).toISOString() });
    expect(past.body).toMatchObject({ code: 'INVALID_EXPIRY' });

    const other = await owner();
    expect((await other.http.get(`/api/users/${id}/secure-fetches/`)).status).toBe(403);
    expect((await other.http.get(`/api/users/${other.id}/secure-fetches/${created.body.id}/`)).body.code).toBe('SECURE_FETCH_NOT_FOUND');
    expect((await anonymous().get(`/api/users/${id}/secure-fetches/`)).status).toBe(401);
  });

  it('counts links against the plan per month: of 10 parallel creates on Basic, exactly 5 pass', async () => {
    const { http, id } = await owner();
    const results = await Promise.all(Array.from({ length: 10 }, () => createLink(http, id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(5);
    for (const r of refused)
      expect(r.body).toMatchObject({ code: 'SECURE_FETCH_LIMIT_REACHED', message: 'You have used all 5 Secure Fetches of your plan this month' });
    expect((await http.get(`/api/users/${id}/secure-fetches/`)).body.totalCount).toBe(5);
  });

  it("answers a link to anyone until it is used, revoked or expired, with the spec's refusals", async () => {
    const { http, id } = await owner();
    const link = (await createLink(http, id, { expiresAt: new Date(t().clock.now().getTime() + 3_600_000).toISOString() })).body;
    const open = await anonymous().get(`/api/secure-fetch-links/${link.linkId}`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual({
      note: 'Please send the signed contract',
      includeMetadata: true,
      certificated: true,
      hashChoice: ['md5', 'sha1', 'sha3-512'],
      maxSize: 10 * MiB,
      status: 'pending',
      expiresAt: link.expiresAt,
      ownerName: null,
    });
    // who asks for the files: the owner's name from their profile, never their e-mail
    expect((await http.put(`/api/users/${id}/profile`, { firstName: 'Ana', lastName: 'Lima' })).status).toBe(200);
    expect((await anonymous().get(`/api/secure-fetch-links/${link.linkId}`)).body.ownerName).toBe('Ana Lima');

    const missing = await anonymous().get(`/api/secure-fetch-links/${'A'.repeat(22)}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SECURE_FETCH_MISSING', message: 'This Secure Fetch link does not exist' });
    expect((await anonymous().get(`/api/secure-fetch-links/${'x'.repeat(80)}`)).body.code).toBe('SECURE_FETCH_INVALID');
    const malformed = await anonymous().get('/api/secure-fetch-links/not-a-link');
    expect(malformed.status).toBe(410);
    expect(malformed.body).toMatchObject({ code: 'SECURE_FETCH_INVALID', message: 'This Secure Fetch link is no longer valid' });

    const oversized = await anonymous().request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(10 * MiB + 1),
      'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')},filename ${Buffer.from('big.bin').toString('base64')}`,
    });
    expect(oversized.status).toBe(413);
    expect(oversized.body).toMatchObject({ code: 'SECURE_FETCH_TOO_LARGE', message: 'This file is over the Secure Fetch size limit' });

    const revoked = (await createLink(http, id)).body;
    const revokedAnswer = (await http.post(`/api/users/${id}/secure-fetches/${revoked.id}/revoke`)).body;
    expect(revokedAnswer).toMatchObject({ valid: false, modifiedAt: revokedAnswer.revokedAt });
    expect(revokedAnswer.revokedAt).not.toBeNull();
    expect((await anonymous().get(`/api/secure-fetch-links/${revoked.linkId}`)).body.code).toBe('SECURE_FETCH_INVALID');
    const refusedUpload = await anonymous().request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `secureFetchId ${Buffer.from(revoked.linkId).toString('base64')}`,
    });
    expect(refusedUpload.body).toMatchObject({ code: 'SECURE_FETCH_INVALID' });

    const used = (await createLink(http, id)).body;
    const sent = await uploadThrough(used.linkId, Buffer.from('once'));
    expect((await submit(used.linkId, [sent])).status).toBe(201);
    // the same submission again is answered by what was received; another is refused
    expect((await submit(used.linkId, [sent])).status).toBe(201);
    const again = await anonymous().get(`/api/secure-fetch-links/${used.linkId}`);
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: 'SECURE_FETCH_USED', message: 'This Secure Fetch link has already been used' });
    const file = await uploadThrough(link.linkId, Buffer.from('first'));
    expect((await submit(used.linkId, [file])).body.code).toBe('SECURE_FETCH_USED');
    const late = await anonymous().request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `secureFetchId ${Buffer.from(used.linkId).toString('base64')}`,
    });
    expect(late.body).toMatchObject({ code: 'SECURE_FETCH_USED' });

    t().clock.advance(3_600_000);
    expect((await anonymous().get(`/api/secure-fetch-links/${link.linkId}`)).body.code).toBe('SECURE_FETCH_INVALID');
    expect((await submit(link.linkId, [file])).body.code).toBe('SECURE_FETCH_INVALID');
  });

  it('is used once when two submissions race: one is received, the other refused as used', async () => {
    const { http, id } = await owner();
    const link = (await createLink(http, id)).body;
    const first = await uploadThrough(link.linkId, Buffer.from('first sender'));
    const second = await uploadThrough(link.linkId, Buffer.from('second sender'));
    const answers = await Promise.all([submit(link.linkId, [first]), submit(link.linkId, [second])]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 410]);
    expect(answers.find((a) => a.status === 410)!.body.code).toBe('SECURE_FETCH_USED');
    expect((await http.get(`/api/users/${id}/secure-fetches/${link.id}/items/`)).body.data).toHaveLength(1);
  });

  it('refuses a submission of an upload not made through the link', async () => {
    const { http, id } = await owner();
    const a = (await createLink(http, id)).body;
    const b = (await createLink(http, id)).body;
    const throughA = await uploadThrough(a.linkId, Buffer.from('for a'));
    const wrong = await submit(b.linkId, [throughA]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INCOMPLETE_UPLOAD');
    expect((await submit(b.linkId, [{ ...throughA, uploadId: 'f'.repeat(32) }])).body.code).toBe('INCOMPLETE_UPLOAD');
  });
});

describe('receiving files, pay and pin, the certificate', () => {
  it("receives files into a folder of the owner's storage with hashes of the plaintext, a signed receipt and a notification", async () => {
    const { http, id, link, contents, receipt } = await received();
    expect(receipt.items).toEqual(contents.map((data, i) => ({ name: `file-${i}.bin`, size: data.length, ...reference(data) })));
    // the receipt is signed by the key published for the audit log
    const publicKey = createPublicKey(await (await fetch(`${t().url}/.well-known/audit-key`)).text());
    const { signature, keyId, status, ...rest } = receipt;
    expect(status).toBe('uploaded');
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(verify(null, Buffer.from(canonical(rest)), publicKey, Buffer.from(signature, 'base64'))).toBe(true);
    // and named in the keyring the upload page checks it against
    const keyring = (await (await fetch(`${t().url}/.well-known/audit-key?keys=all`, { headers: { accept: 'application/json' } })).json()) as {
      keys: { keyId: string; publicKey: string }[];
    };
    const named = keyring.keys.find((k) => k.keyId === keyId);
    expect(named).toBeDefined();
    expect(verify(null, Buffer.from(canonical(rest)), createPublicKey(named!.publicKey), Buffer.from(signature, 'base64'))).toBe(true);

    const items = await http.get(`/api/users/${id}/secure-fetches/${link.id}/items/`);
    expect(items.body.folder).toMatchObject({ label: 'sfFolder' });
    expect(items.body.data).toHaveLength(2);
    // the storage listing labels the link's folder so too (spec §3 Entry labels), other folders stay folders
    const { storageId, id: folderId } = items.body.folder as { storageId: string; id: string };
    expect((await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'folder', name: 'Mine' })).status).toBe(201);
    const root = await http.get(`/api/users/${id}/storages/${storageId}/items/`);
    expect(root.status, JSON.stringify(root.body)).toBe(200);
    const labels = Object.fromEntries(
      (root.body.data as { id: string; name: string; label: string; type: string }[]).map((e) => [e.id === folderId ? 'fetched' : e.name, [e.label, e.type]]),
    );
    expect(labels).toMatchObject({ fetched: ['sfFolder', 'sfFolder'], Mine: ['folder', 'folder'] });
    const inside = await http.get(`/api/users/${id}/storages/${storageId}/folders/${folderId}/items/`);
    // inside, the files received are sfFile; the folders the sender's paths made stay folders
    expect(inside.body.data.map((e: { label: string }) => e.label)).toEqual(['folder', 'sfFile']);
    for (const [i, item] of (items.body.data as { id: string; label: string; md5: string }[]).entries()) {
      expect(item.label).toBe('sfFile');
      // read back through the files content: the stored plaintext has the hashes the certificate will show
      const res = await fetch(`${t().url}/api/users/${id}/secure-fetches/${link.id}/items/${item.id}/download`, { headers: { cookie: cookieOf(http) } });
      const stored = Buffer.from(await res.arrayBuffer());
      expect(stored.equals(contents[i]!)).toBe(true);
      expect(reference(stored)).toMatchObject({ md5: item.md5 });
      // a broken download resumes: the rest by Range
      const rest = await fetch(`${t().url}/api/users/${id}/secure-fetches/${link.id}/items/${item.id}/download`, {
        headers: { cookie: cookieOf(http), range: 'bytes=10-' },
      });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes 10-${contents[i]!.length - 1}/${contents[i]!.length}`);
      expect(Buffer.from(await rest.arrayBuffer()).equals(contents[i]!.subarray(10))).toBe(true);
    }
    // the second file was sent from a folder: it keeps its folders inside the link's folder
    const inFolder = (await http.get(`/api/users/${id}/storages/${items.body.folder.storageId}/folders/${items.body.folder.id}/items/`)).body.data as {
      name: string;
      label: string;
      id: string;
    }[];
    expect(inFolder.map((e) => [e.label, e.name])).toEqual([
      ['folder', 'letters'],
      ['sfFile', 'file-0.bin'],
    ]);
    const letters = (await http.get(`/api/users/${id}/storages/${items.body.folder.storageId}/folders/${inFolder[0]!.id}/items/`)).body.data as {
      name: string;
      id: string;
    }[];
    const year = (await http.get(`/api/users/${id}/storages/${items.body.folder.storageId}/folders/${letters[0]!.id}/items/`)).body.data as { name: string }[];
    expect([letters[0]!.name, year.map((e) => e.name)]).toEqual(['2026', ['file-1.bin']]);
    // the files sit in the owner's online storage, counted in its quota
    const storages = await http.get(`/api/users/${id}/storages/`);
    expect(storages.body.data[0].sizeUsed).toBeGreaterThanOrEqual(contents[0]!.length + contents[1]!.length);
    const fetched = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/`)).body;
    expect(fetched).toMatchObject({ status: 'uploaded', paid: false, metadata: { author: 'Ann Author', copyrightTypeId: 2 } });
    const notices = await until(
      () => http.get(`/api/users/${id}/notifications/`),
      (r) => r.body.data.some((n: { type: string }) => n.type === 'secure_fetch_files_arrived'),
      'the notification',
    );
    expect(notices.body.data.find((n: { type: string }) => n.type === 'secure_fetch_files_arrived')).toMatchObject({ title: 'Files arrived' });
  });

  it("labels the link's folder sfFolder and the received files sfFile in every read of the owner's storage: listing, by id, details, search, label filter, trash; copies are plain", async () => {
    const { http, id, link, contents } = await received({ certificate: false });
    const { folder } = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/items/`)).body as { folder: { id: string; storageId: string } };
    const base = `/api/users/${id}/storages/${folder.storageId}`;
    expect((await http.post(`${base}/items/`, { label: 'folder', name: 'Mine' })).status).toBe(201);
    type Entry = { id: string; name: string; label: string; type: string; fileId: string | null };
    const list = async (path: string) => {
      const res = await http.get(path);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as Entry[];
    };
    const labelled = (entries: Entry[]) => entries.map((e) => [e.name, e.label, e.type]);

    // listings: the link's folder at the root, the received files inside it and in the sender's folders
    const root = await list(`${base}/items/`);
    const sf = root.find((e) => e.id === folder.id)!;
    expect([sf.label, sf.type]).toEqual(['sfFolder', 'sfFolder']);
    expect(root.find((e) => e.name === 'Mine')).toMatchObject({ label: 'folder', type: 'folder' });
    const inside = await list(`${base}/folders/${folder.id}/items/`);
    expect(labelled(inside)).toEqual([
      ['letters', 'folder', 'folder'],
      ['file-0.bin', 'sfFile', 'sfFile'],
    ]);
    const file0 = inside[1]!;
    expect(file0.fileId).toBe(file0.id);
    const year = (await list(`${base}/folders/${inside[0]!.id}/items/`))[0]!;
    const file1 = (await list(`${base}/folders/${year.id}/items/`))[0]!;
    expect([file1.name, file1.label]).toEqual(['file-1.bin', 'sfFile']);

    // by id, and the details
    expect((await http.get(`${base}/folders/${folder.id}`)).body).toMatchObject({ id: folder.id, label: 'sfFolder', type: 'sfFolder' });
    expect((await http.get(`${base}/files/${file0.id}`)).body).toMatchObject({ id: file0.id, label: 'sfFile', type: 'sfFile', fileId: file0.id });
    expect((await http.get(`${base}/items/${file0.id}/info/`)).body).toMatchObject({ label: 'sfFile' });
    expect((await http.get(`${base}/items/${folder.id}/info/`)).body).toMatchObject({ label: 'sfFolder' });
    // a listed entry is the entry its own address answers, field for field
    expect(inside[1]).toStrictEqual((await http.get(`${base}/files/${file0.id}`)).body);
    expect(sf).toStrictEqual((await http.get(`${base}/folders/${folder.id}`)).body);

    // search
    const found = await list(`${base}/search/?search=file-`);
    expect(labelled(found).sort()).toEqual([
      ['file-0.bin', 'sfFile', 'sfFile'],
      ['file-1.bin', 'sfFile', 'sfFile'],
    ]);
    expect((await list(`${base}/search/?search=Secure%20Fetch`)).map((e) => e.label)).toEqual(['sfFolder']);

    // the label filter: file and folder keep a kind (Secure Fetch items too), sfFile and sfFolder only those
    const names = async (path: string) => (await list(path)).map((e) => e.name).sort();
    expect(await names(`${base}/items/?label=sfFolder`)).toEqual([sf.name]);
    expect(await names(`${base}/items/?label=folder`)).toEqual(['Mine', sf.name].sort());
    expect(await names(`${base}/folders/${folder.id}/items/?label=sfFile`)).toEqual(['file-0.bin']);
    expect(await names(`${base}/folders/${folder.id}/items/?label=file`)).toEqual(['file-0.bin']);
    expect(await names(`${base}/folders/${folder.id}/items/?label=sfFolder`)).toEqual([]);
    expect((await http.get(`${base}/folders/${folder.id}/items/?label=sfFolder`)).body.totalCount).toBe(0);
    expect((await http.get(`${base}/items/?label=other`)).status).toBe(400);

    // shared, the folder and its files keep their labels for the visitor, and the file downloads as any file
    const shared = await http.post('/api/shares/', { title: 'Received', downloadable: true, itemIds: [folder.id] });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const v = shareAccess.visitor();
    const shareLink = `/api/share-links/${shared.body.shareLinkId as string}`;
    expect((await v.call(shareLink)).status).toBe(200);
    expect(labelled((await v.call(`${shareLink}/entries/`)).body.data)).toEqual([[sf.name, 'sfFolder', 'sfFolder']]);
    const sharedInside = (await v.call(`${shareLink}/entries/?sfFolderId=${folder.id}`)).body.data as Entry[];
    expect(labelled(sharedInside)).toEqual([
      ['letters', 'folder', 'folder'],
      ['file-0.bin', 'sfFile', 'sfFile'],
    ]);
    const url = await v.call(`${shareLink}/entries/${file0.id}?q=download-url`);
    expect(url.status, JSON.stringify(url.body)).toBe(200);
    expect((await shareAccess.bytesOf(url.body.url as string, { 'user-agent': v.userAgent })).body.equals(contents[0]!)).toBe(true);

    const task = async (body: Record<string, unknown>) => {
      const started = await http.post(`/api/users/${id}/storage-tasks/`, body);
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      await until(
        () => http.get(started.body.stateURL),
        (r) => r.body.status === 'done',
        `the ${String(body.action)} task`,
      );
    };
    // a copy is the owner's own: a plain file
    await task({ action: 'copy', itemIds: [file0.id], destinationId: null, storageId: folder.storageId });
    expect((await list(`${base}/items/?label=file`)).map((e) => [e.name, e.label])).toEqual([['file-0.bin', 'file']]);

    // the trash keeps the labels
    await task({ action: 'trash', itemIds: [file1.id] });
    await task({ action: 'trash', itemIds: [folder.id] });
    const trash = await list(`/api/users/${id}/trash-bin/?storageId=${folder.storageId}`);
    expect(labelled(trash).sort()).toEqual(
      [
        ['file-1.bin', 'sfFile', 'sfFile'],
        [sf.name, 'sfFolder', 'sfFolder'],
      ].sort(),
    );
    // and so does a restore
    await task({ action: 'restore', itemIds: [folder.id] });
    expect((await http.get(`${base}/folders/${folder.id}`)).body).toMatchObject({ label: 'sfFolder' });
  });

  it("pays from confirmed tokens only; the certificate shows the plaintext hashes, its canonical SHA-256 is the transaction's data; the PDF shows them too", async () => {
    const { http, id, link, contents } = await received();
    const broke = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({ code: 'INSUFFICIENT_CONFIRMED_TOKENS', message: 'Insufficient confirmed tokens to pin' });
    expect((await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate`)).body.code).toBe('CERTIFICATE_NOT_AVAILABLE');

    expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
    expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
    // unconfirmed tokens cannot pin
    expect((await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`)).body.code).toBe('INSUFFICIENT_CONFIRMED_TOKENS');
    await nextBlock(http);
    // three clicks at once pay once
    const clicks = await Promise.all([1, 2, 3].map(() => http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`)));
    const paid = clicks[0]!;
    expect(
      clicks.map((c) => c.status),
      JSON.stringify(clicks.map((c) => c.body)),
    ).toEqual([200, 200, 200]);
    expect(new Set(clicks.map((c) => c.body.txId)).size).toBe(1);
    expect(paid.body).toMatchObject({
      id: link.id,
      amount: '0.009',
      status: 'active',
      paid: true,
      fetch: { id: link.id, status: 'active', txId: paid.body.txId },
    });
    const again = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
    expect(again.body.txId).toBe(paid.body.txId);
    expect((await http.get('/api/wallet/v1/balance')).body).toMatchObject({ confirmed: '0.991' });

    const certificate = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate`)).body;
    expect(certificate.txId).toBe(paid.body.txId);
    // the stored plaintext, read back through the files content, hashed here
    const items = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/items/`)).body.data as { id: string }[];
    const stored = await Promise.all(
      items.map(async (item) =>
        Buffer.from(
          await (
            await fetch(`${t().url}/api/users/${id}/secure-fetches/${link.id}/items/${item.id}/download`, { headers: { cookie: cookieOf(http) } })
          ).arrayBuffer(),
        ),
      ),
    );
    expect(stored).toEqual(contents);
    expect(
      certificate.files.map((f: { md5: string; sha1: string; sha3_512: string; size: number }) => ({
        md5: f.md5,
        sha1: f.sha1,
        sha3_512: f.sha3_512,
        size: f.size,
      })),
    ).toEqual(stored.map((data) => ({ ...reference(data), size: data.length })));
    expect(certificate.metadata).toMatchObject({ author: 'Ann Author', isbn: '978-3-16-148410-0' });
    const { txId, canonicalSha256, ...body } = certificate;
    expect(canonicalSha256).toBe(createHash('sha256').update(canonical(body)).digest('hex'));
    const tx = await http.get(`/api/wallet/v1/explorer/transactions/${txId}`);
    expect(tx.body).toMatchObject({ txid: txId, amount: '0.009', data: canonicalSha256 });

    const pdf = await fetch(`${t().url}/api/users/${id}/secure-fetches/${link.id}/certificate?format=pdf`, { headers: { cookie: cookieOf(http) } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = bytes.toString('latin1');
    // pdfkit writes shown text as hex glyph codes; hashes are shown in lines of 64 characters
    const shown = (hex: string) => (hex.match(/.{1,64}/g) ?? []).every((line) => text.includes(Buffer.from(line).toString('hex')));
    for (const data of contents) for (const hash of Object.values(reference(data))) expect(shown(hash)).toBe(true);
    expect(shown(canonicalSha256)).toBe(true);
  });

  it('collects unpaid files 2 hours after they arrived and keeps paid ones (controlled clock)', async () => {
    const unpaid = await received({ certificate: false, contents: [Buffer.from('unpaid bytes')] });
    const paidOne = await received({ certificate: false, contents: [Buffer.from('paid bytes')] });
    await paidOne.http.post('/api/wallet/v1/addresses', {});
    await paidOne.http.post('/api/wallet/v1/faucet', { amount: '1' });
    await nextBlock(paidOne.http);
    expect((await paidOne.http.post(`/api/users/${paidOne.id}/secure-fetches/${paidOne.link.id}/pay`)).status).toBe(200);
    const unpaidItems = (await unpaid.http.get(`/api/users/${unpaid.id}/secure-fetches/${unpaid.link.id}/items/`)).body;
    const folderId = unpaidItems.folder.id as string;
    const storageId = unpaidItems.folder.storageId as string;
    expect((await unpaid.http.get(`/api/users/${unpaid.id}/storages/${storageId}/folders/${folderId}/items/`)).body.totalCount).toBe(1);

    // the processes have seen the submissions (and set their timers) before the time passes
    await runtime().whenIdle();
    t().clock.advance(2 * 3_600_000 + 60_000);
    await runtime().fireDueTimers();
    await runtime().whenIdle();
    // two hours later the owners sign in again (their sessions ended with the inactivity)
    const unpaidHttp = (await helpers.signIn(unpaid.email)).http;
    const paidHttp = (await helpers.signIn(paidOne.email)).http;
    Object.assign(unpaid, { http: unpaidHttp });
    Object.assign(paidOne, { http: paidHttp });

    const gone = await until(
      () => unpaid.http.get(`/api/users/${unpaid.id}/secure-fetches/${unpaid.link.id}/`),
      (r) => r.body.collectedAt !== null,
      'the collection',
    );
    expect(gone.body).toMatchObject({ itemsCount: 0, paid: false });
    expect((await unpaid.http.get(`/api/users/${unpaid.id}/storages/${storageId}/folders/${folderId}/items/`)).status).toBe(404);
    // a late retry of the same submission is answered, and brings nothing back
    expect((await submit(unpaid.link.linkId, unpaid.files)).status).toBe(201);
    expect((await unpaid.http.get(`/api/users/${unpaid.id}/storages/${storageId}/folders/${folderId}/items/`)).status).toBe(404);
    expect((await unpaid.http.post(`/api/users/${unpaid.id}/secure-fetches/${unpaid.link.id}/pay`)).body.code).toBe('SECURE_FETCH_COLLECTED');

    const kept = (await paidOne.http.get(`/api/users/${paidOne.id}/secure-fetches/${paidOne.link.id}/items/`)).body;
    expect(kept.data).toHaveLength(1);
    expect((await paidOne.http.get(`/api/users/${paidOne.id}/storages/${kept.folder.storageId}/folders/${kept.folder.id}/items/`)).body.totalCount).toBe(1);
  });

  it('the links read model rebuilds from the log to the same rows', async () => {
    await settled(t());
    const rows = async () => (await t().app.ctx.pool.query('select * from secure_fetches order by id')).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThan(10);
    const projection = t().app.ctx.runner.projections.find((p) => p.name === 'secure_fetches')!;
    await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    expect(await rows()).toEqual(before);
  });
});

describe('the Secure Fetch folder index on a database made before it', () => {
  it('is created by the migration, once, and the folder lookup reads it', async () => {
    const { pool } = t().app.ctx;
    const folderIndexes = async () =>
      (await pool.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'secure_fetches' and indexdef like '%folderId%'`)).rows.map(
        (r) => r.indexname,
      );
    for (const name of await folderIndexes()) await pool.query(`drop index "${name}"`);
    await pool.query('delete from schema_migrations where id = any($1)', [secureFetchMigrations.map((m) => m.id)]);
    expect(await folderIndexes()).toEqual([]);

    expect(await migrate(pool, secureFetchMigrations)).toEqual(['api-secure-fetch-001-folder-index']);
    expect(await folderIndexes()).toHaveLength(1);
    // run again on a database that has the index (under any name): no second one
    await pool.query('delete from schema_migrations where id = any($1)', [secureFetchMigrations.map((m) => m.id)]);
    await migrate(pool, secureFetchMigrations);
    expect(await folderIndexes()).toHaveLength(1);

    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`explain select 1 from secure_fetches where (record->'submission'->>'folderId') = $1`, ['x']);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain((await folderIndexes())[0]);
      await client.query('rollback');
    } finally {
      client.release();
    }
  });
});

describe('Secure Fetch labels in the storage read model', () => {
  const labels = async () =>
    (await t().app.ctx.pool.query<{ id: string; label: string }>(`select id, coalesce(sf_label, label) as label from storage_items order by id`)).rows;

  it('a rebuild of the storage projection from the log writes the same rows, labels included', async () => {
    await settled(t());
    const rows = async () => (await t().app.ctx.pool.query('select * from storage_items order by id')).rows;
    const before = await rows();
    // (the unpaid links' files were collected by now: the paid links' remain)
    expect(before.filter((r) => r.sf_label === 'sfFolder').length).toBeGreaterThanOrEqual(2);
    expect(before.filter((r) => r.sf_label === 'sfFile').length).toBeGreaterThanOrEqual(2);
    const projection = t().app.ctx.runner.projections.find((p) => p.name === 'storage')!;
    await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    expect(await rows()).toEqual(before);
  });

  it('a read model made before the labels were stored gets them from the migration, as a rebuild would write them', async () => {
    await settled(t());
    const { pool } = t().app.ctx;
    const before = await labels();
    // the storage read model as it was: no label column, no table of received items
    await pool.query('alter table storage_items drop column sf_label');
    await pool.query('drop table storage_received');
    await pool.query('delete from schema_migrations where id = any($1)', [storageLabelMigrations.map((m) => m.id)]);
    const plain = (await pool.query<{ id: string; label: string }>('select id, label from storage_items order by id')).rows;
    expect(plain).not.toEqual(before);

    expect(await migrate(pool, storageLabelMigrations)).toEqual(['storage-003-secure-fetch-labels']);
    expect(await labels()).toEqual(before);
    // the projection goes on labelling what arrives next
    const { http, id, link } = await received({ certificate: false, contents: [Buffer.from('after the migration')] });
    const { folder } = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/items/`)).body as { folder: { id: string; storageId: string } };
    const inside = (await http.get(`/api/users/${id}/storages/${folder.storageId}/folders/${folder.id}/items/`)).body.data as { label: string }[];
    expect(inside.map((e) => e.label)).toEqual(['sfFile']);
  });
});

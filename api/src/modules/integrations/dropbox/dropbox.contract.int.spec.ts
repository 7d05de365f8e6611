import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROPBOX_HASH_BLOCK, DropboxContentHasher, dropboxContentHash } from './dropbox.content-hash';
import { DropboxHttp } from './dropbox.http';
import { DropboxRefusedError, isBytes } from './dropbox.port';
import { startDropboxStandIn, type DropboxStandIn } from './dropbox.standin';

/*
 * The Dropbox adapter's contract, run against the Dropbox stand-in: the adapter's own HTTP code
 * (OAuth with PKCE, the RPC and content endpoints, waiting out 429s) is what runs here.
 */
let standIn: DropboxStandIn;
const redirectUri = 'http://127.0.0.1:1/app/dropbox/auth';
const sleeps: number[] = [];
const adapter = () =>
  new DropboxHttp({
    clientId: 'app-key',
    authorizeUrl: `${standIn.url}/oauth2/authorize`,
    apiUrl: standIn.url,
    contentUrl: standIn.url,
    sleep: async (ms) => void sleeps.push(ms),
  });

const pkce = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The browser's round trip: the authorize page sends it back with a code. */
const authorize = async (dropbox: DropboxHttp, verifier: string, account: string) => {
  const url = new URL(dropbox.authorizeUrl({ state: 'st', codeChallenge: pkce(verifier), redirectUri }));
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    response_type: 'code',
    token_access_type: 'offline',
    code_challenge_method: 'S256',
    client_id: 'app-key',
  });
  url.searchParams.set('standin_account', account);
  const res = await fetch(url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('st');
  return back.searchParams.get('code')!;
};

const connect = async (account: string) => {
  const dropbox = adapter();
  const verifier = 'v'.repeat(50) + account;
  const grant = await dropbox.exchangeCode({ code: await authorize(dropbox, verifier, account), codeVerifier: verifier, redirectUri });
  return { dropbox, grant };
};

beforeAll(async () => {
  standIn = await startDropboxStandIn({ root: mkdtempSync(path.join(os.tmpdir(), 'dropbox-standin-')) });
});
afterAll(async () => {
  await standIn?.stop();
});

describe('Dropbox content hash', () => {
  it('hashes 4 MiB blocks, then the blocks’ digests, whatever pieces the bytes arrive in', () => {
    const data = Buffer.alloc(2 * DROPBOX_HASH_BLOCK + 123, 7);
    for (let i = 0; i < data.length; i += 4099) data[i] = i % 251;
    const blocks = [0, 1, 2].map((b) =>
      createHash('sha256')
        .update(data.subarray(b * DROPBOX_HASH_BLOCK, (b + 1) * DROPBOX_HASH_BLOCK))
        .digest(),
    );
    const expected = createHash('sha256').update(Buffer.concat(blocks)).digest('hex');
    expect(dropboxContentHash(data)).toBe(expected);
    const pieces = new DropboxContentHasher();
    for (let at = 0; at < data.length; at += 1_000_003) pieces.update(data.subarray(at, at + 1_000_003));
    expect(pieces.digest()).toBe(expected);
    // no bytes: the hash of no block digests
    expect(dropboxContentHash(Buffer.alloc(0))).toBe(createHash('sha256').digest('hex'));
  });
});

describe('Dropbox adapter against the stand-in', () => {
  it('connects with code + PKCE and refresh tokens; a wrong verifier or a used code is refused', async () => {
    const { dropbox, grant } = await connect('dbid:alpha');
    expect(grant).toMatchObject({ accountId: 'dbid:alpha' });
    expect(grant.refreshToken).toBeTruthy();
    expect(grant.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3 * 3_600_000);
    const refreshed = await dropbox.refresh(grant.refreshToken);
    expect(refreshed.accessToken).not.toBe(grant.accessToken);

    const code = await authorize(dropbox, 'right-verifier-right-verifier-right-verifier', 'dbid:beta');
    await expect(dropbox.exchangeCode({ code, codeVerifier: 'wrong-verifier-wrong-verifier-wrong-verifier', redirectUri })).rejects.toBeInstanceOf(
      DropboxRefusedError,
    );
    await expect(dropbox.exchangeCode({ code, codeVerifier: 'right-verifier-right-verifier-right-verifier', redirectUri })).rejects.toBeInstanceOf(
      DropboxRefusedError,
    );
  });

  it('lists a folder page by page with has_more and the cursor', async () => {
    const { dropbox, grant } = await connect('dbid:lister');
    const root = standIn.folderOf('dbid:lister');
    mkdirSync(path.join(root, 'Docs'));
    for (const n of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(path.join(root, 'Docs', n), `file ${n}`);
    const first = await dropbox.rpc(grant.accessToken, 'list_folder', { path: '/Docs', limit: 2 });
    expect(first.status).toBe(200);
    const page1 = first.body as { entries: { name: string; '.tag': string; content_hash: string }[]; has_more: boolean; cursor: string };
    expect(page1.entries.map((e) => e.name)).toEqual(['a.txt', 'b.txt']);
    expect(page1.entries[0]).toMatchObject({
      '.tag': 'file',
      path_display: '/Docs/a.txt',
      size: 10,
      content_hash: dropboxContentHash(Buffer.from('file a.txt')),
    });
    expect(page1.has_more).toBe(true);
    const next = await dropbox.rpc(grant.accessToken, 'list_folder/continue', { cursor: page1.cursor });
    expect(next.body).toMatchObject({ entries: [{ name: 'c.txt' }], has_more: false });
    expect((await dropbox.rpc(grant.accessToken, 'list_folder', { path: '/Nope' })).body).toMatchObject({
      error: { '.tag': 'path', path: { '.tag': 'not_found' } },
    });
  });

  it('creates folders (a second time a conflict), links to files, uploads, downloads and previews', async () => {
    const { dropbox, grant } = await connect('dbid:writer');
    const made = await dropbox.rpc(grant.accessToken, 'create_folder_v2', { path: '/Cases', autorename: false });
    expect(made).toMatchObject({ status: 200, body: { metadata: { name: 'Cases', path_display: '/Cases' } } });
    expect((await dropbox.rpc(grant.accessToken, 'create_folder_v2', { path: '/Cases', autorename: false })).status).toBe(409);

    const bytes = Buffer.from('contract text\n');
    const uploaded = await dropbox.upload(grant.accessToken, { path: '/Cases/note.txt' }, bytes);
    expect(uploaded).toMatchObject({ status: 200, body: { name: 'note.txt', size: bytes.length, content_hash: dropboxContentHash(bytes) } });

    const link = await dropbox.rpc(grant.accessToken, 'get_temporary_link', { path: '/Cases/note.txt' });
    expect(link.body).toMatchObject({ metadata: { name: 'note.txt' } });
    expect(await (await fetch((link.body as { link: string }).link)).text()).toBe('contract text\n');

    const download = await dropbox.content(grant.accessToken, 'download', { path: '/Cases/note.txt' });
    if (!isBytes(download)) throw new Error(`download answered ${download.status}`);
    expect(download.result).toMatchObject({ content_hash: dropboxContentHash(bytes) });
    const chunks: Buffer[] = [];
    for await (const c of download.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('contract text\n');

    const preview = await dropbox.content(grant.accessToken, 'get_preview', { path: '/Cases/note.txt' });
    expect(isBytes(preview) && preview.contentType).toMatch(/^text\/html/);
    if (isBytes(preview)) preview.body.resume();
    const missing = await dropbox.content(grant.accessToken, 'download', { path: '/Cases/none.txt' });
    expect(isBytes(missing)).toBe(false);
    expect(missing.status).toBe(409);
  });

  it('waits out a 429 for the Retry-After Dropbox gives, and answers it when it lasts', async () => {
    const { dropbox, grant } = await connect('dbid:busy');
    sleeps.length = 0;
    standIn.throttle(2, 3);
    const answer = await dropbox.rpc(grant.accessToken, 'list_folder', { path: '' });
    expect(answer.status).toBe(200);
    expect(sleeps).toEqual([3000, 3000]);

    standIn.throttle(10, 1);
    const busy = await dropbox.rpc(grant.accessToken, 'list_folder', { path: '' });
    expect(busy).toMatchObject({ status: 429, retryAfter: 1, body: { error: { reason: { '.tag': 'too_many_requests' } } } });
    standIn.throttle(0);
  });

  it('an expired access token is refused until refreshed; a revoked grant refreshes no more', async () => {
    const { dropbox, grant } = await connect('dbid:expiring');
    standIn.expireAccessTokens();
    expect((await dropbox.rpc(grant.accessToken, 'list_folder', { path: '' })).body).toMatchObject({ error: { '.tag': 'expired_access_token' } });
    const fresh = await dropbox.refresh(grant.refreshToken);
    expect((await dropbox.rpc(fresh.accessToken, 'list_folder', { path: '' })).status).toBe(200);
    await dropbox.revoke(fresh.accessToken);
    await expect(dropbox.refresh(grant.refreshToken)).rejects.toBeInstanceOf(DropboxRefusedError);
  });
});

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { integrationsStreamName } from '@axel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';
import { rawRequest } from '../../testing/raw-http';
import { startClioStandIn, type ClioStandIn } from './clio/clio.standin';
import { dropboxContentHash } from './dropbox/dropbox.content-hash';
import { startDropboxStandIn, type DropboxStandIn } from './dropbox/dropbox.standin';

/* Dropbox and Clio through the product's own routes, the adapters pointed at the stand-ins. */
let dropbox: DropboxStandIn;
let clio: ClioStandIn;
beforeAll(async () => {
  dropbox = await startDropboxStandIn({ root: mkdtempSync(path.join(os.tmpdir(), 'dropbox-standin-')) });
  clio = await startClioStandIn();
});
afterAll(async () => {
  await dropbox?.stop();
  await clio?.stop();
});

const t = useTestApp(() => ({
  env: {
    RATE_LIMIT_FACTOR: '10',
    DROPBOX_CLIENT_ID: 'axel-app-key',
    DROPBOX_AUTHORIZE_URL: `${dropbox.url}/oauth2/authorize`,
    DROPBOX_API_URL: dropbox.url,
    DROPBOX_CONTENT_URL: dropbox.url,
    CLIO_CLIENT_ID: 'axel-clio-id',
    CLIO_CLIENT_SECRET: 'axel-clio-secret-value',
    CLIO_URL: clio.url,
  },
}));
const { signedInUser, signIn } = accountHelpers(t);

/** A session cookie of the user's own, for requests the test client cannot make (bytes out, a length it would not send). */
const sessionCookie = async (email: string) =>
  (await signIn(email)).res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** A user on the Professional plan (which permits the dropbox app), paid through the test provider. */
const professional = async () => {
  const user = await signedInUser();
  const bought = await user.http.post(`/api/users/${user.id}/products/`, { productId: 200 });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
  expect((await user.http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
  return user;
};

/** The browser's round trip through the provider's authorize page, back to the app's callback with a code. */
const roundTrip = async (authorizeUrl: string, extra: Record<string, string> = {}) => {
  const url = new URL(authorizeUrl);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  return new URL(res.headers.get('location')!);
};

const connectDropbox = async (http: HttpClient, id: string, account: string) => {
  const started = await http.get(`/api/users/${id}/dropbox/authorize`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const back = await roundTrip(started.body.url, { standin_account: account });
  expect(`${back.origin}${back.pathname}`).toBe(`${t().url}/app/dropbox/auth`);
  const connected = await http.post(`/api/users/${id}/dropbox/auth`, { code: back.searchParams.get('code'), state: back.searchParams.get('state') });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
};

const dropboxApi = (http: HttpClient, endpoint: string, body: unknown) => http.post(`/api/dropboxapi/2/files/${endpoint}`, body);

describe('Dropbox', () => {
  it('connects with PKCE, browses page by page, creates folders, links and previews through the proxies, with the bearer added here', async () => {
    const { http, id } = await professional();
    await connectDropbox(http, id, 'dbid:browse');
    const root = dropbox.folderOf('dbid:browse');
    mkdirSync(path.join(root, 'Evidence'));
    for (const n of ['1.txt', '2.txt', '3.txt']) writeFileSync(path.join(root, 'Evidence', n), `exhibit ${n}`);

    const first = await dropboxApi(http, 'list_folder', { path: '/Evidence', limit: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ entries: [{ name: '1.txt' }, { name: '2.txt' }], has_more: true });
    const rest = await dropboxApi(http, 'list_folder/continue', { cursor: first.body.cursor });
    expect(rest.body).toMatchObject({ entries: [{ name: '3.txt', content_hash: dropboxContentHash(Buffer.from('exhibit 3.txt')) }], has_more: false });

    expect((await dropboxApi(http, 'create_folder_v2', { path: '/Evidence/Photos', autorename: false })).body).toMatchObject({ metadata: { name: 'Photos' } });
    // Dropbox's own refusal is handed on as Dropbox gave it
    expect((await dropboxApi(http, 'create_folder_v2', { path: '/Evidence/Photos', autorename: false })).status).toBe(409);
    const link = await dropboxApi(http, 'get_temporary_link', { path: '/Evidence/1.txt' });
    expect(await (await fetch(link.body.link)).text()).toBe('exhibit 1.txt');
    const preview = await http.request('POST', '/api/dropboxcontent/2/files/get_preview', undefined, {
      'dropbox-api-arg': JSON.stringify({ path: '/Evidence/2.txt' }),
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toMatch(/^text\/html/);
    expect(String(preview.body)).toContain('exhibit 2.txt');
    // only the allowed endpoints pass
    expect((await dropboxApi(http, 'delete_v2', { path: '/Evidence' })).body.code).toBe('NOT_FOUND');

    const token = await http.get(`/api/users/${id}/dropbox/accesstoken`);
    expect(token.status).toBe(200);
    expect(token.body.accessToken).toMatch(/^sl\./);
    expect(token.headers.get('cache-control')).toBe('no-store');
  });

  it('refreshes an expired access token by itself and waits out a 429 for its Retry-After', async () => {
    const { http, id } = await professional();
    await connectDropbox(http, id, 'dbid:refresh');
    dropbox.expireAccessTokens();
    expect((await dropboxApi(http, 'list_folder', { path: '' })).status).toBe(200);
    dropbox.throttle(1, 1);
    const started = Date.now();
    expect((await dropboxApi(http, 'list_folder', { path: '' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('imports a file into the storage with its content hash checked as it streams, and refuses a file whose bytes do not match', async () => {
    const { http, id, storageId, email } = await professional();
    await connectDropbox(http, id, 'dbid:import');
    const root = dropbox.folderOf('dbid:import');
    const content = Buffer.alloc(5 * 1024 * 1024 + 17, 3);
    for (let i = 0; i < content.length; i += 1013) content[i] = i % 256;
    writeFileSync(path.join(root, 'deposition.bin'), content);
    writeFileSync(path.join(root, 'damaged.txt'), 'these bytes will be damaged on the way');

    const imported = await http.post(`/api/users/${id}/dropbox/import`, { path: '/deposition.bin', storageId });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ name: 'deposition.bin', size: content.length, contentHash: dropboxContentHash(content) });
    const made = await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: 'deposition.bin', uploadId: imported.body.uploadId });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const bytes = await fetch(`${t().url}/api/users/${id}/storages/${storageId}/files/${made.body.id}/sources/`, {
      headers: { cookie: await sessionCookie(email) },
    });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(content)).toBe(true);

    dropbox.tamper('/damaged.txt');
    const refused = await http.post(`/api/users/${id}/dropbox/import`, { path: '/damaged.txt', storageId });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'DROPBOX_CONTENT_HASH_MISMATCH',
      data: { expected: dropboxContentHash(Buffer.from('these bytes will be damaged on the way')) },
    });
    const { rows } = await t().app.ctx.pool.query('select id from uploads where user_id = $1', [id]);
    expect(rows).toEqual([]);

    const events = await t().app.ctx.store.readStream(integrationsStreamName(id));
    expect(events.events.filter((e) => e.type === 'DropboxFileImported').map((e) => e.data)).toMatchObject([{ path: '/deposition.bin', size: content.length }]);
    // as stored: the path and the refresh token sealed under the account's key
    const stored = await t().app.ctx.pool.query<{ text: string }>('select data::text as text from es_events where stream_name = $1', [
      integrationsStreamName(id),
    ]);
    const connectedData = events.events.find((e) => e.type === 'AppConnected')!.data as { refreshToken: string };
    for (const row of stored.rows) {
      expect(row.text).not.toContain('/deposition.bin');
      expect(row.text).not.toContain(connectedData.refreshToken);
    }
  });

  it('uploads to Dropbox up to 150 MB, and refuses more before reading it', async () => {
    const { http, id, email } = await professional();
    await connectDropbox(http, id, 'dbid:upload');
    const bytes = Buffer.from('a filing for the record');
    const up = await http.request('POST', '/api/dropboxcontent/2/files/upload', new Uint8Array(bytes), {
      'content-type': 'application/octet-stream',
      'dropbox-api-arg': JSON.stringify({ path: '/Filed/record.txt', mode: 'add', autorename: true }),
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ path_display: '/Filed/record.txt', content_hash: dropboxContentHash(bytes) });
    const host = new URL(t().url).host;
    const tooBig = await rawRequest(
      t().url,
      `POST /api/dropboxcontent/2/files/upload HTTP/1.1\r\nHost: ${host}\r\nCookie: ${await sessionCookie(email)}\r\nX-Requested-With: XMLHttpRequest\r\n` +
        `Content-Type: application/octet-stream\r\nDropbox-API-Arg: {"path":"/Filed/huge.bin"}\r\nContent-Length: ${150 * 1024 * 1024 + 1}\r\nConnection: close\r\n\r\n`,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toMatchObject({ code: 'DROPBOX_FILE_TOO_LARGE', message: 'Files uploaded to Dropbox are limited to 150 MB' });
  });

  it('lists the apps, and disconnecting revokes the token at Dropbox', async () => {
    const { http, id } = await professional();
    await connectDropbox(http, id, 'dbid:manage');
    const apps = await http.get(`/api/users/${id}/apps`);
    expect(apps.body.data).toEqual([
      { app: 'dropbox', configured: true, allowed: true, connected: true, region: null },
      { app: 'clio', configured: true, allowed: true, connected: false, region: null },
    ]);
    const calls = dropbox.calls.length;
    expect((await http.post(`/api/users/${id}/dropbox/revoke`)).body).toEqual({ app: 'dropbox', connected: false });
    expect(dropbox.calls.slice(calls)).toContain('POST /2/auth/token/revoke');
    expect((await http.get(`/api/users/${id}/apps`)).body.data[0].connected).toBe(false);
    expect((await dropboxApi(http, 'list_folder', { path: '' })).body.code).toBe('APP_NOT_CONNECTED');
  });

  it('is not for a plan without the dropbox permission, nor for someone else’s account', async () => {
    const basic = await signedInUser();
    const refused = await basic.http.get(`/api/users/${basic.id}/dropbox/authorize`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'APP_NOT_ALLOWED', message: 'Your plan or your team does not allow this app' });
    expect((await dropboxApi(basic.http, 'list_folder', { path: '' })).body.code).toBe('APP_NOT_ALLOWED');
    const pro = await professional();
    expect((await basic.http.get(`/api/users/${pro.id}/dropbox/accesstoken`)).status).toBe(403);
  });
});

describe('Clio', () => {
  it('connects in a region, lists matters and files a stored file in three steps; forgetting the account ends it all', async () => {
    const { http, id, storageId } = await professional();
    const started = await http.get(`/api/users/${id}/clio/authorize?region=eu`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const back = await roundTrip(started.body.url);
    expect(back.pathname).toBe('/app/clio/auth');
    const connected = await http.post(`/api/users/${id}/clio/auth/`, { code: back.searchParams.get('code'), state: back.searchParams.get('state') });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).toMatchObject({ app: 'clio', connected: true, region: 'eu' });

    const matters = await http.get(`/api/users/${id}/clio/matters?q=wayne`);
    expect(matters.body.data).toEqual([{ id: '1002', displayNumber: '00002-Wayne', description: 'Wayne Enterprises merger' }]);

    // a file in the storage, through Dropbox's import (any upload would do)
    await connectDropbox(http, id, 'dbid:clio');
    writeFileSync(path.join(dropbox.folderOf('dbid:clio'), 'merger.txt'), 'merger agreement, final');
    const imported = await http.post(`/api/users/${id}/dropbox/import`, { path: '/merger.txt', storageId });
    const made = await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: 'merger.txt', uploadId: imported.body.uploadId });
    expect(made.status).toBe(201);

    const filed = await http.post(`/api/users/${id}/clio/documents`, { matterId: '1002', storageId, itemId: made.body.id });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const doc = clio.documents.get(Number(filed.body.documentId));
    expect(doc).toMatchObject({ name: 'merger.txt', matterId: 1002, fullyUploaded: true, sha256: filed.body.sha256 });
    expect((await http.post(`/api/users/${id}/clio/documents`, { matterId: '4040', storageId, itemId: made.body.id })).body.code).toBe('CLIO_MATTER_NOT_FOUND');

    const module = t().app.modules.find((m) => m.name === 'integrations')!;
    await module.forget!(t().app.ctx, id, { actorId: null, actorKind: 'process', now: new Date() });
    const stream = await t().app.ctx.store.readStream(integrationsStreamName(id));
    const connectedEvents = stream.events.filter((e) => e.type === 'AppConnected').map((e) => e.data as { refreshToken: string });
    expect(connectedEvents.length).toBe(2);
    for (const e of connectedEvents) expect(e.refreshToken).toBe('[erased]');
    const { rows } = await t().app.ctx.pool.query('select 1 from integration_access_tokens where user_id = $1', [id]);
    expect(rows).toEqual([]);
  });
});

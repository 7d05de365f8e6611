import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
let auditor: HttpClient;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '20' } });
  const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
  const email = uniqueEmail('auditor');
  expect((await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'auditor' })).status).toBe(201);
  auditor = (await signIn(email)).http;
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

const { signedInUser, signIn, uniqueEmail, PASSWORD } = accountHelpers(() => t);
const TUS = { 'tus-resumable': '1.0.0' };

describe('bearer secrets are never shown to staff', () => {
  it("an auditor reading the activity of a share's creation and of a Secure Fetch upload sees neither the link ids nor the upload ids", async () => {
    const { http, id, storageId } = await signedInUser();
    // a Secure Fetch link, an anonymous upload through it, left unsubmitted (its id still controls it), and another submitted
    const fetch = await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Please send the contract', includeMetadata: false, certificate: false });
    expect(fetch.status, JSON.stringify(fetch.body)).toBe(201);
    const fetchLink = fetch.body.linkId as string;
    const upload = async (name: string) => {
      const data = randomBytes(2000);
      const anonymous = new HttpClient(t.url);
      const res = await anonymous.request('POST', '/api/uploads/', undefined, {
        ...TUS,
        'upload-length': String(data.length),
        'upload-metadata': `secureFetchId ${Buffer.from(fetchLink).toString('base64')},filename ${Buffer.from(name).toString('base64')}`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const location = res.headers.get('location')!;
      expect(
        (await anonymous.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }))
          .status,
      ).toBe(204);
      return { uploadId: location.split('/').pop()!, name, size: data.length, mime: 'application/pdf' };
    };
    const pending = await upload('pending.pdf');
    const sent = await upload('sent.pdf');
    const submitted = await new HttpClient(t.url).post(`/api/shares/${fetchLink}/`, { files: [sent] });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);

    // a share of the folder the files were received in
    const { rows: placed } = await t.app.ctx.pool.query<{ folder_id: string }>(
      "select data->>'folderId' as folder_id from es_events where event_type = 'SecureFetchSubmitted' and stream_name = $1",
      [`secure-fetch-${fetch.body.id}`],
    );
    const share = await http.post('/api/shares/', { title: 'Shared', downloadable: true, itemIds: [placed[0]!.folder_id] });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const { rows: created } = await t.app.ctx.pool.query<{ link_id: string }>(
      "select data->>'linkId' as link_id from es_events where event_type = 'ShareCreated' and stream_name = $1",
      [`share-${share.body.id}`],
    );
    const shareLink = created[0]!.link_id;
    expect(shareLink).toBeTruthy();

    const secrets = [shareLink, fetchLink, pending.uploadId, sent.uploadId];
    // the secrets are in the log: the views must hide them
    const { rows: stored } = await t.app.ctx.pool.query<{ text: string }>("select string_agg(data::text, ' ') as text from es_events");
    expect(secrets.filter((s) => stored[0]!.text.includes(s)).length).toBeGreaterThanOrEqual(3);

    const bodies: string[] = [];
    const read = async (path: string) => {
      const res = await auditor.request('GET', path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      bodies.push(text);
      return text;
    };
    const list = JSON.parse(await read(`/api/admin/activity?user=${id}&perPage=200`));
    const types = new Set((list as { type: string }[]).map((r) => r.type));
    for (const type of ['ShareCreated', 'SecureFetchCreated', 'QuotaReserved']) expect(types, type).toContain(type);
    await read(`/api/admin/activity?perPage=200`);
    await read(`/api/admin/activity/export?format=jsonl&user=${id}`);
    await read(`/api/admin/activity/export?format=csv&user=${id}`);
    const later = new Date(t.clock.now().getTime() + 60_000).toISOString();
    for (const stream of [`share-${share.body.id}`, `secure-fetch-${fetch.body.id}`, `storage-${storageId}`])
      await read(`/api/admin/aggregates/${stream}/state?at=${encodeURIComponent(later)}`);

    for (const secret of secrets) for (const body of bodies) expect(body.includes(secret), `a response shows ${secret.slice(0, 4)}...`).toBe(false);
    // they read as fingerprints
    expect(bodies.join('\n')).toContain('[secret ');
  }, 120_000);
});

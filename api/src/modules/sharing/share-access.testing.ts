import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, type HttpResponse, type TestApp } from '../../testing/harness';

/* Steps the share access tests share: owners with files uploaded through tus, visitors' browsers. */

export const SHARE_PASSWORD = 'open-sesame-42';
const TUS = { 'tus-resumable': '1.0.0' };

export const shareAccessHelpers = (app: () => TestApp) => {
  const { signUpConfirmed, signIn } = accountHelpers(app);
  const caughtUp = async () => expect(await app().app.ctx.runner.waitFor(await app().app.ctx.store.headPosition(), { timeoutMs: 20_000 })).toBe(true);

  /** A signed-in owner with files in their online storage, uploaded through tus. */
  const owner = async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const base = `/api/users/${id}/storages/${storageId}`;
    const folder = async (name: string, parent?: string) => {
      const res = await http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'folder', name });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const file = async (name: string, bytes: Buffer, parent?: string) => {
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
      const uploadId = location.split('/').at(-1)!;
      const made = await http.post(parent ? `${base}/folders/${parent}/items/` : `${base}/items/`, { label: 'file', name, uploadId });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.id as string;
    };
    const share = async (body: Record<string, unknown>) => {
      const res = await http.post('/api/shares/', { title: 'Holiday photos', downloadable: true, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; shareLinkId: string };
    };
    return { http, id, email, folder, file, share };
  };

  /** A visitor's browser: its own user agent, the token of its visit kept and sent back as the web app does. */
  const visitor = (userAgent = `visitor-${randomBytes(4).toString('hex')}`) => {
    const http = new HttpClient(app().url, userAgent);
    let token: string | null = null;
    const call = async (path: string, headers: Record<string, string> = {}, method = 'GET', body?: unknown): Promise<HttpResponse> => {
      const res = await http.request(method, path, body, { ...(token ? { 'x-object-access': token } : {}), ...headers });
      token = res.headers.get('x-object-access') ?? token;
      return res;
    };
    return { http, userAgent, call, token: () => token, forget: () => (token = null) };
  };

  const password = (p: string) => ({ authorization: `Password ${p}` });
  const basic = (p: string) => ({ authorization: `Basic ${Buffer.from(`:${p}`).toString('base64')}` });

  /** Bytes behind a URL (a path is on the app's origin, as a page resolves it), exactly as sent. */
  const bytesOf = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(new URL(url, app().url), { headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  return { caughtUp, owner, visitor, password, basic, bytesOf, signIn };
};

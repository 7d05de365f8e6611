import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, useTestApp } from '../testing/harness';
import { rawHttp, rawRequest } from '../testing/raw-http';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
const { signUpConfirmed, signIn, uniqueEmail, PASSWORD } = accountHelpers(t);
const staff = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

const sessionCookie = (headers: Headers) => headers.getSetCookie()[0]!.split(';')[0]!;

const expectErrorShape = (body: unknown, code?: string) => {
  expect(Object.keys(body as object).sort()).toEqual(['code', 'data', 'message']);
  expect(typeof (body as { message: unknown }).message).toBe('string');
  if (code) expect((body as { code: unknown }).code).toBe(code);
};

describe('CSRF check', () => {
  it('holds for an absolute-form request target and for an escaped /api path', async () => {
    const { email, id } = await signUpConfirmed();
    const signedIn = await signIn(email);
    const cookie = sessionCookie(signedIn.res.headers);
    const json = { 'content-type': 'application/json', cookie };
    const body = JSON.stringify({ city: 'Forged' });

    const absolute = await rawHttp(t().url, 'PUT', `${t().url}/api/users/${id}/profile`, { headers: json, body });
    expect(absolute.status).toBe(403);
    expectErrorShape(absolute.json, 'CSRF_HEADER_MISSING');
    const escaped = await rawHttp(t().url, 'PUT', `/%61pi/users/${id}/profile`, { headers: json, body });
    expect(escaped.status).toBe(403);
    expectErrorShape(escaped.json, 'CSRF_HEADER_MISSING');
    expect((await signedIn.http.get(`/api/users/${id}/profile`)).body.city).toBeNull();

    // the same request with the header goes through
    const allowed = await rawHttp(t().url, 'PUT', `${t().url}/api/users/${id}/profile`, {
      headers: { ...json, 'x-requested-with': 'XMLHttpRequest' },
      body,
    });
    expect(allowed.status).toBe(200);
  });
});

describe('error bodies at the edge', () => {
  it('answer a bad escape in path or query with { code, message, data }', async () => {
    for (const path of ['/api/users/%ff/', '/api/users/%ED%A0%80/', '/api/health?x=%ff', '/api/health?%E0%A4%A=1']) {
      const res = await new HttpClient(t().url).get(path);
      expect(res.status, path).toBe(400);
      expectErrorShape(res.body);
      expect(JSON.stringify(res.body)).not.toContain('FST_');
    }
  });

  it('answer a path parameter over 100 characters with 414 in the same shape', async () => {
    const res = await new HttpClient(t().url).get(`/api/users/${'a'.repeat(101)}/`);
    expect(res.status).toBe(414);
    expectErrorShape(res.body, 'URI_TOO_LONG');
  });

  it('answer malformed HTTP with 400 and oversized headers with 431, in the same shape', async () => {
    const malformed = await rawRequest(t().url, 'GET /api/health HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n');
    expect(malformed.status).toBe(400);
    expectErrorShape(malformed.json, 'BAD_REQUEST');
    const garbage = await rawRequest(t().url, 'HELLO\r\n\r\n');
    expect(garbage.status).toBe(400);
    expectErrorShape(garbage.json, 'BAD_REQUEST');
    const huge = await rawRequest(t().url, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.status).toBe(431);
    expectErrorShape(huge.json, 'HEADERS_TOO_LARGE');
  });

  it('show a browser a page for a link that cannot be opened, and the app JSON', async () => {
    const page = await rawHttp(t().url, 'GET', '/%E0%A4%A', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('AXEL Drive');
    expect(page.body).toContain('href="/"');
    const api = await rawHttp(t().url, 'GET', '/%E0%A4%A', { headers: { accept: 'application/json' } });
    expectErrorShape(api.json, 'BAD_REQUEST');
    const apiFromBrowser = await rawHttp(t().url, 'GET', '/api/users/%E0%A4%A/', { headers: { accept: 'text/html' } });
    expectErrorShape(apiFromBrowser.json, 'BAD_REQUEST');
  });

  it('answer a JSON body over the limit with 413, and a broken one with 400', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const big = await http.put(`/api/users/${id}/profile`, { city: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expectErrorShape(big.body, 'PAYLOAD_TOO_LARGE');
    const broken = await rawHttp(t().url, 'POST', '/api/sessions/', {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: '{"email":',
    });
    expect(broken.status).toBe(400);
    expectErrorShape(broken.json, 'BAD_REQUEST');
  });
});

describe('input no column can store', () => {
  it('refuses NUL and lone surrogates in JSON bodies, path and query with 400', async () => {
    const { email, id } = await signUpConfirmed();
    const { http, res } = await signIn(email);
    for (const city of ['Lis\u0000boa', 'Lis\ud800boa', '\udc00', 'end\ud83d']) {
      const answer = await http.put(`/api/users/${id}/profile`, { city });
      expect(answer.status, JSON.stringify(city)).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', data: { fields: { city: 'validation.invalid' } } });
    }
    // a well-formed pair is text like any other
    expect((await http.put(`/api/users/${id}/profile`, { city: 'Lisboa 🏙' })).status).toBe(200);
    const key = await http.put(`/api/users/${id}/profile`, { 'ci\u0000ty': 'x' });
    expect(key.status).toBe(400);
    const signInNul = await new HttpClient(t().url).post('/api/sessions/', { email: `a\u0000${email}`, password: PASSWORD });
    expect(signInNul.status).toBe(400);
    expect((await http.get(`/api/users/${id}%00/profile`)).status).toBe(400);
    const admin = await staff();
    for (const q of ['search=%00', 'filter=%7B%22q%22%3A%22%5Cu0000%22%7D', 'filter=%7B%22q%22%3A%22%5Cud800%22%7D']) {
      const res = await admin.get(`/api/admin/users/?${q}`);
      expect(res.status, q).toBe(400);
      expectErrorShape(res.body, 'VALIDATION_FAILED');
    }
    const deep = await rawHttp(t().url, 'PUT', `/api/users/${id}/profile`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie: sessionCookie(res.headers) },
      body: `{"city":${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}}`,
    });
    expect(deep.status).toBe(400);
    expectErrorShape(deep.json, 'VALIDATION_FAILED');
  });

  it('refuses list pages and ranges past any real offset, and numbers past the safe range', async () => {
    const admin = await staff();
    for (const q of ['range=[1e20,1e20]', 'range=[0,1e400]', 'range=[0,9007199254740993]', 'page=1e20', 'page=99999999999']) {
      const res = await admin.get(`/api/admin/users/?${q}`);
      expect(res.status, q).toBe(400);
      expectErrorShape(res.body, 'VALIDATION_FAILED');
    }
    expect((await admin.get('/api/admin/users/?range=[0,9]')).status).toBe(200);
    const { email, id } = await signUpConfirmed();
    const { http, res } = await signIn(email);
    const huge = await rawHttp(t().url, 'PUT', `/api/users/${id}/account`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie: sessionCookie(res.headers) },
      body: '{"sessionTimeout":1e400}',
    });
    expect(huge.status).toBe(400);
    expect((await http.put(`/api/users/${id}/account`, { sessionTimeout: 1e20 })).status).toBe(400);
  });

  it('answers a retry of an unknown process type with 404', async () => {
    const admin = await staff();
    for (const id of ['no-such-type:123', 'x:y']) {
      const retry = await admin.post(`/api/admin/processes/${encodeURIComponent(id)}/retry`);
      expect(retry.status, id).toBe(404);
      expectErrorShape(retry.body, 'NOT_FOUND');
      expect((await admin.get(`/api/admin/processes/${encodeURIComponent(id)}`)).status).toBe(404);
    }
  });
});

describe('passwords', () => {
  const long = `Aa1!${'x'.repeat(125)}`;
  const tooLong = { code: 'VALIDATION_FAILED' };

  it('are refused over 128 characters wherever one is accepted, and a 1 MB one never reaches the server', async () => {
    const anon = new HttpClient(t().url);
    const signUp = await anon.post('/api/users/', { email: uniqueEmail(), password: long, passwordConfirmation: long, termsAccepted: true });
    expect(signUp.status).toBe(400);
    expect(signUp.body).toMatchObject({ ...tooLong, data: { fields: { password: 'validation.tooLong' } } });
    const atCap = long.slice(0, 128);
    expect((await anon.post('/api/users/', { email: uniqueEmail(), password: atCap, passwordConfirmation: atCap, termsAccepted: true })).status).toBe(201);

    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/sessions/', { email, password: long }],
      ['POST', '/api/two-factor-resets/', { email, password: long }],
      ['POST', `/api/password-resets/${'t'.repeat(40)}`, { password: long, passwordConfirmation: long }],
      ['PUT', `/api/users/${id}/password`, { currentPassword: long, password: 'Other-pass-2', passwordConfirmation: 'Other-pass-2' }],
      ['PUT', `/api/users/${id}/password`, { currentPassword: PASSWORD, password: long, passwordConfirmation: long }],
      ['PUT', `/api/users/${id}/email`, { newEmail: 'n@example.com', newEmailConfirmation: 'n@example.com', password: long }],
      ['DELETE', `/api/users/${id}/`, { confirmation: 'YES', password: long }],
    ];
    for (const [method, path, body] of cases) {
      const res = await http.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body, `${method} ${path}`).toMatchObject(tooLong);
      expect(Object.values(res.body.data.fields), `${method} ${path}`).toContain('validation.tooLong');
    }

    const megabyte = `Aa1!${'x'.repeat(1024 * 1024)}`;
    const huge = await anon.post('/api/users/', { email: uniqueEmail(), password: megabyte, passwordConfirmation: megabyte, termsAccepted: true });
    expect(huge.status).toBe(413);
    expectErrorShape(huge.body, 'PAYLOAD_TOO_LARGE');
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
  });
});

describe('answers that depend on the session', () => {
  it('carry Cache-Control: no-store', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    for (const path of ['/api/sessions/this/', `/api/users/${id}/`, `/api/users/${id}/profile`, `/api/users/${id}/features/`, '/api/notifications']) {
      const res = await http.get(path);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await new HttpClient(t().url).get('/api/sessions/this/')).headers.get('cache-control')).toBe('no-store');
    const write = await http.put(`/api/users/${id}/profile`, { city: 'Porto' });
    expect(write.headers.get('cache-control')).toBe('no-store');
  });

  it('keep the avatar cached privately, never shared', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const up = await http.request('POST', `/api/users/${id}/avatar`, png, { 'content-type': 'image/png' });
    expect(up.status).toBe(200);
    const cache = (await http.get(up.body.avatarUrl)).headers.get('cache-control') ?? '';
    expect(cache === 'no-store' || cache.startsWith('private')).toBe(true);
  });

  it('send no HSTS over plain HTTP', async () => {
    const res = await fetch(`${t().url}/api/health`);
    expect(res.headers.get('strict-transport-security')).toBeNull();
    // without TRUST_PROXY a forwarded protocol is not believed
    const forged = await fetch(`${t().url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers.get('strict-transport-security')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../api/http';
import { decideAccess, WELCOME_PATH } from './access';
import { createAuthProvider, LeavingConsoleError, TwoFactorRequiredError } from './authProvider';

type Route = (init: RequestInit) => { status: number; body?: unknown };

/** A fake API: one handler per "METHOD path"; records every call with its headers. */
const fakeApi = (routes: Record<string, Route>) => {
  const calls: { method: string; url: string; headers: Headers; body: unknown; credentials: RequestCredentials | undefined }[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, headers: new Headers(init.headers), body, credentials: init.credentials });
    const route = routes[`${method} ${url}`];
    if (!route) return new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'No route', data: null }), { status: 404 });
    const { status, body: answer } = route(init);
    return new Response(answer === undefined ? null : JSON.stringify(answer), { status });
  };
  return { fetch, calls };
};

const user = (role: string) => ({ id: 'u1', email: 'staff@example.com', role });
const unauthorized = { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized', data: null } };

const setup = (routes: Record<string, Route>) => {
  const api = fakeApi(routes);
  const visited: string[] = [];
  const provider = createAuthProvider({ fetch: api.fetch, goTo: (url) => visited.push(url) });
  return { provider, visited, calls: api.calls };
};

describe('decideAccess', () => {
  it.each(['admin', 'super_admin', 'financial_admin', 'auditor'])('lets %s enter', (role) => {
    expect(decideAccess(role)).toBe('enter');
  });

  it.each(['user', 'Admin', 'superadmin', '', null, undefined, 42])('sends %s to /welcome', (role) => {
    expect(decideAccess(role)).toBe('welcome');
  });
});

describe('authProvider.login', () => {
  it('posts the credentials with the CSRF header and cookies, and enters as staff', async () => {
    const { provider, visited, calls } = setup({ 'POST /api/sessions/': () => ({ status: 200, body: { user: user('admin') } }) });
    await expect(provider.login({ email: 'staff@example.com', password: 'pw' })).resolves.toBeUndefined();
    expect(visited).toEqual([]);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/sessions/', body: { email: 'staff@example.com', password: 'pw' }, credentials: 'include' });
    expect(calls[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(calls[0]!.headers.get('Content-Type')).toBe('application/json');
  });

  it('asks for the two-factor code, then resubmits with it', async () => {
    const { provider, calls } = setup({
      'POST /api/sessions/': (init) =>
        JSON.parse(String(init.body)).code === '123456'
          ? { status: 200, body: { user: user('super_admin') } }
          : { status: 200, body: { twoFactorRequired: true, method: 'totp' } },
    });
    const first = provider.login({ email: 'a@b.co', password: 'pw' });
    await expect(first).rejects.toBeInstanceOf(TwoFactorRequiredError);
    await expect(first).rejects.toMatchObject({ method: 'totp' });
    await expect(provider.login({ email: 'a@b.co', password: 'pw', code: '123456' })).resolves.toBeUndefined();
    expect(calls[1]!.body).toEqual({ email: 'a@b.co', password: 'pw', code: '123456' });
  });

  it('sends a signed-in non-staff user to /welcome', async () => {
    const { provider, visited } = setup({ 'POST /api/sessions/': () => ({ status: 200, body: { user: user('user') } }) });
    await expect(provider.login({ email: 'a@b.co', password: 'pw' })).rejects.toBeInstanceOf(LeavingConsoleError);
    expect(visited).toEqual([WELCOME_PATH]);
  });

  it('rejects with the server code and message on wrong credentials', async () => {
    const { provider } = setup({
      'POST /api/sessions/': () => ({ status: 401, body: { code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password', data: null } }),
    });
    await expect(provider.login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 401,
      code: 'WRONG_CREDENTIALS',
      message: 'Wrong e-mail or password',
    });
  });
});

describe('authProvider.checkAuth', () => {
  it.each(['admin', 'super_admin', 'financial_admin'])('resolves for a %s session', async (role) => {
    const { provider, visited } = setup({ 'GET /api/sessions/this/': () => ({ status: 200, body: { user: user(role) } }) });
    await expect(provider.checkAuth({})).resolves.toBeUndefined();
    expect(visited).toEqual([]);
  });

  it('rejects without a session so react-admin shows the console login page (no /signin redirect)', async () => {
    const { provider, visited } = setup({ 'GET /api/sessions/this/': () => unauthorized });
    const rejection = await provider.checkAuth({}).catch((e: unknown) => e);
    expect(rejection).toEqual({ message: false });
    expect(rejection).not.toHaveProperty('redirectTo');
    expect(visited).toEqual([]);
  });

  it('explains a session ended by inactivity', async () => {
    const { provider } = setup({
      'GET /api/sessions/this/': () => ({ status: 401, body: { code: 'SESSION_INACTIVE', message: 'Inactive', data: null } }),
    });
    await expect(provider.checkAuth({})).rejects.toEqual({ message: 'console.auth.sessionInactive' });
  });

  it('sends a non-staff session to /welcome and keeps that session alive', async () => {
    const { provider, visited, calls } = setup({
      'GET /api/sessions/this/': () => ({ status: 200, body: { user: user('user') } }),
      'DELETE /api/sessions/this/': () => ({ status: 204 }),
    });
    await expect(provider.checkAuth({})).rejects.toEqual({ redirectTo: false, message: false });
    expect(visited).toEqual([WELCOME_PATH]);
    // react-admin logs out after a failed check: that must not end the web app session nor redirect.
    await expect(provider.logout({})).resolves.toBe(false);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});

describe('authProvider identity, permissions, errors and logout', () => {
  const me = { id: 's1', email: 'boss@example.com', role: 'super_admin', features: ['admin:user:delete'] };

  it('reads identity and permissions from /api/admin/me once', async () => {
    const { provider, calls } = setup({ 'GET /api/admin/me': () => ({ status: 200, body: me }) });
    await expect(provider.getPermissions!({})).resolves.toEqual({ role: 'super_admin', features: ['admin:user:delete'] });
    await expect(provider.getIdentity!()).resolves.toMatchObject({ id: 's1', fullName: 'boss@example.com', role: 'super_admin' });
    expect(calls.filter((c) => c.url === '/api/admin/me')).toHaveLength(1);
  });

  it('sends a user the API refuses as staff to /welcome', async () => {
    const { provider, visited } = setup({
      'GET /api/admin/me': () => ({ status: 403, body: { code: 'FORBIDDEN', message: 'Forbidden', data: null } }),
    });
    await expect(provider.getPermissions!({})).rejects.toMatchObject({ status: 403 });
    expect(visited).toEqual([WELCOME_PATH]);
  });

  it('logs out on 401 only; a 403 for a missing feature keeps the session', async () => {
    const { provider } = setup({});
    await expect(provider.checkError({ status: 401, body: { code: 'UNAUTHORIZED' } })).rejects.toBeDefined();
    await expect(provider.checkError({ status: 403, body: { code: 'FORBIDDEN' } })).resolves.toBeUndefined();
    await expect(provider.checkError({ status: 500 })).resolves.toBeUndefined();
  });

  it('logs out with DELETE /api/sessions/this/ and lets react-admin go to its login page', async () => {
    const { provider, calls } = setup({ 'DELETE /api/sessions/this/': () => ({ status: 204 }) });
    await expect(provider.logout({})).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: '/api/sessions/this/' });
    expect(calls[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { decideUnauthorizedNotice } from '../session/unauthorized';
import { createApiClient, type UnauthorizedContext } from './client';
import { ApiError, errorFromResponse } from './errors';

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client', () => {
  it('calls /api with credentials, X-Requested-With and JSON on every call', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, { ok: true }));
    const client = createApiClient({ fetch });
    await expect(client.post('/sessions/', { email: 'a@b.cd' })).resolves.toEqual({ ok: true });
    await client.get('/users/1/notifications/', { perPage: 20, startFrom: undefined });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/sessions/');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' });
    expect(init?.body).toBe('{"email":"a@b.cd"}');
    expect(fetch.mock.calls[1]![0]).toBe('/api/users/1/notifications/?perPage=20');
  });

  it('returns undefined for 204, and sends {} as the body of a state-changing call without one', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(null, { status: 204 }));
    const client = createApiClient({ fetch });
    await expect(client.delete('/sessions/this/')).resolves.toBeUndefined();
    expect(fetch.mock.calls[0]![1]?.body).toBe('{}');
    await client.get('/sessions/this/');
    expect(fetch.mock.calls[1]![1]?.body).toBeUndefined();
  });

  it('normalises server errors to {code, message, data}', async () => {
    const client = createApiClient({
      fetch: async () => json(423, { code: 'USER_LOCKED', message: 'locked', data: { lockedUntil: 'x' } }),
    });
    const error = await client.post('/sessions/', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toJSON()).toEqual({ code: 'USER_LOCKED', message: 'locked', data: { lockedUntil: 'x' } });
    expect((error as ApiError).status).toBe(423);
  });

  it('normalises bodies without a code, and 504 as connection failed', () => {
    expect(errorFromResponse(500, '<html>oops</html>').toJSON()).toEqual({ code: 'HTTP_500', message: '<html>oops</html>', data: null });
    expect(errorFromResponse(504, { code: 'X' }).code).toBe('CONNECTION_FAILED');
  });

  it('aborts after the timeout with TIMEOUT', async () => {
    const client = createApiClient({
      timeoutMs: 10,
      fetch: (_u, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    await expect(client.get('/slow')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('retries a network failure once while online, then reports NETWORK_ERROR', async () => {
    let calls = 0;
    const failing = createApiClient({
      isOnline: () => true,
      fetch: async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(failing.get('/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(calls).toBe(2);

    let second = 0;
    const flaky = createApiClient({
      isOnline: () => true,
      fetch: async () => {
        if (second++ === 0) throw new TypeError('Failed to fetch');
        return json(200, { fine: true });
      },
    });
    await expect(flaky.get('/x')).resolves.toEqual({ fine: true });
  });

  it('reports OFFLINE without retry when the browser is offline', async () => {
    let calls = 0;
    const client = createApiClient({
      isOnline: () => false,
      fetch: async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.get('/x')).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(calls).toBe(1);
  });

  it('reports session 401s with the time of the last successful operation, but not form 401s', async () => {
    let t = 1000;
    const seen: UnauthorizedContext[] = [];
    const answers = [json(200, {}), json(401, { code: 'WRONG_CREDENTIALS', message: 'w' }), json(401, { code: 'UNAUTHORIZED', message: 'u' })];
    const client = createApiClient({ now: () => t, fetch: async () => answers.shift()!, onUnauthorized: (c) => void seen.push(c) });
    await client.get('/a');
    t = 5000;
    await client.post('/sessions/', {}).catch(() => undefined);
    await client.get('/b').catch(() => undefined);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ lastOperationAt: 1000, now: 5000, path: '/b' });
    expect(seen[0]!.error.code).toBe('UNAUTHORIZED');
  });

  it('cancelAll aborts requests in flight', async () => {
    const client = createApiClient({
      fetch: (_u, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    const pending = client.get('/x');
    client.cancelAll();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('401 notice rule', () => {
  const base = { now: 100_000, lastOperationAt: 99_000, sessionTimeoutSeconds: 900, lastInactivityNoticeAt: null, hadUser: true };

  it('shows the inactivity message when the idle time exceeds the session timeout', () => {
    expect(decideUnauthorizedNotice({ ...base, code: 'UNAUTHORIZED', now: 99_000 + 901_000 })).toBe('inactivity');
  });

  it('shows the inactivity message for SESSION_INACTIVE, even before any user was known', () => {
    expect(decideUnauthorizedNotice({ ...base, code: 'SESSION_INACTIVE', hadUser: false, sessionTimeoutSeconds: null })).toBe('inactivity');
  });

  it('suppresses the inactivity message for 5 s after it was shown', () => {
    expect(decideUnauthorizedNotice({ ...base, code: 'SESSION_INACTIVE', lastInactivityNoticeAt: 96_000 })).toBe('none');
    expect(decideUnauthorizedNotice({ ...base, code: 'SESSION_INACTIVE', lastInactivityNoticeAt: 94_000 })).toBe('inactivity');
  });

  it('otherwise says Unauthorized to a signed-in user and nothing to a visitor', () => {
    expect(decideUnauthorizedNotice({ ...base, code: 'UNAUTHORIZED' })).toBe('unauthorized');
    expect(decideUnauthorizedNotice({ ...base, code: 'UNAUTHORIZED', hadUser: false })).toBe('none');
  });
});

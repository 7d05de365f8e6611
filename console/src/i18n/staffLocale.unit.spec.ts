import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../api/http';
import { createAuthProvider } from '../auth/authProvider';
import { saveLocale } from './staffLocale';

const recording = (answers: Record<string, unknown>) => {
  const calls: { method: string; url: string; body: unknown; csrf: string | null }[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const method = init.method ?? 'GET';
    calls.push({
      method,
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      csrf: new Headers(init.headers).get('X-Requested-With'),
    });
    const answer = answers[`${method} ${url}`];
    return answer === undefined
      ? new Response('{"code":"NOT_FOUND","message":"No","data":null}', { status: 404 })
      : new Response(JSON.stringify(answer), { status: 200 });
  };
  return { fetch, calls };
};

describe("the staff member's console language", () => {
  it("is saved as the account's own language, on their own account", async () => {
    const api = recording({ 'PUT /api/users/s%201/account': { id: 's 1' } });
    await saveLocale(api.fetch, 's 1', 'pt');
    expect(api.calls).toEqual([{ method: 'PUT', url: '/api/users/s%201/account', body: { locale: 'pt_br' }, csrf: 'XMLHttpRequest' }]);
  });

  it('comes back with the identity at sign-in; a language the console does not speak reads as none', async () => {
    const staff = { id: 's1', email: 'boss@example.com', role: 'auditor', features: [] };
    const dutch = createAuthProvider({ fetch: recording({ 'GET /api/admin/me': { ...staff, locale: 'nl' } }).fetch });
    await expect(dutch.getIdentity!()).resolves.toMatchObject({ id: 's1', locale: 'nl' });
    const unknown = createAuthProvider({ fetch: recording({ 'GET /api/admin/me': { ...staff, locale: 'fr' } }).fetch });
    await expect(unknown.getIdentity!()).resolves.toMatchObject({ id: 's1', locale: null });
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { basicPassword, createShareLinkClient, credentialHeaders, DOWNLOAD_URL_ATTEMPTS, withRetries } from './share-link.api';
import { createTokenStore } from './share-tokens';

const memoryStorage = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('share link client', () => {
  it('sends the password as Basic of an empty user name (UTF-8), the e-mail, and later only the token it was given', async () => {
    expect(basicPassword('pässword')).toBe(`Basic ${Buffer.from(':pässword', 'utf8').toString('base64')}`);
    const storage = memoryStorage();
    const seen: Record<string, string>[] = [];
    const client = createShareLinkClient({
      tokens: createTokenStore(storage),
      fetch: async (_url, init) => {
        seen.push({ ...(init?.headers as Record<string, string>) });
        return json(200, { data: [], totalCount: 0 }, { 'X-Object-Access': 'tok-1' });
      },
    });
    await client.entries('link-a', null, { password: 'secret-pass', email: 'r@example.com' });
    expect(seen[0]).toMatchObject({ Authorization: basicPassword('secret-pass'), 'X-Share-Email': 'r@example.com' });
    expect(seen[0]!['X-Object-Access']).toBeUndefined();
    expect(storage.m.get('axel.share-access.link-a')).toBe('tok-1');

    await client.entries('link-a', 'folder-1');
    expect(seen[1]).toMatchObject({ 'X-Object-Access': 'tok-1' });
    expect(seen[1]!.Authorization).toBeUndefined();
    // Another share has its own token.
    await client.entries('link-b', null);
    expect(seen[2]!['X-Object-Access']).toBeUndefined();
  });

  it('a refused token is forgotten, and the refusal arrives as the normalised error', async () => {
    const storage = memoryStorage();
    const tokens = createTokenStore(storage);
    tokens.set('link-a', 'old');
    const client = createShareLinkClient({ tokens, fetch: async () => json(403, { code: 5403, message: 'Wrong share password', data: null }) });
    const error = await client.entries('link-a', null).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    if (!error) throw new Error('the refusal did not arrive');
    expect(error).toBeInstanceOf(ApiError);
    expect([error.code, error.status, error.message]).toEqual(['5403', 403, 'Wrong share password']);
    expect(tokens.get('link-a')).toBeNull();
  });

  it('download-url lookups are retried up to 5 times on failures a retry can cure, never on a refusal', async () => {
    let calls = 0;
    const flaky = createShareLinkClient({
      tokens: createTokenStore(memoryStorage()),
      fetch: async () => (++calls < 3 ? json(503, { code: 'UNAVAILABLE', message: 'busy' }) : json(200, { url: '/api/share-links/x/download/e?t=1' })),
    });
    expect(await flaky.downloadUrl('x', 'e', undefined, { wait: async () => undefined })).toBe('/api/share-links/x/download/e?t=1');
    expect(calls).toBe(3);

    let attempts = 0;
    await expect(
      withRetries(
        async () => {
          attempts += 1;
          throw new ApiError('NETWORK_ERROR', 'down');
        },
        DOWNLOAD_URL_ATTEMPTS,
        async () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(attempts).toBe(5);

    attempts = 0;
    await expect(
      withRetries(
        async () => {
          attempts += 1;
          throw new ApiError('LINK_EXPIRED', 'gone', null, 410);
        },
        DOWNLOAD_URL_ATTEMPTS,
        async () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'LINK_EXPIRED' });
    expect(attempts).toBe(1);
  });

  it('the token wins over nothing, the password over the token', () => {
    expect(credentialHeaders('t', {})).toEqual({ 'X-Object-Access': 't' });
    expect(credentialHeaders('t', { password: 'p' })).toEqual({ Authorization: basicPassword('p') });
    expect(credentialHeaders(null, { email: 'e@x.io' })).toEqual({ 'X-Share-Email': 'e@x.io' });
  });
});

import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

/* A server without Dropbox or Clio credentials: every call of theirs is served, and answers 503. */
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '10' } });
const { signedInUser } = accountHelpers(t);

describe('integrations without a configured provider', () => {
  it('answers every Dropbox and Clio call 503 INTEGRATION_NOT_CONFIGURED, whatever it was sent', async () => {
    const { http, id, storageId } = await signedInUser();
    const calls: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', `/api/users/${id}/dropbox/authorize`],
      ['POST', `/api/users/${id}/dropbox/auth`, { code: 'c', state: 's' }],
      ['GET', `/api/users/${id}/dropbox/accesstoken`],
      ['POST', `/api/users/${id}/dropbox/revoke`],
      ['POST', `/api/users/${id}/dropbox/import`, { path: '/a.txt', storageId }],
      ['POST', '/api/dropboxapi/2/files/list_folder', { path: '' }],
      ['POST', '/api/dropboxapi/2/files/list_folder/continue', { cursor: 'x' }],
      ['POST', '/api/dropboxapi/2/files/get_temporary_link', { path: '/a.txt' }],
      ['POST', '/api/dropboxapi/2/files/create_folder_v2', { path: '/New' }],
      ['POST', '/api/dropboxcontent/2/files/get_preview', undefined, { 'dropbox-api-arg': '{"path":"/a.pdf"}' }],
      [
        'POST',
        '/api/dropboxcontent/2/files/upload',
        new Uint8Array([1, 2, 3]),
        { 'content-type': 'application/octet-stream', 'dropbox-api-arg': '{"path":"/b"}' },
      ],
      ['GET', `/api/users/${id}/clio/authorize?region=ca`],
      ['POST', `/api/users/${id}/clio/auth/`, { code: 'abc' }],
      ['POST', `/api/users/${id}/clio/auth/`, {}],
      ['GET', `/api/users/${id}/clio/matters`],
      ['POST', `/api/users/${id}/clio/documents`, { matterId: '1', storageId, itemId: 'x' }],
      ['POST', `/api/users/${id}/clio/certificates`, { matterId: '1', fetchId: 'x' }],
    ];
    for (const [method, path, body, headers] of calls) {
      const res = await http.request(method, path, body, headers);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(503);
      expect(res.body).toMatchObject({
        code: 'INTEGRATION_NOT_CONFIGURED',
        message: 'This integration is not configured on this server',
        data: { app: expect.any(String) },
      });
    }
    // a stranger is asked to sign in first, on the proxies too
    expect((await new HttpClient(t().url).get(`/api/users/${id}/dropbox/accesstoken`)).status).toBe(401);
    expect((await new HttpClient(t().url).post('/api/dropboxapi/2/files/list_folder', { path: '' })).status).toBe(401);
    // the manage-apps page shows what the server offers
    expect((await http.get(`/api/users/${id}/apps`)).body.data).toEqual([
      { app: 'dropbox', configured: false, allowed: false, connected: false, region: null },
      { app: 'clio', configured: false, allowed: true, connected: false, region: null },
    ]);
  });
});

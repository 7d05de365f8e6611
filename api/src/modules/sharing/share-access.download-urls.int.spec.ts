import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/* A single file's signed download URL ends with the share's access: a password set or changed, or a revocation. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});
const { owner, visitor, password, bytesOf } = shareAccessHelpers(() => t);

describe('a signed download URL of a shared file', () => {
  it('stops at once when the owner sets a password on the share, and again when they change it', async () => {
    const o = await owner();
    const content = Buffer.from('the only file of this share');
    const doc = await o.file('only.txt', content);
    const s = await o.share({ itemIds: [doc] });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link)).status).toBe(200);
    const open = (await v.call(`${link}/entries/${doc}?q=download-url`)).body.url as string;
    expect((await bytesOf(open)).body.equals(content)).toBe(true);

    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { password: SHARE_PASSWORD })).status).toBe(200);
    const afterSet = await bytesOf(open);
    expect(afterSet.status).toBe(403);
    expect(JSON.parse(afterSet.body.toString())).toMatchObject({ code: 'INVALID_URL' });

    // let in with the password: a new URL works until the password changes
    const w = visitor();
    expect((await w.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    const withPassword = (await w.call(`${link}/entries/${doc}?q=download-url`)).body.url as string;
    expect((await bytesOf(withPassword)).body.equals(content)).toBe(true);
    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { password: 'another-pass-77' })).status).toBe(200);
    const afterChange = await bytesOf(withPassword);
    expect(afterChange.status).toBe(403);
    expect(JSON.parse(afterChange.body.toString())).toMatchObject({ code: 'INVALID_URL' });
    // and the owner's own URL of the old access too
    const ownUrl = (await o.http.get(`/api/shares/${s.id}/entries/${doc}?q=download-url`)).body.url as string;
    expect((await bytesOf(ownUrl)).body.equals(content)).toBe(true);
    expect((await o.http.request('PATCH', `/api/shares/${s.id}/`, { password: null })).status).toBe(200);
    expect((await bytesOf(ownUrl)).status).toBe(403);
  });

  it('stops at once when the owner revokes the share, saying the link is blocked', async () => {
    const o = await owner();
    const content = Buffer.from('soon revoked');
    const doc = await o.file('revoked.txt', content);
    const s = await o.share({ itemIds: [doc], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;
    const v = visitor();
    expect((await v.call(link, password(SHARE_PASSWORD))).status).toBe(200);
    const url = (await v.call(`${link}/entries/${doc}?q=download-url`)).body.url as string;
    expect((await bytesOf(url)).body.equals(content)).toBe(true);
    expect((await o.http.post(`/api/shares/${s.id}/revoke`)).status).toBe(200);
    const refused = await bytesOf(url);
    expect(refused.status).toBe(410);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'LINK_BLOCKED' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../testing/harness';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logLines: lines });
});
afterAll(async () => {
  await t?.stop();
});
const { signUpConfirmed, lastMail, linkIn, PASSWORD } = accountHelpers(() => t);

describe('logs', () => {
  it('are JSON lines carrying the correlation id, and never a password, token, code or cookie', async () => {
    const { email, id } = await signUpConfirmed();
    const http = new HttpClient(t.url);
    const signIn = await http.request('POST', '/api/sessions/', { email, password: PASSWORD }, { 'x-correlation-id': 'trace-me-0001' });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!;
    await http.post('/api/password-resets/', { email });
    const resetToken = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    const totp = await http.post(`/api/users/${id}/two-factor/totp`);
    await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: '123456' });
    await http.request('POST', '/api/no-such-route', { password: PASSWORD });

    const text = lines.join('');
    const entries = lines.map((l) => JSON.parse(l) as { reqId?: string; level: number });
    expect(entries.some((e) => e.reqId === 'trace-me-0001')).toBe(true);
    for (const secret of [PASSWORD, cookie, resetToken, totp.body.secret]) expect(text).not.toContain(secret);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, useTestApp } from '../testing/harness';
import { rawHttp, rawRequest } from '../testing/raw-http';

const lines: string[] = [];
const t = useTestApp({ logLines: lines });
const { signUpConfirmed, lastMail, linkIn, uniqueEmail, PASSWORD } = accountHelpers(t);

describe('logs', () => {
  it('are JSON lines carrying the correlation id, and never a password, token, code or cookie', async () => {
    const { email, id } = await signUpConfirmed();
    const http = new HttpClient(t().url);
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

  it('never carry a one-time token: not from API routes, web links, 404s, bad encodings or unparsable requests', async () => {
    // live tokens, mailed by the product
    const { http, email, id } = await signUpConfirmed();
    await http.post('/api/password-resets/', { email });
    const resetToken = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    const unconfirmed = uniqueEmail('unconfirmed');
    await new HttpClient(t().url).post('/api/users/', { email: unconfirmed, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true });
    const confirmToken = linkIn((await lastMail(unconfirmed)).text, '/email-confirmation/');
    const newEmail = uniqueEmail('moved');
    const signedIn = new HttpClient(t().url);
    await signedIn.post('/api/sessions/', { email, password: PASSWORD });
    expect((await signedIn.put(`/api/users/${id}/email`, { newEmail, newEmailConfirmation: newEmail, password: PASSWORD })).status).toBe(202);
    const changeToken = linkIn((await lastMail(newEmail)).text, '/change-email-confirmations/');
    // and garbage of every shape: long random, short, token-shaped, badly encoded
    const garbage = [
      randomBytes(32).toString('base64url'),
      `zq${randomBytes(3).toString('hex')}`,
      `${randomUUID()}.${randomBytes(24).toString('base64url')}`,
      `Gx${randomBytes(4).toString('hex')}%ff`,
    ];
    const tokens = [resetToken, confirmToken, changeToken, ...garbage];

    const anon = new HttpClient(t().url);
    const browser = { accept: 'text/html,application/xhtml+xml' };
    const apiRoutes = ['/api/password-resets/', '/api/two-factor-resets/', '/api/change-email-confirmations/', '/api/email-confirmations/'];
    const webRoutes = ['/reset-password/', '/email-confirmation/', '/change-email-confirmations/'];
    for (const token of tokens) {
      for (const route of apiRoutes) {
        await anon.post(`${route}${token}`, { password: 'Another-pass-2', passwordConfirmation: 'Another-pass-2' });
        await anon.get(`${route}${token}`);
        await anon.get(`${route}?token=${token}`);
      }
      for (const route of webRoutes) {
        await anon.request('GET', `${route}${token}`, undefined, browser);
        await anon.request('GET', `${route}${token}?from=mail`, undefined, browser);
        await anon.post(`${route}${token}`, {});
      }
      await anon.request('GET', `/reset2fa/?token=${token}`, undefined, browser);
      await anon.request('GET', `/reset2fa?token=${token}&lang=nl`, undefined, browser);
      // off the token routes, only what looks like a token is one
      if (token.length >= 20) await anon.get(`/no-such-page/${token}`);
      await anon.get(`/api/no-such-route?code=${token}`);
      await anon.post('/api/email-confirmations/', { token });
      // absolute-form targets, a path that does not decode, bytes that are not HTTP, oversized headers
      await rawHttp(t().url, 'POST', `${t().url}/api/password-resets/${token}`, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: '{}',
      });
      await rawHttp(t().url, 'GET', `/reset-password/${token}%E0%A4%A`, { headers: browser });
      await rawRequest(t().url, `GET /reset-password/${token} HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n`);
      await rawRequest(t().url, `GET /email-confirmation/${token} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    }
    await anon.get(`/api/password-resets/${resetToken}/../${confirmToken}`);

    const text = lines.join('');
    expect(text).toContain('/api/password-resets/:token');
    for (const token of tokens) {
      for (const form of new Set([token, encodeURIComponent(token), token.replace(/%ff$/, ''), token.split('.').pop()!])) {
        expect(text, `a log line holds ${form}`).not.toContain(form);
      }
    }
  });
});

import { PASSWORD_RESET_TTL_MS } from '@axel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '20' } });
});
afterAll(async () => {
  await t?.stop();
});
const { uniqueEmail, lastMail, linkIn, signUpConfirmed, signIn, PASSWORD } = accountHelpers(() => t);

type Mail = { subject: string; text: string };
const mailbox = async (to: string): Promise<Mail[]> => (await (await fetch(`${t.url}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as Mail[];

/** Waits for the `n`-th mail with this subject to an address (counting from 1, oldest first). */
const nthMail = async (to: string, subject: string, n = 1): Promise<Mail> => {
  for (let i = 0; i < 100; i++) {
    const matching = (await mailbox(to)).filter((m) => m.subject === subject);
    if (matching.length >= n) return matching[matching.length - n]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail ${n} to ${to} about "${subject}"`);
};

const signUpIn = async (locale: string) => {
  const email = uniqueEmail(locale);
  const http = new HttpClient(t.url);
  const res = await http.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true, locale });
  expect(res.status).toBe(201);
  expect((await http.post('/api/email-confirmations/', { token: linkIn((await lastMail(email)).text, '/email-confirmation/') })).status).toBe(200);
  const { http: signedIn } = await signIn(email);
  return { email, id: res.body.id as string, http: signedIn };
};

describe('avatars', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

  it('are shown to their owner and to staff, refused to other users and strangers', async () => {
    const owner = await signUpConfirmed();
    const { http } = await signIn(owner.email);
    const uploaded = await http.request('POST', `/api/users/${owner.id}/avatar`, png, { 'content-type': 'image/png' });
    expect(uploaded.status).toBe(200);
    const url = uploaded.body.avatarUrl as string;
    expect(url.startsWith(`/api/users/${owner.id}/avatar`)).toBe(true);

    expect((await http.get(url)).status).toBe(200);
    const staff = (await signIn('root@axel.test', 'Root-pass-123')).http;
    expect((await staff.get(url)).status).toBe(200);

    const other = await signUpConfirmed();
    const stranger = (await signIn(other.email)).http;
    const refused = await stranger.get(url);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await new HttpClient(t.url).get(url)).status).toBe(401);
  });

  it('answers another user alike whether or not the account or its avatar exists', async () => {
    const noAvatar = await signUpConfirmed();
    const stranger = (await signIn((await signUpConfirmed()).email)).http;
    expect((await stranger.get(`/api/users/${noAvatar.id}/avatar`)).status).toBe(403);
    expect((await stranger.get('/api/users/01900000-0000-7000-8000-000000000000/avatar')).status).toBe(403);
    expect((await (await signIn(noAvatar.email)).http.get(`/api/users/${noAvatar.id}/avatar`)).status).toBe(404);
  });
});

describe('link checks', () => {
  const invalid = { code: 'LINK_INVALID', message: 'This link is invalid or was already used' };

  it('says up front whether a password reset link can be used, without using it', async () => {
    const { email } = await signUpConfirmed();
    expect((await new HttpClient(t.url).post('/api/password-resets/', { email })).status).toBe(202);
    const token = linkIn((await nthMail(email, 'Reset your password')).text, '/reset-password/');
    const http = new HttpClient(t.url);
    expect((await http.get(`/api/password-resets/${token}`)).status).toBe(204);
    expect((await http.get(`/api/password-resets/${token}`)).status).toBe(204);
    expect((await http.post(`/api/password-resets/${token}`, { password: 'New-secret-2', passwordConfirmation: 'New-secret-2' })).status).toBe(204);
    const used = await http.get(`/api/password-resets/${token}`);
    expect(used).toMatchObject({ status: 400, body: invalid });
  });

  it('says up front whether a two-factor reset link can be used, without using it', async () => {
    const { email, id, http } = await signUpIn('en_us');
    expect((await http.post(`/api/users/${id}/two-factor/email-code`)).status).toBe(202);
    const code = (await nthMail(email, 'Your verification code')).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'email', code })).status).toBe(200);
    expect((await new HttpClient(t.url).post('/api/two-factor-resets/', { email, password: PASSWORD })).status).toBe(202);
    const token = linkIn((await nthMail(email, 'Reset two-factor authentication')).text, '/reset2fa/\\?token=');
    const anyone = new HttpClient(t.url);
    expect((await anyone.get(`/api/two-factor-resets/${encodeURIComponent(token)}`)).status).toBe(204);
    expect((await anyone.post(`/api/two-factor-resets/${encodeURIComponent(token)}`)).status).toBe(204);
    expect(await anyone.get(`/api/two-factor-resets/${encodeURIComponent(token)}`)).toMatchObject({ status: 400, body: invalid });
    // the account's address hears that two-factor authentication is off
    expect((await nthMail(email, 'Two-factor authentication was turned off')).text).toContain('AXEL Drive');
  });

  it('answers a garbage token on every token route with the invalid-link error, never a validation error', async () => {
    const anyone = new HttpClient(t.url);
    for (const garbage of ['x', 'not-a-token', 'a'.repeat(80), '0190.', '.abcdefghijklmnopqrstuvwxyz', 'abc.def%20ghi']) {
      for (const res of [
        await anyone.get(`/api/password-resets/${garbage}`),
        await anyone.get(`/api/two-factor-resets/${garbage}`),
        await anyone.post(`/api/two-factor-resets/${garbage}`),
        await anyone.post(`/api/password-resets/${garbage}`, { password: 'New-secret-2', passwordConfirmation: 'New-secret-2' }),
        await anyone.post(`/api/change-email-confirmations/${garbage}`),
        await anyone.post('/api/email-confirmations/', { token: garbage }),
      ]) {
        expect({ garbage, status: res.status, body: res.body }).toMatchObject({ garbage, status: 400, body: invalid });
      }
    }
    expect(await anyone.post('/api/email-confirmations/', { token: '' })).toMatchObject({ status: 400, body: invalid });
  });
});

describe('security mail', () => {
  it("tells the account's address of a password change, in the account's language", async () => {
    const { email, id, http } = await signUpIn('nl');
    const res = await http.put(`/api/users/${id}/password`, {
      currentPassword: PASSWORD,
      password: 'Ander-wachtwoord-3',
      passwordConfirmation: 'Ander-wachtwoord-3',
    });
    expect(res.status).toBe(204);
    const mail = await nthMail(email, 'Het wachtwoord van je AXEL Drive-account is gewijzigd');
    expect(mail.text).toContain('je andere sessies zijn afgemeld');
  });

  it('tells the old address of a confirmed e-mail change, and not before it is confirmed', async () => {
    const { email, id, http } = await signUpIn('es_mx');
    const newEmail = uniqueEmail('moved');
    expect((await http.put(`/api/users/${id}/email`, { newEmail, newEmailConfirmation: newEmail, password: PASSWORD })).status).toBe(202);
    const token = linkIn((await lastMail(newEmail)).text, '/change-email-confirmations/');
    const subject = 'Se cambió el correo de tu cuenta de AXEL Drive';
    expect((await mailbox(email)).map((m) => m.subject)).not.toContain(subject);
    expect((await http.post(`/api/change-email-confirmations/${token}`)).status).toBe(200);
    const mail = await nthMail(email, subject);
    expect(mail.text).toContain(newEmail);
    expect((await mailbox(newEmail)).map((m) => m.subject)).not.toContain(subject);
  });

  it('tells the address when two-factor authentication is turned off in settings, and a password reset', async () => {
    const { email, id, http } = await signUpIn('pt_br');
    expect((await http.post(`/api/users/${id}/two-factor/email-code`)).status).toBe(202);
    const enable = (await nthMail(email, 'Seu código de verificação')).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'email', code: enable })).status).toBe(200);
    expect((await http.post(`/api/users/${id}/two-factor/email-code`)).status).toBe(202);
    const disable = (await nthMail(email, 'Seu código de verificação', 2)).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/disable`, { code: disable })).status).toBe(200);
    expect((await nthMail(email, 'A autenticação de dois fatores foi desativada')).text).toContain('AXEL Drive');

    expect((await new HttpClient(t.url).post('/api/password-resets/', { email })).status).toBe(202);
    const reset = linkIn((await nthMail(email, 'Redefina sua senha')).text, '/reset-password/');
    expect(
      (await new HttpClient(t.url).post(`/api/password-resets/${reset}`, { password: 'Nova-senha-44', passwordConfirmation: 'Nova-senha-44' })).status,
    ).toBe(204);
    expect((await nthMail(email, 'A senha da sua conta AXEL Drive foi alterada')).text).toContain('AXEL Drive');
  });
});

describe('link checks, after the link expired', () => {
  // last in this file: it moves the server's clock forward
  it('answers LINK_EXPIRED, the code the reset itself gives', async () => {
    const { email } = await signUpConfirmed();
    expect((await new HttpClient(t.url).post('/api/password-resets/', { email })).status).toBe(202);
    const token = linkIn((await nthMail(email, 'Reset your password')).text, '/reset-password/');
    t.clock.advance(PASSWORD_RESET_TTL_MS + 1000);
    const http = new HttpClient(t.url);
    const check = await http.get(`/api/password-resets/${token}`);
    expect(check).toMatchObject({ status: 400, body: { code: 'LINK_EXPIRED' } });
    const use = await http.post(`/api/password-resets/${token}`, { password: 'New-secret-2', passwordConfirmation: 'New-secret-2' });
    expect(use.body.code).toBe(check.body.code);
  });
});

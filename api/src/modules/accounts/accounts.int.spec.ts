import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  // this file signs up dozens of accounts from one address within a minute
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
});
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, lastMail, mailCount, linkIn, signUpConfirmed, signIn, PASSWORD } = accountHelpers(() => t);

describe('sign-up and confirmation', () => {
  it('registers, refuses sign-in until the e-mail is confirmed, then signs in', async () => {
    const email = uniqueEmail();
    const http = new HttpClient(t.url);
    const res = await http.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true, locale: 'pt_br' });
    expect(res.status).toBe(201);
    const mail = await lastMail(email);
    expect(mail.subject).toBe('Confirme seu e-mail');

    const early = await signIn(email);
    expect(early.res.status).toBe(403);
    expect(early.res.body.code).toBe('EMAIL_NOT_VERIFIED');

    const token = linkIn(mail.text, '/email-confirmation/');
    const confirmed = await http.post('/api/email-confirmations/', { token });
    expect(confirmed.body).toEqual({ email });
    const again = await http.post('/api/email-confirmations/', { token });
    expect(again.status).toBe(400);

    const { http: session, res: ok } = await signIn(email);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email, status: 'active', locale: 'pt_br', emailVerified: true });
    const me = await session.get('/api/sessions/this/');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
  });

  it('validates every sign-up field with the spec messages', async () => {
    const http = new HttpClient(t.url);
    const res = await http.post('/api/users/', { email: 'nope', password: 'short', passwordConfirmation: 'x', termsAccepted: false });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.data.fields).toMatchObject({
      email: 'validation.email',
      password: 'validation.passwordLength',
      termsAccepted: 'validation.terms',
    });
    const spaces = await http.post('/api/users/', { email: uniqueEmail(), password: 'abc 1234!', passwordConfirmation: 'abc 1234!', termsAccepted: true });
    expect(spaces.body.data.fields.password).toBe('validation.passwordSpaces');
    const mismatch = await http.post('/api/users/', { email: uniqueEmail(), password: PASSWORD, passwordConfirmation: 'Other-pass-1', termsAccepted: true });
    expect(mismatch.body.data.fields.passwordConfirmation).toBe('validation.passwordConfirmation');
  });

  it('refuses a second account with the same e-mail, in any letter case', async () => {
    const { email } = await signUpConfirmed();
    const http = new HttpClient(t.url);
    const res = await http.post('/api/users/', { email: email.toUpperCase(), password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'EMAIL_EXISTS', message: 'An account with this e-mail already exists' });
  });

  it('rejects a tampered confirmation link', async () => {
    const res = await new HttpClient(t.url).post('/api/email-confirmations/', { token: 'someone.not-a-real-token-value' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('LINK_INVALID');
  });
});

describe('sign-in errors', () => {
  it('answers wrong credentials the same for an unknown e-mail and a wrong password', async () => {
    const { email } = await signUpConfirmed();
    const unknown = await signIn(uniqueEmail('ghost'));
    const wrong = await signIn(email, 'Wrong-pass-1');
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.body.code).toBe('WRONG_CREDENTIALS');
    expect(wrong.res.body.code).toBe('WRONG_CREDENTIALS');
  });

  it('locks the account after 5 failed attempts, even for the right password, until the lock ends', async () => {
    const { email } = await signUpConfirmed();
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'Wrong-pass-1')).res.body.code).toBe('WRONG_CREDENTIALS');
    const fifth = await signIn(email, 'Wrong-pass-1');
    expect(fifth.res.status).toBe(423);
    expect(fifth.res.body.code).toBe('USER_LOCKED');
    expect(fifth.res.body.message).toMatch(/^User locked until \d{4}-/);
    expect(Date.parse(fifth.res.body.data.lockedUntil)).toBeGreaterThan(t.clock.now().getTime());
    expect((await signIn(email)).res.body.code).toBe('USER_LOCKED');
    t.clock.advance(16 * 60_000);
    expect((await signIn(email)).res.status).toBe(200);
  });

  it('requires the CSRF header on writes', async () => {
    const res = await new HttpClient(t.url).request('POST', '/api/sessions/', { email: 'a@b.co', password: 'x' }, { 'x-requested-with': '' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CSRF_HEADER_MISSING');
  });

  it('ends a session after the inactivity timeout with the inactivity message', async () => {
    const { email } = await signUpConfirmed();
    const { http, res } = await signIn(email);
    expect(res.status).toBe(200);
    const put = await http.put(`/api/users/${res.body.user.id}/account`, { sessionTimeout: 900 });
    expect(put.body.sessionTimeout).toBe(900);
    t.clock.advance(14 * 60_000);
    expect((await http.get('/api/sessions/this/')).status).toBe(200);
    t.clock.advance(16 * 60_000);
    const expired = await http.get('/api/sessions/this/');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('SESSION_INACTIVE');
    const after = await http.get('/api/sessions/this/');
    expect(after.body.code).toBe('UNAUTHORIZED');
  });

  it('signs out', async () => {
    const { email } = await signUpConfirmed();
    const { http } = await signIn(email);
    expect((await http.delete('/api/sessions/this/')).status).toBe(204);
    expect((await http.get('/api/sessions/this/')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('mails a single-use link that sets a new password and signs out other sessions', async () => {
    const { email } = await signUpConfirmed();
    const { http: other } = await signIn(email);
    const anon = new HttpClient(t.url);
    expect((await anon.post('/api/password-resets/', { email })).status).toBe(202);
    expect((await anon.post('/api/password-resets/', { email: uniqueEmail('nobody') })).status).toBe(202);
    const token = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    const NEW = 'Brand-new-pass-2';
    expect((await anon.post(`/api/password-resets/${token}`, { password: NEW, passwordConfirmation: NEW })).status).toBe(204);
    expect((await anon.post(`/api/password-resets/${token}`, { password: NEW, passwordConfirmation: NEW })).body.code).toBe('LINK_INVALID');
    expect((await other.get('/api/sessions/this/')).status).toBe(401);
    expect((await signIn(email)).res.status).toBe(401);
    expect((await signIn(email, NEW)).res.status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const { email } = await signUpConfirmed();
    await new HttpClient(t.url).post('/api/password-resets/', { email });
    const token = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    t.clock.advance(61 * 60_000);
    const res = await new HttpClient(t.url).post(`/api/password-resets/${token}`, { password: 'Brand-new-pass-2', passwordConfirmation: 'Brand-new-pass-2' });
    expect(res.body.code).toBe('LINK_EXPIRED');
  });
});

describe('settings', () => {
  it('updates the profile, validating phone and website', async () => {
    const { email } = await signUpConfirmed();
    const { http, res } = await signIn(email);
    const id = res.body.user.id;
    const bad = await http.put(`/api/users/${id}/profile`, { phone: 'call me', website: 'not a site' });
    expect(bad.body.data.fields).toEqual({ phone: 'validation.phone', website: 'validation.website' });
    const ok = await http.put(`/api/users/${id}/profile`, { firstName: 'Ana', phone: '+55 11 98765-4321', website: 'https://ana.dev' });
    expect(ok.body).toMatchObject({ firstName: 'Ana', phone: '+55 11 98765-4321', website: 'https://ana.dev', lastName: null });
    expect((await http.get(`/api/users/${id}/profile`)).body.firstName).toBe('Ana');
  });

  it('refuses to act on another user', async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    const { http } = await signIn(a.email);
    const res = await http.get(`/api/users/${b.id}/profile`);
    expect(res.status).toBe(403);
  });

  it('changes username (unique, lowercase letters, digits, dots) and language', async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    const { http: ha } = await signIn(a.email);
    const { http: hb } = await signIn(b.email);
    const name = `ana.${Date.now().toString(36)}`;
    expect((await ha.put(`/api/users/${a.id}/account`, { username: 'Ana!' })).body.data.fields.username).toBe('validation.username');
    expect((await ha.put(`/api/users/${a.id}/account`, { username: name, locale: 'nl' })).body).toMatchObject({ username: name, locale: 'nl' });
    expect((await hb.put(`/api/users/${b.id}/account`, { username: name })).body.code).toBe('USERNAME_TAKEN');
  });

  it('changes the password only with the current one, and not to the same', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    expect(
      (await http.put(`/api/users/${id}/password`, { currentPassword: 'Wrong-pass-1', password: 'Other-pass-9', passwordConfirmation: 'Other-pass-9' })).body
        .code,
    ).toBe('WRONG_PASSWORD');
    expect(
      (await http.put(`/api/users/${id}/password`, { currentPassword: PASSWORD, password: PASSWORD, passwordConfirmation: PASSWORD })).body.data.fields
        .password,
    ).toBe('validation.passwordSameAsCurrent');
    expect(
      (await http.put(`/api/users/${id}/password`, { currentPassword: PASSWORD, password: 'Other-pass-9', passwordConfirmation: 'Other-pass-9' })).status,
    ).toBe(204);
    expect((await signIn(email, 'Other-pass-9')).res.status).toBe(200);
  });

  it('changes the e-mail after confirmation at the new address', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const newEmail = uniqueEmail('moved');
    expect((await http.put(`/api/users/${id}/email`, { newEmail, newEmailConfirmation: newEmail, password: 'nope' })).body.code).toBe('WRONG_PASSWORD');
    expect((await http.put(`/api/users/${id}/email`, { newEmail: email, newEmailConfirmation: email, password: PASSWORD })).body.code).toBe(
      'EMAIL_SAME_AS_CURRENT',
    );
    expect((await http.put(`/api/users/${id}/email`, { newEmail, newEmailConfirmation: newEmail, password: PASSWORD })).status).toBe(202);
    const token = linkIn((await lastMail(newEmail)).text, '/change-email-confirmations/');
    expect((await http.post(`/api/change-email-confirmations/${token}`)).body).toEqual({ email: newEmail });
    expect((await http.get(`/api/users/${id}/`)).body.email).toBe(newEmail);
    expect((await signIn(email)).res.body.code).toBe('WRONG_CREDENTIALS');
    expect((await signIn(newEmail)).res.status).toBe(200);
  });

  it('accepts an avatar image up to 3 MB and refuses other files', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const ok = await http.request('POST', `/api/users/${id}/avatar`, png, { 'content-type': 'image/png' });
    expect(ok.status).toBe(200);
    expect((await http.get(ok.body.avatarUrl)).status).toBe(200);
    const fake = await http.request('POST', `/api/users/${id}/avatar`, new Uint8Array([1, 2, 3]), { 'content-type': 'image/png' });
    expect(fake.body.code).toBe('AVATAR_INVALID');
    const big = new Uint8Array(3 * 1024 * 1024 + 10);
    big.set(png);
    const tooBig = await http.request('POST', `/api/users/${id}/avatar`, big, { 'content-type': 'image/png' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('AVATAR_TOO_LARGE');
  });
});

describe('two-factor authentication', () => {
  it('enrols an authenticator app and then asks for its code at sign-in', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const setup = await http.post(`/api/users/${id}/two-factor/totp`);
    expect(setup.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const wrong = await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: '000000' });
    expect(wrong.body.code).toBe('TWO_FACTOR_INCORRECT');
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    const on = await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code });
    expect(on.body.twoFactor).toEqual({ enabled: true, method: 'totp' });

    const first = await signIn(email);
    expect(first.res.body).toEqual({ twoFactorRequired: true, method: 'totp' });
    expect(first.http.hasSession()).toBe(false);
    expect((await signIn(email, PASSWORD, '123456')).res.body.code).toBe('TWO_FACTOR_INCORRECT');
    // the code that turned two-factor on was used up; the next one comes with the next time step
    t.clock.advance(30_000);
    const good = await generate({ secret: setup.body.secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    const done = await signIn(email, PASSWORD, good);
    expect(done.res.status).toBe(200);
    expect(done.http.hasSession()).toBe(true);
  });

  it('mails a sign-in code for the e-mail method, which expires after 10 minutes', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    expect((await http.post(`/api/users/${id}/two-factor/email-code`)).status).toBe(202);
    const enableCode = (await lastMail(email, 'Your verification code')).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'email', code: enableCode })).body.twoFactor.method).toBe('email');

    const before = await mailCount(email);
    expect((await signIn(email)).res.body).toEqual({ twoFactorRequired: true, method: 'email' });
    for (let i = 0; i < 100 && (await mailCount(email)) === before; i++) await new Promise((r) => setTimeout(r, 50));
    const code = (await lastMail(email)).text.match(/\b(\d{6})\b/)![1]!;
    t.clock.advance(11 * 60_000);
    expect((await signIn(email, PASSWORD, code)).res.body.code).toBe('TWO_FACTOR_INCORRECT');
  });
});

describe('account deletion', () => {
  it('needs YES and the password, then signs out and refuses sign-in', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'yes', password: PASSWORD })).body.code).toBe('CONFIRMATION_REQUIRED');
    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: 'nope' })).body.code).toBe('WRONG_PASSWORD');
    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);
    expect((await http.get('/api/sessions/this/')).status).toBe(401);
    expect((await signIn(email)).res.body.code).toBe('WRONG_CREDENTIALS');
  });
});

describe('staff', () => {
  const staff = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

  it('refuses every admin route to non-staff with 403 and to strangers with 401', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const anon = new HttpClient(t.url);
    const routes = (t.app.server as unknown as { routeList: { method: string; url: string }[] }).routeList.filter(
      (r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const { method, url } of routes) {
      const path = url.replace(':id', encodeURIComponent(url.includes('processes') ? `account-deletion:${id}` : id));
      const body =
        method === 'GET'
          ? undefined
          : url === '/api/admin/users/'
            ? { email: uniqueEmail(), password: PASSWORD, passwordConfirmation: PASSWORD, role: 'admin' }
            : {};
      expect((await http.request(method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await anon.request(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('refuses sign-in to a blocked user until unblocked', async () => {
    const admin = await staff();
    const { email, id } = await signUpConfirmed();
    expect((await admin.post(`/api/admin/users/${id}/block`)).body.blocked).toBe(true);
    const refused = await signIn(email);
    expect(refused.res.status).toBe(403);
    expect(refused.res.body.code).toBe('USER_BLOCKED');
    expect((await admin.post(`/api/admin/users/${id}/unblock`)).body.blocked).toBe(false);
    expect((await signIn(email)).res.status).toBe(200);
  });

  it('lists, searches and pages users with Content-Range', async () => {
    const admin = await staff();
    const marker = `zeta${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await signUpConfirmed(`${marker}.${i}@example.com`);
    const found = await admin.get(`/api/admin/users/?search=${marker}&perPage=2&sort=email`);
    expect(found.status).toBe(200);
    expect(found.body.map((u: { email: string }) => u.email)).toEqual([`${marker}.0@example.com`, `${marker}.1@example.com`]);
    expect(found.headers.get('content-range')).toBe('users 0-1/3');
    const ra = await admin.get(`/api/admin/users/?range=[2,3]&sort=["email","ASC"]&filter={"q":"${marker}"}`);
    expect(ra.body.map((u: { email: string }) => u.email)).toEqual([`${marker}.2@example.com`]);
    expect((await admin.get('/api/admin/users/?search=no-such-user-anywhere')).body).toEqual([]);
  });

  it('suspends a user: their open session ends and sign-in says suspended; actions are in the activity log', async () => {
    const admin = await staff();
    const { email, id } = await signUpConfirmed();
    const { http: victim } = await signIn(email);
    const suspended = await admin.post(`/api/admin/users/${id}/suspend`);
    expect(suspended.body.status).toBe('suspended');
    expect((await victim.get('/api/sessions/this/')).status).toBe(401);
    const again = await signIn(email);
    expect(again.res.status).toBe(403);
    expect(again.res.body).toMatchObject({ code: 'USER_SUSPENDED', message: 'Your account has been suspended by the administrator' });
    expect((await admin.post(`/api/admin/users/${id}/unsuspend`)).body.status).toBe('active');
    expect((await signIn(email)).res.status).toBe(200);

    const log = await admin.get(`/api/admin/users/${id}/activity?perPage=50`);
    const events = log.body.map((e: { event: string }) => e.event);
    expect(events).toEqual(expect.arrayContaining(['UserRegistered', 'EmailConfirmed', 'SignInSucceeded', 'UserSuspended', 'UserUnsuspended']));
    const suspension = log.body.find((e: { event: string }) => e.event === 'UserSuspended');
    expect(suspension).toMatchObject({ actorKind: 'staff', client: 'web', userAgent: 'axel-test' });
    expect(JSON.stringify(log.body)).not.toMatch(/argon2/);
  });

  it("a suspension's optional reason is carried in its event and read in the user's activity; none is null", async () => {
    const admin = await staff();
    const { id } = await signUpConfirmed();
    expect((await admin.post(`/api/admin/users/${id}/suspend`, { reason: '  Chargeback under review  ' })).body.status).toBe('suspended');
    expect((await admin.post(`/api/admin/users/${id}/unsuspend`)).status).toBe(200);
    expect((await admin.post(`/api/admin/users/${id}/suspend`, {})).body.status).toBe('suspended');
    expect((await admin.post(`/api/admin/users/${id}/unsuspend`)).status).toBe(200);
    expect((await admin.post(`/api/admin/users/${id}/suspend`, { reason: 'x'.repeat(501) })).status).toBe(400);
    const log = await admin.get(`/api/admin/users/${id}/activity?perPage=50&sort=${encodeURIComponent('["timestamp","ASC"]')}`);
    const reasons = log.body.filter((e: { event: string }) => e.event === 'UserSuspended').map((e: { data: { reason: unknown } }) => e.data.reason);
    expect(reasons).toEqual(['Chargeback under review', null]);
  });

  it("one user's admin view: the plan, its payment frequency and the storages as billing and storage know them; a deleted account reads deleted, with its deleter by e-mail", async () => {
    const admin = await staff();
    const rootEmail = (await admin.get('/api/admin/me')).body.email;
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    expect((await http.get(`/api/users/${id}/storages/`)).status).toBe(200);
    expect((await admin.get(`/api/admin/users/${id}`)).body).toMatchObject({ plan: 'Basic', paymentFrequency: null, statusId: 'active', deleterEmail: null });
    expect((await admin.get(`/api/admin/users/${id}`)).body).toMatchObject({
      registrationApp: 'web',
      registrationUserAgent: 'axel-test',
      createdByStaff: false,
    });
    expect((await admin.post(`/api/admin/users/${id}/plan`, { productId: 101 })).status).toBe(200);
    const view = (await admin.get(`/api/admin/users/${id}`)).body;
    expect(view).toMatchObject({ plan: 'Starter', paymentFrequency: 'year' });
    // the online storage's quota as the plan gives it, as the web app shows it at the next use
    expect(view.storages).toEqual([expect.objectContaining({ type: 'online', sizeUsed: 0, sizeTotal: 100_000_000_000 })]);
    expect((await admin.delete(`/api/admin/users/${id}`)).status).toBe(204);
    const deleted = (await admin.get(`/api/admin/users/${id}`)).body;
    expect(deleted).toMatchObject({ status: 'active', statusId: 'deleted', deletedBy: 'staff', deleterEmail: rootEmail });
    const listed = (await admin.get(`/api/admin/deleted-users/?search=${encodeURIComponent(email)}`)).body;
    expect(listed).toMatchObject([{ id, statusId: 'deleted', deleterEmail: rootEmail }]);
  });

  it('creates a confirmed user, mails a reset link, deletes and lists the deleted', async () => {
    const admin = await staff();
    const email = uniqueEmail('created');
    const created = await admin.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'user' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, emailVerified: true, status: 'active' });
    // registered from the console by staff: not the staff member's browser or app as the user's own
    expect(created.body).toMatchObject({ registrationApp: 'console', registrationUserAgent: null, createdByStaff: true });
    expect((await signIn(email)).res.status).toBe(200);
    expect((await admin.post(`/api/admin/users/${created.body.id}/password-reset`)).status).toBe(202);
    expect((await lastMail(email, 'Reset your password')).subject).toBe('Reset your password');
    expect((await admin.delete(`/api/admin/users/${created.body.id}`)).status).toBe(204);
    const deleted = await admin.get('/api/admin/deleted-users/');
    expect(deleted.body[0]).toMatchObject({ id: created.body.id });
    expect(deleted.body[0].deletedAt).toBeTruthy();
    expect((await admin.get(`/api/admin/users/?search=${encodeURIComponent(email)}`)).body).toEqual([]);
  });
});

describe('avatar upload limits', () => {
  it('answers a body far over the limit, or of another type, in the product error shape', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const huge = new Uint8Array(7 * 1024 * 1024);
    const tooBig = await http.request('POST', `/api/users/${id}/avatar`, huge, { 'content-type': 'image/png' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('AVATAR_TOO_LARGE');
    const pdf = await http.request('POST', `/api/users/${id}/avatar`, new Uint8Array([37, 80, 68, 70]), { 'content-type': 'application/pdf' });
    expect(pdf.status).toBe(400);
    expect(pdf.body.code).toBe('AVATAR_INVALID');
  });
});

describe('recovery flows', () => {
  it('turns two-factor off through the mailed /reset2fa link, only with the right password', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const setup = await http.post(`/api/users/${id}/two-factor/totp`);
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code })).body.twoFactor.enabled).toBe(true);

    const anon = new HttpClient(t.url);
    expect((await anon.post('/api/two-factor-resets/', { email, password: 'Wrong-pass-1' })).status).toBe(202);
    expect((await anon.post('/api/two-factor-resets/', { email, password: PASSWORD })).status).toBe(202);
    const mail = await lastMail(email, 'Reset two-factor authentication');
    const token = linkIn(mail.text, '/reset2fa/\\?token=');
    expect((await anon.post(`/api/two-factor-resets/${encodeURIComponent(token)}`)).status).toBe(204);
    expect((await anon.post(`/api/two-factor-resets/${encodeURIComponent(token)}`)).body.code).toBe('LINK_INVALID');
    const plain = await signIn(email);
    expect(plain.res.status).toBe(200);
    expect(plain.res.body.user.twoFactor).toEqual({ enabled: false, method: null });
  });

  it('resends the confirmation mail with a fresh link that works', async () => {
    const email = uniqueEmail('resend');
    const http = new HttpClient(t.url);
    await http.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true });
    await lastMail(email, 'Confirm your e-mail address');
    expect((await http.post('/api/email-confirmations/resend', { email })).status).toBe(202);
    for (let i = 0; i < 100 && (await mailCount(email)) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    const token = linkIn((await lastMail(email, 'Confirm your e-mail address')).text, '/email-confirmation/');
    expect((await http.post('/api/email-confirmations/', { token })).status).toBe(200);
    expect((await signIn(email)).res.status).toBe(200);
  });

  it('turns e-mail two-factor off with a mailed code', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    await http.post(`/api/users/${id}/two-factor/email-code`);
    const on = (await lastMail(email, 'Your verification code')).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'email', code: on })).body.twoFactor.enabled).toBe(true);
    const before = await mailCount(email);
    await http.post(`/api/users/${id}/two-factor/email-code`);
    for (let i = 0; i < 100 && (await mailCount(email)) === before; i++) await new Promise((r) => setTimeout(r, 50));
    const off = (await lastMail(email, 'Your verification code')).text.match(/\b(\d{6})\b/)![1]!;
    expect((await http.post(`/api/users/${id}/two-factor/disable`, { code: '000000' })).body.code).toBe('TWO_FACTOR_INCORRECT');
    expect((await http.post(`/api/users/${id}/two-factor/disable`, { code: off })).body.twoFactor.enabled).toBe(false);
  });
});

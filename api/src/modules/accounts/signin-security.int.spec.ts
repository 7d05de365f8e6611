import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type HttpResponse, type TestApp } from '../../testing/harness';
import { passwordWork } from './passwords';

let t: TestApp;
beforeAll(async () => {
  // clients are told apart by X-Forwarded-For, as behind a reverse proxy
  t = await startTestApp({ env: { TRUST_PROXY: 'true', ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } });
});
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, lastMail, mailCount, linkIn, signUpConfirmed, PASSWORD } = accountHelpers(() => t);

let ipSeq = 0;
/** A client address no other test uses. */
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

/** A browser at one client address. */
const browser = (ip = freshIp()) => {
  const http = new HttpClient(t.url);
  const post = (path: string, body: unknown) => http.request('POST', path, body, { 'x-forwarded-for': ip });
  return {
    http,
    ip,
    post,
    signIn: (email: string, password = PASSWORD, code?: string) => post('/api/sessions/', { email, password, ...(code ? { code } : {}) }),
  };
};

/** What staff see of an account's lock, once the read models have caught up with everything written so far. */
const staffSeesLockedUntil = async (userId: string) => {
  const staff = browser();
  const signedIn = await staff.signIn('root@axel.test', 'Root-pass-123');
  expect(signedIn.status).toBe(200);
  // the staff sign-in was written after everything before it, so its position covers them
  const position = signedIn.headers.get('x-event-position')!;
  const res = await staff.http.request('GET', `/api/admin/users/${userId}`, undefined, { 'x-min-position': position });
  expect(res.status).toBe(200);
  return res.body.lockedUntil as string | null;
};

const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });

const expectRateLimited = (res: HttpResponse) => {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many attempts, try again later' });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
};

describe('rate limits', () => {
  it('caps one client address across many addresses', async () => {
    const attacker = browser();
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await attacker.post('/api/password-resets/', { email: uniqueEmail('spray') }));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
    expectRateLimited(await attacker.post('/api/password-resets/', { email: uniqueEmail('spray') }));
    // another client address is not held back
    expect((await browser().post('/api/password-resets/', { email: uniqueEmail('spray') })).status).toBe(202);
  });

  it('caps sign-in attempts from one client address across many addresses', async () => {
    const attacker = browser();
    const answers = [];
    // in small batches, so the password-check queue never fills
    for (let i = 0; i < 3; i++) {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => attacker.signIn(uniqueEmail('spray'), 'Wrong-pass-1')))));
    }
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([401]));
    expectRateLimited(await attacker.signIn(uniqueEmail('spray'), 'Wrong-pass-1'));
  });

  it('caps one account across many client addresses', async () => {
    const { email } = await signUpConfirmed();
    for (let i = 0; i < 3; i++) expect((await browser().post('/api/password-resets/', { email })).status).toBe(202);
    expectRateLimited(await browser().post('/api/password-resets/', { email: email.toUpperCase() }));

    const answers = [];
    for (let i = 0; i < 20; i++) answers.push((await browser().signIn(email, 'Wrong-pass-1')).status);
    expect(answers.every((s) => s === 401 || s === 423)).toBe(true);
    expectRateLimited(await browser().signIn(email, 'Wrong-pass-1'));
  });

  it('lets a browser that signed in before past the account cap that strangers used up', async () => {
    const { email } = await signUpConfirmed();
    const owner = browser();
    expect((await owner.signIn(email)).status).toBe(200);
    for (let i = 0; i < 21; i++) await browser().signIn(email, 'Wrong-pass-1');
    expectRateLimited(await browser().signIn(email));
    expect((await owner.signIn(email)).status).toBe(200);
  });

  it('keeps a real sign-in quick while a flood of unknown-address sign-ins queues for password checks', async () => {
    const { email } = await signUpConfirmed();
    const owner = browser();
    expect((await owner.signIn(email)).status).toBe(200);

    const order: string[] = [];
    let firstAnswer!: () => void;
    const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
    const flood = Array.from({ length: 48 }, () =>
      browser()
        .signIn(uniqueEmail('flood'), 'Wrong-pass-1')
        .then((res) => {
          order.push(String(res.status));
          firstAnswer();
          return res;
        }),
    );
    // the flood is in full swing: password checks are running and more wait behind them
    await answered;
    await new Promise((r) => setTimeout(r, 200));
    const pendingAtStart = flood.length - order.length;
    order.push('owner-start');
    const real = await owner.signIn(email);
    order.push('owner-done');
    const answers = await Promise.all(flood);

    expect(real.status).toBe(200);
    expect(answers.filter((r) => r.status !== 401 && r.status !== 429)).toEqual([]);
    // the owner did not wait behind the flood's queued password checks
    const checkedWhileOwnerWaited = order.slice(order.indexOf('owner-start'), order.indexOf('owner-done')).filter((s) => s === '401').length;
    expect(pendingAtStart).toBeGreaterThan(0);
    expect(checkedWhileOwnerWaited).toBeLessThan(Math.max(4, pendingAtStart * 0.6));
  });
});

describe('answers that do not tell whether an address has an account', () => {
  const comparable = (res: HttpResponse) => ({
    status: res.status,
    body: res.body,
    headers: [...res.headers.keys()].filter((h) => !['date', 'x-correlation-id', 'keep-alive'].includes(h)).sort(),
    length: res.headers.get('content-length'),
  });

  it('answers a password reset request alike for a known and an unknown address', async () => {
    const { email } = await signUpConfirmed();
    const known = await browser().post('/api/password-resets/', { email });
    const unknown = await browser().post('/api/password-resets/', { email: uniqueEmail('nobody') });
    expect(known.status).toBe(202);
    expect(comparable(unknown)).toEqual(comparable(known));
    expect((await lastMail(email, 'Reset your password')).text).toMatch(/\/reset-password\//);
  });

  it('answers a two-factor reset request before any password check has run', async () => {
    const { email, id } = await signUpConfirmed();
    const owner = browser();
    await owner.signIn(email);
    const setup = await owner.http.post(`/api/users/${id}/two-factor/totp`);
    expect((await owner.http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: await totpCode(setup.body.secret) })).status).toBe(200);

    // every password-check slot is taken: an answer that waited for argon2 could not come back
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: passwordWork.concurrency }, () => passwordWork.run(() => held));
    try {
      const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5_000))]);
      const known = await within(browser().post('/api/two-factor-resets/', { email, password: PASSWORD }));
      const unknown = await within(browser().post('/api/two-factor-resets/', { email: uniqueEmail('nobody'), password: PASSWORD }));
      expect(known).not.toBe('timeout');
      expect(unknown).not.toBe('timeout');
      expect(comparable(known as HttpResponse)).toEqual(comparable(unknown as HttpResponse));
      expect((known as HttpResponse).status).toBe(202);
      expect(await mailCount(email)).toBe(1);
    } finally {
      release();
      await Promise.all(holders);
    }
    // the work still happens once the slots are free
    expect((await lastMail(email, 'Reset two-factor authentication')).text).toMatch(/\/reset2fa\//);
  });

  it('locks an unknown address exactly as a known one: the fifth wrong password answers 423 with the lock end', async () => {
    const { email } = await signUpConfirmed();
    const ghost = uniqueEmail('ghost');
    const run = async (address: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await browser().signIn(address, 'Wrong-pass-1'));
      return answers;
    };
    const known = await run(email);
    const unknown = await run(ghost);
    expect(unknown.map((r) => r.status)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(known.map((r) => r.status)).toEqual(unknown.map((r) => r.status));
    for (let i = 0; i < 6; i++) {
      expect(comparable(unknown[i]!).headers).toEqual(comparable(known[i]!).headers);
      expect(Object.keys(unknown[i]!.body)).toEqual(Object.keys(known[i]!.body));
      expect(unknown[i]!.body.code).toBe(known[i]!.body.code);
    }
    const until = (r: HttpResponse) => Date.parse(r.body.data.lockedUntil);
    expect(unknown[4]!.body.message).toMatch(/^User locked until \d{4}-/);
    expect(Math.abs(until(unknown[4]!) - until(known[4]!))).toBeLessThan(60_000);
    expect(until(unknown[5]!)).toBe(until(unknown[4]!));

    t.clock.advance(16 * 60_000);
    expect((await browser().signIn(ghost, 'Wrong-pass-1')).status).toBe(401);
    expect((await browser().signIn(email, 'Wrong-pass-1')).status).toBe(401);
  });
});

describe('lockout', () => {
  const lockFromStrangers = async (email: string) => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await browser().signIn(email, 'Wrong-pass-1')).status);
    expect(answers).toEqual([401, 401, 401, 401, 423]);
  };

  it('does not keep out a browser that signed in before, and keeps out every other one', async () => {
    const { email } = await signUpConfirmed();
    const owner = browser();
    const first = await owner.signIn(email);
    expect(first.status).toBe(200);
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith('axel_device='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/sessions\//);
    expect(cookie).toMatch(/Max-Age=\d{6,}/);

    await lockFromStrangers(email);
    const stranger = await browser().signIn(email);
    expect(stranger.status).toBe(423);
    expect(stranger.body.code).toBe('USER_LOCKED');
    expect((await owner.signIn(email)).status).toBe(200);
  });

  it('counts the wrong passwords of a trusted browser against that browser only', async () => {
    const { email, id } = await signUpConfirmed();
    const owner = browser();
    expect((await owner.signIn(email)).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await owner.signIn(email, 'Wrong-pass-1')).status);
    expect(answers).toEqual([401, 401, 401, 401, 423]);
    expect((await owner.signIn(email)).status).toBe(423);
    // staff see no lock of the account: only that browser is locked
    expect(await staffSeesLockedUntil(id)).toBeNull();
    expect((await browser().signIn(email)).status).toBe(200);
  });

  it('ignores a device cookie that was tampered with or belongs to another account', async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    const owner = browser();
    expect((await owner.signIn(a.email)).status).toBe(200);
    await lockFromStrangers(b.email);
    // a's device cookie does not open b
    expect((await owner.signIn(b.email)).status).toBe(423);
    const forged = new HttpClient(t.url);
    const res = await forged.request(
      'POST',
      '/api/sessions/',
      { email: b.email, password: PASSWORD },
      {
        'x-forwarded-for': freshIp(),
        cookie: `axel_device=${b.id}.AAAAAAAAAAAAAAAAAAAAAAAA.forged`,
      },
    );
    expect(res.status).toBe(423);
  });

  it('lifts the lock when the password is reset through the mailed link', async () => {
    const { email, id } = await signUpConfirmed();
    await lockFromStrangers(email);
    expect(await staffSeesLockedUntil(id)).not.toBeNull();
    expect((await browser().post('/api/password-resets/', { email })).status).toBe(202);
    const token = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    const NEW = 'Brand-new-pass-2';
    const reset = await browser().post(`/api/password-resets/${token}`, { password: NEW, passwordConfirmation: NEW });
    expect(reset.status).toBe(204);
    expect(await staffSeesLockedUntil(id)).toBeNull();
    const after = await browser().signIn(email, NEW);
    expect(after.status).toBe(200);
    expect(after.body.user.email).toBe(email);
  });
});

describe('authenticator codes', () => {
  it('accepts a code once: the same valid code signs in once, and cannot turn two-factor off again', async () => {
    const { email, id } = await signUpConfirmed();
    const owner = browser();
    await owner.signIn(email);
    const setup = await owner.http.post(`/api/users/${id}/two-factor/totp`);
    const enableCode = await totpCode(setup.body.secret);
    expect((await owner.http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: enableCode })).status).toBe(200);
    // the code that turned it on does not sign in
    const replayedEnable = await browser().signIn(email, PASSWORD, enableCode);
    expect(replayedEnable.body.code).toBe('TWO_FACTOR_INCORRECT');

    t.clock.advance(30_000);
    const code = await totpCode(setup.body.secret);
    const first = browser();
    expect((await first.signIn(email, PASSWORD, code)).status).toBe(200);
    const replay = await browser().signIn(email, PASSWORD, code);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('TWO_FACTOR_INCORRECT');

    // nor does it turn two-factor off
    const off = await first.http.post(`/api/users/${id}/two-factor/disable`, { code });
    expect(off.status).toBe(400);
    expect(off.body.code).toBe('TWO_FACTOR_INCORRECT');
    t.clock.advance(30_000);
    const fresh = await first.http.post(`/api/users/${id}/two-factor/disable`, { code: await totpCode(setup.body.secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.twoFactor.enabled).toBe(false);
  });
});

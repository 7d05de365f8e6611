import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { startOidcProvider } from '../../testing/oidc-provider';

/** Google's stand-in: an OpenID Connect provider on loopback that signs ID tokens for whoever it is told. */
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  provider = await startOidcProvider();
});
afterAll(async () => {
  await provider.stop();
});

const t = useTestApp(() => ({
  env: { OIDC_GOOGLE_ISSUER: provider.issuer, OIDC_GOOGLE_CLIENT_ID: 'axel-drive', OIDC_GOOGLE_CLIENT_SECRET: 'google-secret' },
}));
const { uniqueEmail, signUpConfirmed, signIn, PASSWORD } = accountHelpers(t);

/**
 * What a browser does: the product's authorize link redirects to the provider, the provider (which
 * approves at once) redirects to the web app's callback page, which posts the code and state.
 */
const signInWithGoogle = async (http = new HttpClient(t().url), query = '') => {
  const start = await http.request('GET', `/api/sso/google/authorize${query}`);
  expect(start.status, JSON.stringify(start.body)).toBe(302);
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location')!);
  expect(callback.pathname).toBe('/signin/sso/google');
  const res = await http.post('/api/sso/google', { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') });
  return { http, res };
};

describe('single sign-on with OpenID Connect', () => {
  it('lists the configured providers; an unconfigured one answers 503', async () => {
    const http = new HttpClient(t().url);
    expect((await http.get('/api/sso/')).body).toEqual({ data: [{ type: 'google', authorizeUrl: '/api/sso/google/authorize' }] });
    for (const res of [await http.post('/api/sso/microsoft', { code: 'x', state: 'y' }), await http.get('/api/sso/microsoft/authorize')]) {
      expect([res.status, res.body.code]).toEqual([503, 'INTEGRATION_NOT_CONFIGURED']);
    }
  });

  it('creates an account for a verified address from the sign-up page, signs it in; its password sign-in answers SOCIAL_ACCOUNT', async () => {
    const email = uniqueEmail('google');
    provider.signsIn({ sub: `g-${email}`, email, email_verified: true });
    // from the sign-in page (terms not accepted yet): sent to sign-up, no account made
    const first = await signInWithGoogle();
    expect([first.res.status, first.res.body.data]).toMatchObject([400, { email, signUp: true, fields: { termsAccepted: 'validation.terms' } }]);

    const { http, res } = await signInWithGoogle(new HttpClient(t().url), '?termsAccepted=true&locale=nl');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ email, locale: 'nl' });
    expect((await http.get('/api/sessions/this/')).body.user.email).toBe(email);

    const password = await signIn(email, 'Any-password-1');
    expect([password.res.status, password.res.body.code]).toEqual([403, 'SOCIAL_ACCOUNT']);

    // the next time, from the sign-in page, the same account
    const again = await signInWithGoogle();
    expect([again.res.status, again.res.body.user?.id]).toEqual([200, res.body.user.id]);
  });

  it('sends an address the provider did not verify to sign-up', async () => {
    const email = uniqueEmail('unverified');
    provider.signsIn({ sub: `g-${email}`, email, email_verified: false });
    const { res } = await signInWithGoogle(new HttpClient(t().url), '?termsAccepted=true');
    expect([res.status, res.body.code, res.body.data]).toEqual([403, 'EMAIL_NOT_VERIFIED', { email, signUp: true }]);
  });

  it('asks a two-factor user for their second factor, and opens the session only with it', async () => {
    const { email, id } = await signUpConfirmed();
    const { http: owner } = await signIn(email);
    const setup = await owner.post(`/api/users/${id}/two-factor/totp`);
    const totp = () => generate({ secret: setup.body.secret, epoch: Math.floor(t().clock.now().getTime() / 1000) });
    expect((await owner.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: await totp() })).status).toBe(200);
    t().clock.advance(31_000);

    provider.signsIn({ sub: `g-${email}`, email, email_verified: true });
    const { http, res } = await signInWithGoogle();
    expect(res.body).toMatchObject({ twoFactorRequired: true, method: 'totp', twoFactorToken: expect.any(String) });
    expect(http.hasSession()).toBe(false);
    const wrong = await http.post('/api/sso/google', { twoFactorToken: res.body.twoFactorToken, code: '000000' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'TWO_FACTOR_INCORRECT']);
    const done = await http.post('/api/sso/google', { twoFactorToken: res.body.twoFactorToken, code: await totp() });
    expect([done.status, done.body.user?.id]).toEqual([200, id]);
    expect(http.hasSession()).toBe(true);
    // the password still signs in too (the account keeps its password)
    expect((await signIn(email, PASSWORD)).res.body.twoFactorRequired).toBe(true);
  });

  it('refuses a code without its round, a replayed round, and a forged second-factor token', async () => {
    const email = uniqueEmail('replay');
    provider.signsIn({ sub: `g-${email}`, email, email_verified: true });
    const http = new HttpClient(t().url);
    const start = await http.request('GET', '/api/sso/google/authorize?termsAccepted=true');
    const callback = new URL((await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
    const body = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') };
    const stranger = await new HttpClient(t().url).post('/api/sso/google', body);
    expect([stranger.status, stranger.body.code]).toEqual([400, 'SSO_STATE_INVALID']);
    const wrongState = await http.post('/api/sso/google', { ...body, state: 'another' });
    expect([wrongState.status, wrongState.body.code]).toEqual([502, 'INTEGRATION_FAILED']);
    const replay = await http.post('/api/sso/google', body);
    expect([replay.status, replay.body.code]).toEqual([400, 'SSO_STATE_INVALID']);
    const forged = await http.post('/api/sso/google', { twoFactorToken: 'v1.forged', code: '123456' });
    expect([forged.status, forged.body.code]).toEqual([400, 'SSO_STATE_INVALID']);
  });
});

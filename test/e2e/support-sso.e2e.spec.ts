import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider } from '../../api/src/testing/oidc-provider';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const PHONE = { width: 390, height: 844 };
const SUPPORT = 'help.desk@example.com';
const SLACK_SECRET = 'slack-signing-secret-for-tests';

/** Google's stand-in (an OpenID Connect provider on loopback that approves at once). */
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
/** The product's environment; the provider's address is known once it listens, before the product starts. */
const env: Record<string, string> = {
  SUPPORT_EMAIL: SUPPORT,
  SLACK_SIGNING_SECRET: SLACK_SECRET,
  OIDC_GOOGLE_CLIENT_ID: 'axel-drive',
  OIDC_GOOGLE_CLIENT_SECRET: 'google-secret',
};

beforeAll(async () => {
  provider = await startOidcProvider();
  env.OIDC_GOOGLE_ISSUER = provider.issuer;
});
afterAll(async () => {
  await provider?.stop();
});

const { app, uniqueEmail, signUpConfirmed, signIn, newPage, signedInPage, buyPlan, lastMail, linkIn } = e2eSuite({ env, tempDir: 'axel-support-' });

interface DevMail {
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number; url: string }[];
}
const supportMailWith = async (marker: string): Promise<DevMail> => {
  for (let i = 0; i < 200; i++) {
    const mails = (await (await fetch(`${app().url}/api/dev/mailbox?to=${SUPPORT}`)).json()) as DevMail[];
    const mail = mails.find((m) => m.text.includes(marker));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no support mail with ${marker}`);
};

describe('contact support', () => {
  it('a message with an attachment, written on a 390 px phone, arrives at support with the attachment byte for byte', async () => {
    const shot = stepShots('web-support');
    const me = await signUpConfirmed(uniqueEmail('support'));
    const page = await signedInPage(me.email, { viewport: PHONE });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-support').click();
    const dialog = page.getByTestId('support-dialog');
    await dialog.waitFor();

    // nothing is sent without a subject and a message
    await page.getByTestId('support-submit').click();
    await expect.poll(() => dialog.innerText()).toContain('Subject is required');
    expect(await dialog.innerText()).toContain('Message is required');

    // a file over 15 MB is refused before sending
    await page
      .getByTestId('support-attachment')
      .setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(15 * 1024 * 1024 + 1) });
    await page.getByTestId('support-subject').fill('Cannot open my invoice');
    await page.getByTestId('support-text').fill('It is blank');
    await page.getByTestId('support-submit').click();
    await expect.poll(() => page.getByTestId('support-attachment-help').innerText()).toBe('The attachment must be at most 15 MB');

    const marker = randomUUID();
    const content = randomBytes(300_000);
    await page.getByTestId('support-attachment').setInputFiles({ name: 'invoice 7.pdf', mimeType: 'application/pdf', buffer: content });
    expect(await page.getByTestId('support-attachment-name').innerText()).toContain('invoice 7.pdf');
    await page.getByTestId('support-text').fill(`The PDF is blank. ${marker}`);
    await expectNoSideScroll(page);
    await shot(page, 'support-form-phone');
    await page.getByTestId('support-submit').click();
    await expect.poll(() => page.getByTestId('support-sent').innerText(), { timeout: 15_000 }).toContain('Your message was sent to support');
    await shot(page, 'support-sent-phone');

    const mail = await supportMailWith(marker);
    expect(mail.text).toContain('Subject: Cannot open my invoice');
    expect(mail.text).toContain(`${me.email} (account ${me.id})`);
    expect(mail.attachments).toEqual([{ filename: 'invoice 7.pdf', contentType: 'application/pdf', size: content.length, url: expect.any(String) }]);
    const file = await fetch(app().url + mail.attachments[0]!.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
  });
});

describe('contact the owner of my team', () => {
  it("a team member chooses the team's owner in the support dialog; the message reaches the owner's mailbox", async () => {
    const owner = await signUpConfirmed(uniqueEmail('owner'));
    const ownerApi = (await signIn(owner.email)).http;
    await buyPlan(ownerApi, owner.id, 300);
    const [team] = (await ownerApi.get(`/api/users/${owner.id}/teams/`)).body as { id: string }[];
    const member = await signUpConfirmed(uniqueEmail('member'));
    expect((await ownerApi.post(`/api/teams/${team!.id}/invites`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await (await signIn(member.email)).http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);

    const page = await signedInPage(member.email, { viewport: PHONE });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-support').click();
    await page.getByTestId('support-to-owner').click();
    // nothing can be attached to the owner's copy
    expect(await page.getByTestId('support-attachment').count()).toBe(0);
    const marker = randomUUID();
    await page.getByTestId('support-subject').fill('More space');
    await page.getByTestId('support-text').fill(`Please raise my quota. ${marker}`);
    await expectNoSideScroll(page);
    await page.getByTestId('support-submit').click();
    await expect.poll(() => page.getByTestId('support-sent').innerText(), { timeout: 15_000 }).toContain("Your message was sent to your team's owner.");
    const mail = await lastMail(owner.email, 'A message from a member of your team');
    expect(mail.text).toContain(member.email);
    expect(mail.text).toContain(marker);
  });
});

describe('single sign-on', () => {
  it('a new address from the sign-in page is sent to sign-up; with the terms accepted the round trip creates the account and signs it in (desktop)', async () => {
    const shot = stepShots('web-sso');
    const email = uniqueEmail('google');
    provider.signsIn({ sub: `g-${email}`, email, email_verified: true });
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${app().url}/signin`);
    await page.getByTestId('sso-google').click();
    await page.waitForURL(/\/signup\?/);
    expect(await page.getByTestId('sso-signup-notice').innerText()).toContain(`No account uses ${email} yet`);
    expect(await page.getByTestId('signup-email').inputValue()).toBe(email);
    // the provider's button waits for the terms
    expect(await page.getByTestId('sso-google').isDisabled()).toBe(true);
    await page.getByTestId('signup-terms').check();
    await shot(page, 'signup-with-google');
    await page.getByTestId('sso-google').click();
    await page.waitForURL(/\/welcome/);
    await page.getByTestId('user-menu').click();
    expect(await page.getByTestId('user-menu-email').innerText()).toBe(email);

    // the password form tells the account apart readably
    const other = await newPage();
    await other.goto(`${app().url}/signin`);
    await other.getByTestId('signin-email').fill(email);
    await other.getByTestId('signin-password').fill('Any-password-1');
    await other.getByTestId('signin-submit').click();
    await expect.poll(() => other.getByTestId('signin-error').innerText()).toBe('This account was created with social sign-in: sign in with the same provider');

    // the next time, from the sign-in page, straight to the page asked for
    await other.goto(`${app().url}/signin?redirect=${encodeURIComponent('/files/trash')}`);
    await other.getByTestId('sso-google').click();
    await other.waitForURL(/\/files\/trash/);
  });

  it('an account with two-factor authentication is still asked for its code after the provider signs it in', async () => {
    const me = await signUpConfirmed(uniqueEmail('google-2fa'));
    const { http } = await signIn(me.email);
    const { secret } = (await http.post(`/api/users/${me.id}/two-factor/totp`)).body as { secret: string };
    const step = Math.floor(Date.now() / 30_000);
    expect((await http.post(`/api/users/${me.id}/two-factor/enable`, { method: 'totp', code: await generate({ secret, epoch: step * 30 }) })).status).toBe(200);
    provider.signsIn({ sub: `g-${me.email}`, email: me.email, email_verified: true });

    const page = await newPage();
    await page.goto(`${app().url}/signin`);
    await page.getByTestId('sso-google').click();
    await page.getByTestId('sso-code-step').waitFor();
    await page.getByTestId('sso-code').fill('000000');
    await page.getByTestId('sso-code-submit').click();
    await expect.poll(() => page.getByTestId('sso-error').innerText()).toBe('Incorrect 2FA code');
    // the code of the next 30 s step: the one that enabled two-factor is spent
    await page.getByTestId('sso-code').fill(await generate({ secret, epoch: (step + 1) * 30 }));
    await page.getByTestId('sso-code-submit').click();
    await page.waitForURL(/\/welcome/);
  });

  it('an expired or replayed return from the provider says so and offers to start again', async () => {
    const page = await newPage();
    await page.goto(`${app().url}/signin/sso/google?code=stale&state=stale`);
    await expect.poll(() => page.getByTestId('sso-error').innerText()).toBe('This sign-in attempt has expired or was already used: start again');
    await page.getByTestId('sso-start-again').click();
    await page.waitForURL(/\/signin$/);
  });
});

describe('Slack', () => {
  /** What Slack sends when a user types /axel: a signed form, answered with the link to connect. */
  const slackLinkFor = async (slackUserId: string) => {
    const body = `token=x&user_id=${slackUserId}&command=%2Faxel`;
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
    const res = await fetch(`${app().url}/api/slack/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts, 'x-slack-signature': signature },
      body,
    });
    const answer = (await res.json()) as { text: string };
    return answer.text.match(/https?:\/\/\S+\/slack-auth\/\S+/)![0];
  };

  it('the link from Slack asks to sign in, then connects the Slack user to the account once confirmed; an edited link is refused (390 px phone)', async () => {
    const shot = stepShots('web-slack');
    const me = await signUpConfirmed(uniqueEmail('slack'));
    const slackUserId = `U${randomBytes(5).toString('hex').toUpperCase()}`;
    const link = await slackLinkFor(slackUserId);

    const page = await newPage({ viewport: PHONE });
    await page.goto(link);
    await page.getByTestId('slack-sign-in').click();
    await page.getByTestId('signin-email').fill(me.email);
    await page.getByTestId('signin-password').fill('Secret-pass-1');
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/slack-auth\//);
    expect(await page.getByTestId('slack-confirm').innerText()).toContain(slackUserId);
    await expectNoSideScroll(page);
    await shot(page, 'slack-confirm-phone');
    await page.getByTestId('slack-connect').click();
    await expect.poll(() => page.getByTestId('slack-linked').innerText()).toContain(`Slack is connected to ${me.email}`);
    const { http } = await signIn(me.email);
    expect((await http.get(`/api/users/${me.id}/slack/`)).body).toMatchObject({ slackUserId });

    // a signature that is not the server's: refused when connecting
    const edited = link.replace(/signature=[^&]+/, `signature=${'x'.repeat(43)}`);
    await page.goto(edited);
    await page.getByTestId('slack-connect').click();
    await expect.poll(() => page.getByTestId('slack-error').innerText()).toBe('This Slack link is invalid or has expired. Type /axel in Slack for a new one.');
    // a link whose time is past: refused at once
    await page.goto(link.replace(/expires=\d+/, `expires=${Date.now() - 1000}`));
    await expect.poll(() => page.getByTestId('slack-invalid').count()).toBe(1);
    await shot(page, 'slack-invalid-phone');
  });

  it("speaks the signed-in user's language", async () => {
    const me = await signUpConfirmed(uniqueEmail('slack-es'));
    const { http } = await signIn(me.email);
    expect((await http.put(`/api/users/${me.id}/account`, { locale: 'es_mx' })).status).toBe(200);
    const page = await signedInPage(me.email);
    await page.goto(await slackLinkFor('U0ESPANOL'));
    await expect.poll(() => page.getByTestId('slack-connect').textContent()).toBe('Conectar Slack');
    expect(await page.getByTestId('slack-confirm').innerText()).toContain('Slack te avisará cuando lleguen archivos');
  });
});

describe('browser notifications', () => {
  it('the switch in Settings › Account asks the browser; a refusal is explained once, not again within 7 days (390 px phone)', async () => {
    const me = await signUpConfirmed(uniqueEmail('push'));
    const page = await signedInPage(me.email, { viewport: PHONE });
    await page.goto(`${app().url}/settings?tab=account`);
    const toggle = page.getByTestId('push-switch');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    // headless Chromium answers the permission request without granting it
    await toggle.click();
    await expect.poll(() => page.getByTestId('push-notice').getAttribute('data-notice')).toBe('denied');
    expect(await page.getByTestId('push-notice').innerText()).toContain('Notifications are blocked for this site');
    expect(await toggle.isChecked()).toBe(false);
    await expectNoSideScroll(page);

    await page.reload();
    await expect.poll(() => page.getByTestId('push-switch').isEnabled()).toBe(true);
    await page.getByTestId('push-switch').click();
    await expect.poll(() => page.getByTestId('push-switch').isEnabled()).toBe(true);
    expect(await page.getByTestId('push-notice').count()).toBe(0);
  });
});

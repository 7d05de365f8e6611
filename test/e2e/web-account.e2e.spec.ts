import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, uniqueEmail, signUpConfirmed, lastMail, linkIn, PASSWORD, webSignIn: signInThroughForm, newPage } = e2eSuite();

/**
 * Ids used more than once, and form controls that no label or aria attribute names. Runs in the page
 * (written as text: the test project compiles without the DOM library).
 */
const pageAudit = (page: Page) =>
  page.evaluate(`(() => {
    const counts = new Map();
    for (const el of document.querySelectorAll('[id]')) counts.set(el.id, (counts.get(el.id) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const controls = [...document.querySelectorAll('input:not([type=hidden]), select, textarea')];
    const unnamed = controls
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120));
    return { duplicates, unnamed };
  })()`) as Promise<{ duplicates: string[]; unnamed: string[] }>;

const focusedTestId = (page: Page) => page.evaluate(`document.activeElement?.getAttribute('data-testid') ?? null`) as Promise<string | null>;

const auditFresh = async (page: Page, path: string, ready: string) => {
  await page.goto(`${app().url}${path}`);
  await page.getByTestId(ready).waitFor();
  expect(await pageAudit(page), path).toEqual({ duplicates: [], unnamed: [] });
};

describe('mailed links are checked before any form', () => {
  it('a garbage or already used password reset link shows the invalid-link state, with a way to a new link, and no form', async () => {
    const shot = stepShots('web-reset-link-invalid');
    const page = await newPage();

    await page.goto(`${app().url}/reset-password/not-a-real-reset-token-0000000000`);
    await page.getByTestId('password-reset-expired').waitFor();
    expect(await page.getByTestId('password-reset-password').count()).toBe(0);
    await shot(page, 'garbage-link');

    const { email } = await signUpConfirmed(uniqueEmail('used-link'));
    const anon = new HttpClient(app().url);
    expect((await anon.post('/api/password-resets/', { email })).status).toBe(202);
    const token = linkIn((await lastMail(email, 'Reset your password')).text, '/reset-password/');
    const NEW = 'Brand-new-pass-2';
    expect((await anon.post(`/api/password-resets/${token}`, { password: NEW, passwordConfirmation: NEW })).status).toBe(204);
    await page.goto(`${app().url}/reset-password/${encodeURIComponent(token)}`);
    await page.getByTestId('password-reset-expired').waitFor();
    expect(await page.getByTestId('password-reset-password').count()).toBe(0);
    await shot(page, 'used-link');

    await page.getByTestId('password-reset-new-link').click();
    await page.getByTestId('password-reset-email').waitFor();
    await page.context().close();
  });

  it('a garbage two-factor reset link says so at once, without the button that cannot work', async () => {
    const page = await newPage();
    await page.goto(`${app().url}/reset2fa/?token=not-a-real-2fa-token-000000000000`);
    await page.getByTestId('reset2fa-invalid').waitFor();
    expect(await page.getByTestId('reset2fa-confirm-submit').count()).toBe(0);
    await page.getByTestId('reset2fa-new-link').waitFor();
    await stepShots('web-reset2fa-link-invalid')(page, 'garbage-link');
    await page.context().close();
  });

  it('a garbage e-mail change link says the link is invalid or has expired, not that fields are invalid', async () => {
    const page = await newPage();
    await page.goto(`${app().url}/change-email-confirmations/not-a-real-change-token-0000000`);
    const message = page.getByTestId('change-email-link-invalid');
    await message.waitFor();
    expect(await message.innerText()).toMatch(/invalid or has expired/);
    expect(await page.getByText('Some fields are invalid').count()).toBe(0);
    await stepShots('web-change-email-link-invalid')(page, 'garbage-link');
    await page.context().close();
  });
});

describe('a signed-in user', () => {
  it('stays on the deleted-account page after deleting the account', async () => {
    const shot = stepShots('web-account-deleted');
    const { email } = await signUpConfirmed(uniqueEmail('leaver'));
    const page = await newPage();
    await signInThroughForm(page, email);
    await page.goto(`${app().url}/settings?tab=delete`);
    await page.getByTestId('delete-confirmation').fill('YES');
    await page.getByTestId('delete-password').fill(PASSWORD);
    await page.getByTestId('delete-account-submit').click();
    await page.waitForURL(/\/deleted-acc$/);
    await page.getByTestId('deleted-account').waitFor();
    // Whatever was still under way when the account went (requests refused, redirects) has settled by now.
    await page.waitForTimeout(2500);
    expect(new URL(page.url()).pathname).toBe('/deleted-acc');
    expect(await page.getByTestId('deleted-account').isVisible()).toBe(true);
    expect(await page.getByTestId('signin-page').count()).toBe(0);
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    await shot(page, 'stays');

    // Gone for the server too.
    expect(await page.evaluate(() => fetch('/api/sessions/this/').then((r) => r.status))).toBe(401);
    await page.context().close();

    // Someone whose account is alive is told so there, not that it was deleted.
    const { email: stayer } = await signUpConfirmed(uniqueEmail('stayer'));
    const other = await newPage();
    await signInThroughForm(other, stayer);
    await other.goto(`${app().url}/deleted-acc`);
    const active = other.getByTestId('deleted-account-active');
    await active.waitFor();
    expect(await active.innerText()).toContain(stayer);
    await other.context().close();
  });

  it('is signed out by the page itself when the inactivity timeout runs out, activity restarting the countdown', async () => {
    const shot = stepShots('web-inactivity');
    const { email } = await signUpConfirmed(uniqueEmail('idle'));
    const page = await newPage();
    await page.clock.install();
    await signInThroughForm(page, email);
    await page.goto(`${app().url}/settings?tab=account`);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/account') && r.ok()),
      page.getByTestId('session-timeout-select').selectOption('900'),
    ]);
    await shot(page, 'timeout-15-minutes');

    await page.clock.fastForward('14:00');
    await page.mouse.move(200, 200);
    await page.mouse.move(220, 240);
    await page.clock.fastForward('14:00');
    expect(await page.getByTestId('settings-account').isVisible()).toBe(true);

    await page.clock.fastForward('01:05');
    await page.getByTestId('signin-page').waitFor();
    expect(await page.getByTestId('signin-notice').getAttribute('data-reason')).toBe('SESSION_INACTIVE');
    expect(await page.getByTestId('settings-account').count()).toBe(0);
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('redirect')).toMatch(/^\/settings/);
    await shot(page, 'signed-out');
    // The session ended on the server too, not only on the screen.
    expect(await page.evaluate(() => fetch('/api/sessions/this/').then((r) => r.status))).toBe(401);
    await page.context().close();
  });

  it('in settings, asking for a new 2FA code says where it went, and the error of a wrong code goes when a new attempt starts', async () => {
    const shot = stepShots('web-settings-2fa-resend');
    const { email } = await signUpConfirmed(uniqueEmail('resend'));
    const page = await newPage();
    await signInThroughForm(page, email);
    await page.goto(`${app().url}/settings?tab=account`);
    await page.getByTestId('twofa-method-email').check();
    await page.getByTestId('twofa-enable').click();
    await page.getByTestId('twofa-email-setup').waitFor();
    expect(await page.getByTestId('twofa-code-resent').count()).toBe(0);

    await page.getByTestId('twofa-code').fill('000000');
    await page.getByTestId('twofa-verify').click();
    await page.getByTestId('twofa-error').waitFor();
    await page.getByTestId('twofa-code').fill('12');
    await page.getByTestId('twofa-verify').click();
    await page.getByText('Enter the 6-digit code').waitFor();
    expect(await page.getByTestId('twofa-error').count()).toBe(0);

    await page.getByTestId('twofa-resend').click();
    const resent = page.getByTestId('twofa-code-resent');
    await resent.waitFor();
    expect(await resent.innerText()).toContain(email);
    await shot(page, 'new-code-sent');
    await page.context().close();
  });

  it('in settings, each label focuses its own input and no page repeats an id or leaves a control unnamed', async () => {
    const shot = stepShots('web-settings-labels');
    const { email } = await signUpConfirmed(uniqueEmail('labels'));
    const page = await newPage();

    await auditFresh(page, '/signin', 'signin-page');
    await auditFresh(page, '/signup', 'signup-email');
    await auditFresh(page, '/reset-password', 'password-reset-email');
    await auditFresh(page, '/reset2fa/', 'reset2fa-email');

    await signInThroughForm(page, email);
    await auditFresh(page, '/welcome', 'user-menu');
    await auditFresh(page, '/settings', 'settings-profile');
    await auditFresh(page, '/settings?tab=delete', 'settings-delete');
    await auditFresh(page, '/settings?tab=account', 'settings-account');

    // MUI's outlined label lets the pointer through to the input below it; activating the label itself
    // is what assistive technology and a click on a label do.
    const activate = (label: ReturnType<Page['locator']>) => label.dispatchEvent('click');
    await activate(page.locator('label', { hasText: /^New password$/ }));
    expect(await focusedTestId(page)).toBe('password-change-new');
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('data-testid')).toBe('password-change-new');
    await activate(page.getByTestId('account-email').locator('label', { hasText: /^Current password$/ }));
    expect(await focusedTestId(page)).toBe('email-change-password');
    await shot(page, 'new-password-focused');
    await page.context().close();
  });
});

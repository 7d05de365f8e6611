import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const ADMIN = { email: 'root@axel.test', password: 'Root-pass-123' };
const PASSWORD = 'Secret-pass-1';

const { app, browser, submitSignIn: signInThroughForm, webSignIn, consoleSignIn } = e2eSuite({ admin: ADMIN });

/**
 * A code of a time step not used yet: each step is accepted once, and the server takes one step
 * of tolerance, so a test that signs in several times within 30 s uses the next step.
 */
let lastStep = 0;
const totpNow = async (secret: string) => {
  for (;;) {
    const current = Math.floor(Date.now() / 30_000);
    const step = Math.max(current, lastStep + 1);
    if (step <= current + 1) {
      lastStep = step;
      return generate({ secret, epoch: step * 30 });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
};

describe('a new user in the web app', () => {
  const email = `ana.${Date.now().toString(36)}@example.com`;
  let secret = '';

  it('signs up, confirms through the dev mailbox, signs in, switches to pt_br, enables TOTP, signs in with a code and signs out', async () => {
    const shot = stepShots('user-journey');
    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();

    await page.goto(`${app().url}/signup`);
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill(PASSWORD);
    await page.getByTestId('signup-password-confirmation').fill(PASSWORD);
    await page.getByTestId('signup-terms').check();
    await shot(page, 'signup-form');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-check-inbox').waitFor();
    await shot(page, 'check-inbox');

    await page.goto(`${app().url}/dev/mailbox`);
    const mail = page.locator(`article[data-to="${email}"]`).first();
    await mail.waitFor();
    await shot(page, 'dev-mailbox');
    await mail.locator('a[href*="/email-confirmation/"]').click();
    await page.getByTestId('email-confirmation-done').waitFor();
    await shot(page, 'email-confirmed');

    await webSignIn(page, email, PASSWORD);
    await shot(page, 'welcome');

    await page.goto(`${app().url}/settings`);
    await page.getByTestId('settings-tab-account').click();
    await page.getByTestId('language-select').first().selectOption('pt_br');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toMatch(/pt/i);
    await expect.poll(() => page.getByTestId('settings-tab-account').innerText()).toMatch(/conta/i);
    await shot(page, 'settings-pt-br');

    await page.getByTestId('twofa-method-totp').check();
    await page.getByTestId('twofa-enable').click();
    const secretText = page.getByTestId('twofa-secret');
    await secretText.waitFor();
    secret = (await secretText.innerText()).replace(/\s+/g, '');
    await page.getByTestId('twofa-qr').waitFor();
    await shot(page, 'totp-qr');
    await page.getByTestId('twofa-code').fill(await totpNow(secret));
    await page.getByTestId('twofa-verify').click();
    await page.getByTestId('twofa-enabled').waitFor();
    await shot(page, 'totp-enabled');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('logout-confirm').click();
    await page.waitForURL(/\/signin/);
    await shot(page, 'signed-out');

    await signInThroughForm(page, email, PASSWORD);
    await page.getByTestId('signin-code').waitFor();
    await shot(page, 'asks-for-code');
    await page.getByTestId('signin-code').fill(await totpNow(secret));
    await page.getByTestId('signin-code-submit').click();
    await page.waitForURL(/\/welcome/);
    await shot(page, 'signed-in-with-code');
    // the account's language followed the user to the new session
    await expect.poll(() => page.locator('html').getAttribute('lang')).toMatch(/pt/i);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('logout-confirm').click();
    await page.waitForURL(/\/signin/);
    await context.close();
  });

  it('is found and suspended by a super_admin in the console, and their open session goes to sign-in with the message', async () => {
    const shot = stepShots('staff-suspends');
    const userContext = await browser().newContext();
    const user = await userContext.newPage();
    await signInThroughForm(user, email, PASSWORD);
    await user.getByTestId('signin-code').fill(await totpNow(secret));
    await user.getByTestId('signin-code-submit').click();
    await user.waitForURL(/\/welcome/);
    await shot(user, 'user-signed-in');

    const staffContext = await browser().newContext();
    const staff = await staffContext.newPage();
    await staff.goto(`${app().url}/admin`);
    await staff
      .getByLabel(/e-?mail/i)
      .first()
      .fill(ADMIN.email);
    await staff
      .getByLabel(/password/i)
      .first()
      .fill(ADMIN.password);
    await shot(staff, 'console-login');
    await staff.getByTestId('login-submit').click();
    await staff.waitForURL(/\/admin\/dashboard/);
    await shot(staff, 'console-dashboard');

    await staff.goto(`${app().url}/admin/users`);
    await staff.getByTestId('users-search').fill(email);
    await staff.getByText(email).first().waitFor();
    await shot(staff, 'console-search');
    await staff.getByText(email).first().click();
    await staff.getByTestId('user-suspend').click();
    // the reason is optional; given, it goes into the user's activity
    await staff.getByTestId('user-suspend-reason').fill('Chargeback under review');
    await shot(staff, 'console-suspend-reason');
    await staff.getByRole('button', { name: 'Confirm' }).click();
    await staff.getByText('User suspended').first().waitFor();
    await shot(staff, 'console-suspended');
    await staff.getByTestId('user-tab-activity').click();
    await staff.getByTestId('user-activity').getByTestId('activity-sentence').filter({ hasText: 'Suspended (Chargeback under review)' }).waitFor();
    await shot(staff, 'console-suspension-in-activity');

    await user.waitForURL(/\/signin/, { timeout: 15_000 });
    // the user chose pt_br earlier: the message comes in their language
    await user
      .getByTestId('signin-notice')
      .filter({ hasText: /suspens/i })
      .waitFor();
    await shot(user, 'user-sent-to-signin');
    await userContext.close();
    await staffContext.close();
  });
});

describe('account deletion', () => {
  it('a user deletes their account (typing YES); staff see it in Deleted users and its purge process waiting in Processes', async () => {
    const shot = stepShots('account-deletion');
    const email = `leaving.${Date.now().toString(36)}@example.com`;
    const signup = await fetch(`${app().url}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true }),
    });
    const { id } = (await signup.json()) as { id: string };
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${app().url}/dev/mailbox`);
    await page.locator(`article[data-to="${email}"] a[href*="/email-confirmation/"]`).first().click();
    await page.getByTestId('email-confirmation-done').waitFor();
    await webSignIn(page, email, PASSWORD);

    await page.goto(`${app().url}/settings`);
    await page.getByTestId('settings-tab-delete').click();
    await page.getByTestId('delete-confirmation').fill('YES');
    await page.getByTestId('delete-password').fill(PASSWORD);
    await shot(page, 'confirm-with-yes');
    await page.getByTestId('delete-account-submit').click();
    await page.waitForURL(/\/deleted-acc/);
    await shot(page, 'deleted');
    await context.close();

    const staffContext = await browser().newContext();
    const staff = await staffContext.newPage();
    await consoleSignIn(staff, ADMIN.email, ADMIN.password);
    await staff.getByTestId('menu-deleted-users').click();
    await staff.getByTestId('deleted-users-table').getByText(email).waitFor();
    await shot(staff, 'console-deleted-users');
    await staff.getByTestId('menu-processes').click();
    const row = staff.getByTestId(`process-row-account-deletion:${id}`);
    await row.waitFor();
    expect(await row.innerText()).toMatch(/running/i);
    await shot(staff, 'console-processes');
    await staffContext.close();
  });
});

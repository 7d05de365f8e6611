import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../api/src/testing/harness';
import { launchBrowser, stepShots } from './browser';
import { consoleSignIn as consoleSignInAt, staffHelpers } from './helpers';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const PASSWORD = 'Secret-pass-1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp({ serveUi: true, env: { ADMIN_EMAIL: ROOT.email, ADMIN_PASSWORD: ROOT.password } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const { signedIn, createAccount } = staffHelpers(() => t.url, PASSWORD);
const consoleSignIn = (page: Page, email: string, password: string) => consoleSignInAt(page, t.url, email, password);

describe('the staff console', () => {
  it('shows a blocked user as Blocked, reads the activity in words with the JSON a click away, and opens a process', async () => {
    const shot = stepShots('console');
    const root = await signedIn(ROOT.email, ROOT.password);
    const admin = await createAccount(root, 'desk', 'admin');
    const blocked = await createAccount(root, 'blocked', 'user');
    await signedIn(blocked.email, PASSWORD, FIREFOX_WINDOWS);
    const adminHttp = await signedIn(admin.email);
    expect((await adminHttp.post(`/api/admin/users/${blocked.id}/block`)).status).toBe(200);
    const leaving = await createAccount(root, 'leaving', 'user');
    expect((await root.delete(`/api/admin/users/${leaving.id}`)).status).toBe(204);

    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);

    await page.goto(`${t.url}/admin/users`);
    await page.getByTestId('users-search').fill(blocked.email);
    const row = page.getByTestId('users-table').locator('tr', { hasText: blocked.email });
    await row.getByTestId('user-status-blocked').waitFor();
    expect(await row.getByTestId('user-status').innerText()).toBe('Blocked');
    await shot(page, 'list-blocked');

    await row.click();
    await page.getByTestId('user-title').filter({ hasText: blocked.email }).waitFor();
    expect(await page.getByTestId('user-status').first().innerText()).toBe('Blocked');
    await page.getByTestId('user-unblock').waitFor();
    await shot(page, 'show-blocked');

    await page.getByTestId('user-tab-activity').click();
    const words = page.getByTestId('activity-words');
    await words.filter({ hasText: `Blocked by ${admin.email}` }).waitFor();
    await words.filter({ hasText: 'Signed in from Firefox on Windows' }).waitFor();
    await words.filter({ hasText: `Account created by ${ROOT.email}` }).waitFor();
    const activity = await page.getByTestId('user-activity').innerText();
    expect(activity).not.toMatch(/UserBlocked|SignInSucceeded|[0-9a-f]{8}-[0-9a-f]{4}-/);
    await shot(page, 'activity-in-words');

    await page.getByTestId('user-activity').locator('tr', { hasText: `Blocked by ${admin.email}` }).click();
    const json = page.getByTestId('activity-json');
    await json.waitFor();
    expect(await json.innerText()).toContain('"event": "UserBlocked"');
    await shot(page, 'activity-json');

    await page.getByTestId('menu-processes').click();
    const process = page.getByTestId(`process-row-account-deletion:${leaving.id}`);
    await process.click();
    const dialog = page.getByTestId('process-dialog');
    await dialog.getByTestId('process-history').waitFor();
    expect(await dialog.getByTestId('process-status').innerText()).toBe('Running');
    expect(await dialog.getByTestId('process-next-timer').innerText()).not.toBe('—');
    expect(await dialog.getByTestId('process-history').innerText()).toContain('Event AccountDeleted');
    expect(await dialog.getByTestId('process-state').innerText()).toContain(leaving.id);
    await shot(page, 'process-detail');
    await dialog.getByTestId('process-dialog-close').click();

    await page.goto(`${t.url}/admin/no-such-page`);
    const notFound = page.getByTestId('not-found-text');
    await notFound.waitFor();
    expect(await notFound.innerText()).not.toMatch(/\.\./);
    await shot(page, 'not-found');
    await context.close();
  });

  it('does not offer an admin suspend or block on a super_admin, nor a financial_admin account creation, and says why', async () => {
    const shot = stepShots('console-hierarchy');
    const root = await signedIn(ROOT.email, ROOT.password);
    const admin = await createAccount(root, 'helpdesk', 'admin');
    const boss = await createAccount(root, 'boss', 'super_admin');
    const plain = await createAccount(root, 'plain', 'user');

    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, admin.email, PASSWORD);

    await page.goto(`${t.url}/admin/users/${encodeURIComponent(plain.id)}/show`);
    await page.getByTestId('user-suspend').waitFor();
    await page.getByTestId('user-block').waitFor();
    expect(await page.getByTestId('user-change-role').count()).toBe(0);

    await page.goto(`${t.url}/admin/users/${encodeURIComponent(boss.id)}/show`);
    const refused = page.getByTestId('user-actions-refused');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/lower rank/);
    expect(await page.getByTestId('user-suspend').count()).toBe(0);
    expect(await page.getByTestId('user-block').count()).toBe(0);
    await shot(page, 'admin-on-super-admin');
    await context.close();

    const money = await createAccount(root, 'money', 'financial_admin');
    const moneyContext = await browser.newContext({ locale: 'en-US' });
    const moneyPage = await moneyContext.newPage();
    await consoleSignIn(moneyPage, money.email, PASSWORD);
    await moneyPage.goto(`${t.url}/admin/users`);
    await moneyPage.getByTestId('users-table').waitFor();
    expect(await moneyPage.getByTestId('users-create').count()).toBe(0);
    await moneyPage.goto(`${t.url}/admin/users/create`);
    await moneyPage.getByTestId('user-create-refused').waitFor();
    await shot(moneyPage, 'financial-admin-cannot-create');
    await moneyContext.close();
  });

  // last: it moves the server's clock a day on
  it('shows the shards, the last scheduled scrub and the last collection on Storage health', async () => {
    const runtime = t.app.ctx.processes() as unknown as { fireDueTimers(): Promise<number>; whenIdle(): Promise<void> };
    t.clock.advance(25 * 3_600_000);
    await runtime.fireDueTimers();
    await runtime.whenIdle();
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);
    await page.goto(`${t.url}/admin/storage-health`);
    await page.getByTestId('storage-health-shards').waitFor();
    expect(await page.getByTestId('storage-health-shards').locator('tbody tr').count()).toBe(4);
    await expect.poll(() => page.getByTestId('storage-health-scrub').innerText()).toMatch(/chunks checked, 0 repaired, 0 lost/);
    expect(await page.getByTestId('storage-health-collection').innerText()).toMatch(/stored chunks belong to no file; 0 chunks deleted, 0 keys destroyed/);
    await stepShots('console-storage-health')(page, 'storage-health');
    await page.context().close();
  });
});

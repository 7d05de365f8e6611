import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const PASSWORD = 'Secret-pass-1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const { app, browser, signedIn, createAccount, consoleSignIn, newPage } = e2eSuite({ admin: ROOT });

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

    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);

    await page.goto(`${app().url}/admin/users`);
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
    const tab = page.getByTestId('user-activity');
    const sentence = (type: string) => tab.locator(`[data-testid="activity-row"][data-type="${type}"]`).first();
    await sentence('UserBlocked').waitFor();
    expect(await sentence('UserBlocked').getByTestId('activity-sentence').innerText()).toBe('Blocked');
    expect(await sentence('UserBlocked').getByTestId('activity-actor').innerText()).toBe(admin.email);
    expect(await sentence('SignInSucceeded').getByTestId('activity-sentence').innerText()).toBe('Signed in from Firefox on Windows');
    expect(await sentence('UserRegistered').getByTestId('activity-actor').innerText()).toBe(ROOT.email);
    expect(await sentence('UserRegistered').getByTestId('activity-sentence').innerText()).toMatch(/^Account .+ created by staff as user$/);
    const activity = await tab.innerText();
    expect(activity).not.toMatch(/UserBlocked|SignInSucceeded|[0-9a-f]{8}-[0-9a-f]{4}-/);
    await shot(page, 'activity-in-words');

    await sentence('UserBlocked').getByTestId('activity-json-toggle').click();
    const json = page.getByTestId('activity-json');
    await json.waitFor();
    expect(await json.innerText()).toContain('"type": "UserBlocked"');
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

    await page.goto(`${app().url}/admin/no-such-page`);
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

    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, admin.email, PASSWORD);

    await page.goto(`${app().url}/admin/users/${encodeURIComponent(plain.id)}/show`);
    await page.getByTestId('user-suspend').waitFor();
    // created by staff: registered from the console, with no browser of its own
    expect(await page.locator('.ra-field-registrationApp').innerText()).toMatch(/Registration app\s+console/);
    expect(await page.locator('.ra-field-registrationUserAgent').innerText()).toMatch(/Registration user agent\s+—/);
    expect(await page.locator('.ra-field-createdByStaff [data-testid="true"]').count()).toBe(1);
    await page.getByTestId('user-block').waitFor();
    expect(await page.getByTestId('user-change-role').count()).toBe(0);

    await page.goto(`${app().url}/admin/users/${encodeURIComponent(boss.id)}/show`);
    const refused = page.getByTestId('user-actions-refused');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/lower rank/);
    expect(await page.getByTestId('user-suspend').count()).toBe(0);
    expect(await page.getByTestId('user-block').count()).toBe(0);
    await shot(page, 'admin-on-super-admin');
    await context.close();

    const money = await createAccount(root, 'money', 'financial_admin');
    const moneyContext = await browser().newContext({ locale: 'en-US' });
    const moneyPage = await moneyContext.newPage();
    await consoleSignIn(moneyPage, money.email, PASSWORD);
    await moneyPage.goto(`${app().url}/admin/users`);
    await moneyPage.getByTestId('users-table').waitFor();
    expect(await moneyPage.getByTestId('users-create').count()).toBe(0);
    await moneyPage.goto(`${app().url}/admin/users/create`);
    await moneyPage.getByTestId('user-create-refused').waitFor();
    await shot(moneyPage, 'financial-admin-cannot-create');
    await moneyContext.close();
  });

  it("one user's page: the plan section and the billing agree, a deleted account reads Deleted with who deleted it, the Activity tab counts what the timeline counts, times in the reader's zone", async () => {
    const shot = stepShots('console-user-page');
    const root = await signedIn(ROOT.email, ROOT.password);
    const buyer = await createAccount(root, 'buyer', 'user');
    const buyerHttp = await signedIn(buyer.email);
    // the storage opens on first use
    expect((await buyerHttp.get(`/api/users/${buyer.id}/storages/`)).status).toBe(200);
    expect((await root.post(`/api/admin/users/${buyer.id}/plan`, { productId: 100 })).status).toBe(200);
    expect((await root.post(`/api/admin/users/${buyer.id}/plan`, { productId: 200 })).status).toBe(200);
    const gone = await createAccount(root, 'gone', 'user');
    expect((await root.delete(`/api/admin/users/${gone.id}`)).status).toBe(204);

    const context = await browser().newContext({ locale: 'en-US', timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);
    const field = (source: string) => page.locator(`.ra-field-${source}`).first();

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${app().url}/admin/users/${encodeURIComponent(buyer.id)}/show/plan`);
      await page.getByTestId('user-billing-plan').filter({ hasText: 'Professional' }).waitFor();
      expect(await page.getByTestId('user-billing-plan').innerText()).toBe('Plan: Professional · 500 GB');
      expect(await field('plan').innerText()).toMatch(/Professional$/);
      expect(await field('paymentFrequency').innerText()).toMatch(/Monthly$/);
      expect(await page.getByTestId('user-storages').innerText()).toBe('Online storage: 0 B of 500 GB used');
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(viewport.width);
      await shot(page, `plan-${viewport.width}`);

      await page.getByTestId('user-tab-activity').click();
      const canceled = page.getByTestId('user-activity').locator('[data-testid="activity-row"][data-type="SubscriptionCanceled"]');
      await canceled.waitFor();
      const end = String(
        ((await root.get(`/api/admin/activity?user=${buyer.id}&type=SubscriptionCanceled`)).body as { data: { endDate: string } }[])[0]!.data.endDate,
      );
      const tokyo = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(new Date(end));
      expect(await canceled.getByTestId('activity-sentence').innerText()).toBe(`Subscription canceled by staff, ends ${tokyo}`);
      const started = await page.getByTestId('user-activity').locator('[data-testid="activity-row"][data-type="SubscriptionStarted"]').allInnerTexts();
      expect(started.join('\n')).toContain('Subscription to Starter started (monthly)');
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(viewport.width);
      await shot(page, `activity-${viewport.width}`);

      // the tab and the timeline: one list, the same total
      const total = await page.getByTestId('user-activity').getByTestId('activity-total').innerText();
      expect(total).toMatch(/^\d+ events$/);
      await page.getByTestId('user-activity-timeline').click();
      await page.getByTestId('activity-title').filter({ hasText: 'Timeline of' }).waitFor();
      await expect.poll(() => page.getByTestId('activity-total').innerText()).toBe(total);
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app().url}/admin/users/${encodeURIComponent(gone.id)}/show`);
    await page.getByTestId('user-title').filter({ hasText: gone.email }).waitFor();
    expect(await page.getByTestId('user-status').innerText()).toBe('Deleted');
    expect(await field('statusId').innerText()).toMatch(/Deleted$/);
    expect(await page.getByTestId('user-deleted-by').innerText()).toBe(ROOT.email);
    // a deleted account offers no actions, and says why
    expect(await page.getByTestId('user-actions-deleted').innerText()).toBe('This account is deleted: it can no longer be suspended, blocked or changed.');
    for (const action of ['user-suspend', 'user-block', 'user-delete', 'user-change-role']) expect(await page.getByTestId(action).count()).toBe(0);
    await shot(page, 'deleted-user');
    await context.close();
  });

  // last: it moves the server's clock a day on
  it('shows the shards, the last scheduled scrub and the last collection on Storage health', async () => {
    const runtime = app().app.ctx.processes() as unknown as { fireDueTimers(): Promise<number>; whenIdle(): Promise<void> };
    app().clock.advance(25 * 3_600_000);
    await runtime.fireDueTimers();
    await runtime.whenIdle();
    const page = await newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);
    await page.goto(`${app().url}/admin/storage-health`);
    await page.getByTestId('storage-health-shards').waitFor();
    expect(await page.getByTestId('storage-health-shards').locator('tbody tr').count()).toBe(4);
    await expect.poll(() => page.getByTestId('storage-health-scrub').innerText()).toMatch(/chunks checked, 0 repaired, 0 lost/);
    expect(await page.getByTestId('storage-health-collection').innerText()).toMatch(/stored chunks belong to no file; 0 chunks deleted, 0 keys destroyed/);
    await stepShots('console-storage-health')(page, 'storage-health');
    await page.context().close();
  });
});

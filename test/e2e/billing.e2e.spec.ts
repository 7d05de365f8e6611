import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const PROFESSIONAL_MONTHLY = 200;

const { app, signUpConfirmed, signIn, webSignIn: signInThroughForm, consoleSignIn, submitSignIn, newPage } = e2eSuite({ admin: ROOT });

const DAY = 86_400_000;
const tag = Date.now().toString(36).toUpperCase();
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const staff = async () => {
  const http = new HttpClient(app().url);
  const res = await http.post('/api/sessions/', ROOT);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return http;
};

describe('plans and billing in the browser', () => {
  it('a new user on Basic upgrades to Professional with a promo code through the test checkout, sees 500 GB, cancels and keeps the plan until its end', async () => {
    const shot = stepShots('billing-upgrade');
    const code = `HALF${tag}`;
    const root = await staff();
    const created = await root.post('/api/admin/promocodes/', {
      code,
      title: 'Half price for the first months',
      status: 'active',
      productIds: [PROFESSIONAL_MONTHLY],
      cycles: 3,
      discount: { amount: 50, unit: 'percent' },
      startDate: `${dayFromNow(-1)}T00:00:00.000Z`,
      expiryDate: `${dayFromNow(30)}T00:00:00.000Z`,
      recurrence: 'recurring',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const { email, id: buyerId } = await signUpConfirmed();
    const page = await newPage();
    await signInThroughForm(page, email);

    await page.goto(`${app().url}/storages/management`);
    expect(await page.getByTestId('storage-plan-name').innerText()).toBe('Basic');
    expect(await page.getByTestId('storage-quota').innerText()).toContain('10 GB');
    await shot(page, 'storage-basic');

    await page.getByTestId('storage-plans').click();
    await page.getByTestId('plans-page').waitFor();
    expect(await page.getByTestId('plan-price-professional').innerText()).toContain('$19.99');
    await page.getByTestId('plans-cycle-yearly').click();
    expect(await page.getByTestId('plan-price-professional').innerText()).toContain('$199.90');
    await page.getByTestId('plans-cycle-monthly').click();
    await shot(page, 'plans');
    await page.getByTestId('plan-choose-professional').click();

    await page.waitForURL(/\/storages\/checkout/);
    await page.getByTestId('checkout-summary').waitFor();
    await page.getByTestId('checkout-promo').fill('NOSUCHCODE');
    await page.getByTestId('checkout-pay').click();
    await page.getByText('Promo code is invalid').waitFor();
    await shot(page, 'promo-invalid');
    await page.getByTestId('checkout-promo').fill(code);
    // the code's price shows before paying: half price for three payments, then the plan's own
    await page.getByTestId('checkout-promo-apply').click();
    await page.getByTestId('checkout-promo-terms').waitFor();
    expect(await page.getByTestId('checkout-price').innerText()).toContain('$10.00');
    expect(await page.getByTestId('checkout-promo-terms').innerText()).toContain('$10.00 / month for the first 3 payments, then $19.99 / month');
    expect(await page.getByTestId('checkout-due-today').innerText()).toBe('Due today: $10.00');
    await shot(page, 'promo-applied');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'promo-applied-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('checkout-pay').click();

    await page.waitForURL(/\/dev\/checkout\//);
    expect(await page.getByTestId('amount').innerText()).toContain('10.00');
    // the stand-in says what it is, in its own style (inline, as its content security policy allows)
    expect(await page.getByTestId('test-provider').innerText()).toContain('TEST PAYMENT PROVIDER');
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('[data-testid=pay]')).backgroundColor`)).toBe('rgb(31, 95, 191)');
    await shot(page, 'test-checkout');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'test-checkout-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('pay').click();

    await page.waitForURL(/\/storages\/result/);
    await page.getByTestId('payment-result-success').waitFor();
    await shot(page, 'result-success');
    await page.getByTestId('payment-result-subscription').click();

    await page.waitForURL(/\/subscription\/manage/);
    await page.getByTestId('subscription-plan-name').filter({ hasText: 'Professional' }).waitFor();
    expect(await page.getByTestId('subscription-storage').innerText()).toContain('500 GB');
    await page.getByTestId('subscription-next-payment').waitFor();
    // the next payment is the code's second cycle, not the plan's $19.99
    expect(await page.getByTestId('subscription-next-payment').innerText()).toMatch(/^Next payment: \$10\.00 on /);
    expect(await page.getByTestId('subscription-promo').innerText()).toBe(`Promo code ${code}: 2 more payments at the promo price, then $19.99`);
    await page.getByTestId('payment-row').first().waitFor();
    expect(await page.getByTestId('payments-table').innerText()).toContain('$10.00');
    await shot(page, 'subscription-professional');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'subscription-professional-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // staff read the same next payment on the user's plan tab
    const staffPage = await newPage();
    await consoleSignIn(staffPage, ROOT.email, ROOT.password);
    await staffPage.goto(`${app().url}/admin/users/${encodeURIComponent(buyerId)}/show/plan`);
    const nextAmount = staffPage.getByTestId('user-subscription-next-amount');
    await nextAmount.waitFor();
    expect(await nextAmount.innerText()).toContain('$10.00');
    expect(await nextAmount.innerText()).toContain(`${code}: 2 more payments at this price, then $19.99`);
    await shot(staffPage, 'console-next-payment');
    // the code is in use now: its delete confirmation says how often, and what deleting it does
    await staffPage.goto(`${app().url}/admin/promocodes/${encodeURIComponent(code)}/show`);
    await staffPage.getByTestId('promo-show-code').filter({ hasText: code }).waitFor();
    await staffPage.getByTestId('promo-delete').click();
    const confirm = staffPage.getByRole('dialog');
    await confirm.getByText('It has been used 1 time.', { exact: false }).waitFor();
    expect(await confirm.innerText()).toContain('keeps its price for the payments it has left');
    await shot(staffPage, 'console-promo-delete-in-use');
    await confirm.getByRole('button', { name: /cancel/i }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await root.get(`/api/admin/promocodes/${code}`)).status).toBe(200);
    await staffPage.context().close();

    await page.getByTestId('subscription-cancel').click();
    await page.getByTestId('subscription-cancel-confirm').click();
    await page.getByTestId('subscription-ends').waitFor();
    expect(await page.getByTestId('subscription-ends').innerText()).toContain('Professional');
    expect(await page.getByTestId('subscription-plan-name').innerText()).toBe('Professional');
    expect(await page.getByTestId('subscription-storage').innerText()).toContain('500 GB');
    await shot(page, 'subscription-canceled');
    await page.context().close();
  });

  it('each plan card lists what the plan includes from the catalogue (accounts, shares, Secure Fetch, features), and fits a phone', async () => {
    const shot = stepShots('billing-plan-cards');
    const { email } = await signUpConfirmed();
    const page = await newPage();
    await signInThroughForm(page, email);
    await page.goto(`${app().url}/storages/plans`);
    await page.getByTestId('plans-page').waitFor();
    const lines = async (plan: string) => (await page.getByTestId(`plan-includes-${plan}`).locator('li').allInnerTexts()).map((l) => l.trim());
    expect(await lines('starter')).toEqual(['20 shares a month', '5 Secure Fetch requests a month', 'Shared files up to 10 MiB each']);
    expect(await lines('professional')).toEqual([
      'Unlimited shares',
      'Unlimited Secure Fetch requests',
      'Shared files of any size',
      'E-signatures',
      'End-to-end encryption',
      'Two-factor authentication',
      'Backup',
    ]);
    expect(await lines('team')).toContain('10 accounts included');
    expect(await lines('group')).toContain('100 GB of storage shared by the group');
    await shot(page, 'desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'phone');
    await page.context().close();
  });

  it('staff create, edit, toggle and delete a promo code in the console', async () => {
    const shot = stepShots('billing-console-promocodes');
    const code = `CONSOLE${tag}`;
    const page = await newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);

    await page.getByTestId('menu-promocodes').click();
    await page.getByTestId('promocodes-create').click();
    await page.getByTestId('promo-code').fill(code);
    await page.getByTestId('promo-title').fill('Spring offer');
    await page.getByLabel('Products').click();
    await page.getByRole('option', { name: 'Professional (monthly)' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('promo-save').click();
    await page.getByText('This field is required').first().waitFor();
    await shot(page, 'create-refused');

    await page.getByTestId('promo-start').fill(dayFromNow(10));
    await page.getByTestId('promo-expiry').fill(dayFromNow(5));
    await page.getByTestId('promo-save').click();
    await page.getByText('The expiry date must be after the start date').waitFor();
    await page.getByText('Give a price, a discount, a free trial or extra storage').first().waitFor();
    await shot(page, 'create-rules');
    await page.getByTestId('promo-price').fill('0.99');
    await page.getByTestId('promo-start').fill(dayFromNow(-1));
    await page.getByTestId('promo-expiry').fill(dayFromNow(40));
    await page.getByTestId('promo-save').click();

    await page.getByTestId('promo-show-code').filter({ hasText: code }).waitFor();
    expect(await page.getByTestId('promo-products-shown').innerText()).toBe('Professional (monthly)');
    await shot(page, 'created');

    await page.getByTestId('promo-edit').click();
    await page.getByTestId('promo-title').fill('Spring offer, extended');
    await page.getByTestId('promo-save').click();
    await page.getByTestId('promo-show-title').filter({ hasText: 'Spring offer, extended' }).waitFor();

    const status = page.getByTestId(`promo-status-${code}`);
    expect(await status.innerText()).toBe('Active');
    await page.getByTestId(`promo-toggle-${code}`).click();
    await status.filter({ hasText: 'Inactive' }).waitFor();
    await shot(page, 'toggled');
    const root = await staff();
    expect((await root.get(`/api/admin/promocodes/${code}`)).body.status).toBe('inactive');

    await page.getByTestId('promo-delete').click();
    await page.getByRole('dialog').getByText('It has not been used yet. Deleting it stops every new use.').waitFor();
    await page.getByRole('button', { name: /confirm/i }).click();
    await page.waitForURL(/\/admin\/promocodes(\?|$)/);
    await page.getByTestId('promocodes-table').or(page.getByTestId('promocodes-empty')).first().waitFor();
    expect(await page.locator('body').innerText()).not.toContain(code);
    expect((await root.get(`/api/admin/promocodes/${code}`)).status).toBe(404);
    await shot(page, 'deleted');
    await page.context().close();
  });

  it("staff change a user's plan on the user's page and read revenue and subscriptions by plan on the billing dashboard", async () => {
    const shot = stepShots('billing-console-plan');
    const { id } = await signUpConfirmed();
    const page = await newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);

    await page.goto(`${app().url}/admin/users/${encodeURIComponent(id)}/show/plan`);
    await page.getByTestId('user-billing-plan').filter({ hasText: 'Plan: Basic' }).waitFor();
    await page.getByTestId('user-change-plan').click();
    await page.getByLabel('New plan').click();
    await page.getByRole('option', { name: 'Team (monthly)' }).click();
    await page.getByTestId('user-change-plan-save').click();
    await page.getByTestId('user-billing-plan').filter({ hasText: 'Plan: Team' }).waitFor();
    expect(await page.getByTestId('user-billing-plan').innerText()).toContain('1024 GB');
    expect(await page.getByTestId('user-subscriptions').innerText()).toContain('Team');
    await shot(page, 'plan-changed');
    // the change is in the user's activity log, with who made it
    await page.getByTestId('user-tab-activity').click();
    const planChange = page.getByTestId('user-activity').locator('[data-testid="activity-row"][data-type="PlanChangedByStaff"]').first();
    await planChange.waitFor();
    expect(await planChange.getByTestId('activity-sentence').innerText()).toBe('Plan changed by staff from Basic to Team');
    expect(await planChange.getByTestId('activity-actor').innerText()).toBe(ROOT.email);

    await page.getByTestId('menu-billing').click();
    const revenue = page.getByTestId('billing-revenue');
    await revenue.waitFor();
    expect(await revenue.textContent()).toContain('Professional');
    expect(await page.getByTestId('billing-subscriptions').textContent()).toContain('Team');
    expect(Number(await page.getByTestId('billing-active-total').innerText())).toBeGreaterThanOrEqual(1);
    await shot(page, 'dashboard');
    await page.context().close();
  });

  it('a Team owner buys two extra member slots on /storages/slots through the test checkout and unsubscribes them', async () => {
    const shot = stepShots('billing-slots');
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const bought = await http.post(`/api/users/${id}/products/`, { productId: 500 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink, app().url).pathname.split('/').pop()!);
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);

    const page = await newPage();
    await signInThroughForm(page, email);
    await page.goto(`${app().url}/storages/slots`);
    await page.getByTestId('slots-free-seats').filter({ hasText: '1 seat for members' }).waitFor();
    await page.getByTestId('slots-none').waitFor();
    await page.getByTestId('slots-quantity').fill('0');
    expect(await page.getByTestId('slots-buy').isDisabled()).toBe(true);
    await page.getByTestId('slots-quantity').fill('2');
    expect(await page.getByTestId('slots-total').innerText()).toContain('$4.00');
    await shot(page, 'slots-buy');
    await page.getByTestId('slots-buy').click();
    await page.waitForURL(/\/dev\/checkout\//);
    expect(await page.getByTestId('amount').innerText()).toContain('4.00 USD for 2');
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/storages\/result/);

    await page.goto(`${app().url}/storages/slots`);
    await page.getByTestId('slots-free-seats').filter({ hasText: '3 seats for members' }).waitFor();
    const item = page.getByTestId('slots-item');
    expect(await item.innerText()).toContain('2 slots (Extra Team account)');
    await page.getByTestId('slots-unsubscribe').click();
    await item.filter({ hasText: 'Ends on' }).waitFor();
    await shot(page, 'slots-unsubscribed');
    await page.context().close();
  });

  it('a failed renewal warns on every page and offers to pay the overdue renewal; once the grace has ended the user is sent to the plans, where paying it restores the account', async () => {
    const shot = stepShots('billing-grace');
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const bought = await http.post(`/api/users/${id}/products/`, { productId: PROFESSIONAL_MONTHLY });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink, app().url).pathname.split('/').pop()!);
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
    const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    expect((await http.post(`/api/dev/users/${id}/subscriptions/${sub.id}/renewal`, { outcome: 'failed' })).status).toBe(200);
    const [grace] = (await http.get(`/api/users/${id}/grace-period-info/`)).body;

    const page = await newPage();
    await signInThroughForm(page, email);
    const banner = page.getByTestId('non-payment-banner');
    // the dates and the amount arrive with the grace item, after the generic warning
    await banner.filter({ hasText: 'Pay $19.99 by' }).waitFor();
    expect(await banner.innerText()).toContain('Your last payment failed');
    await shot(page, 'grace-banner');
    // "Pay now" opens the payment page of the overdue renewal itself
    await page.getByTestId('non-payment-pay').click();
    await page.waitForURL(/\/dev\/checkout\//);
    await page.getByTestId('overdue').waitFor();
    expect(await page.getByTestId('amount').innerText()).toContain('19.99 USD');
    await shot(page, 'overdue-checkout');
    await page.context().close();

    const runtime = app().app.ctx.processes();
    if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
    app().clock.advance(Date.parse(grace.gracePeriodEndDate) + DAY - app().clock.now().getTime());
    await runtime.fireDueTimers();
    await runtime.whenIdle();

    const later = await newPage();
    await submitSignIn(later, email);
    await later.waitForURL(/\/storages\/plans/);
    await later.getByTestId('grace-notice').filter({ hasText: 'Your account is deactivated' }).waitFor();
    await shot(later, 'deactivated-plans');
    await later.goto(`${app().url}/settings`);
    await later.waitForURL(/\/storages\/plans/);
    // paying the overdue renewal from there restores the account
    await later.getByTestId('grace-notice').getByTestId('non-payment-pay').click();
    await later.waitForURL(/\/dev\/checkout\//);
    await later.getByTestId('pay').click();
    await later.waitForURL(/\/storages\/result/);
    await later.goto(`${app().url}/settings`);
    await later.waitForURL(/\/settings/);
    expect((await (await signIn(email)).http.get(`/api/users/${id}/`)).body).toMatchObject({ status: 'active', isUnpaidUser: false, isGraceUnpaidUser: false });
    await later.context().close();
  });
});

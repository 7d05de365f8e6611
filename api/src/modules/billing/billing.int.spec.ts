import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, useTestApp } from '../../testing/harness';
import { BillingService } from './billing.service';
import { renewDueTestSubscriptions } from './payments/test-renewals';

const GB = 1_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const helpers = accountHelpers(t);
const { uniqueEmail, signIn, PASSWORD } = helpers;
/** A confirmed account, signed in. */
const signUpConfirmed = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  return { http: (await signIn(email)).http, id, email };
};
const root = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;
const staffOf = async (role: 'admin' | 'financial_admin') => {
  const email = uniqueEmail(role.replace('_', '-'));
  expect((await (await root()).post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role })).status).toBe(201);
  return (await signIn(email)).http;
};

let seq = 0;
const promo = (over: Record<string, unknown> = {}) => ({
  code: `CODE${Date.now().toString(36).toUpperCase()}${++seq}`,
  title: 'Half price',
  productIds: [200],
  discount: { amount: 50, unit: 'percent' },
  startDate: new Date(t().clock.now().getTime() - DAY).toISOString(),
  expiryDate: new Date(t().clock.now().getTime() + 30 * DAY).toISOString(),
  ...over,
});

/** Through the test provider's own page and its Pay (or Decline) button's call. */
const checkout = async (http: HttpClient, userId: string, body: Record<string, unknown>, action: 'pay' | 'decline' = 'pay') => {
  const bought = await http.post(`/api/users/${userId}/products/`, body);
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const link = new URL(bought.body.checkoutLink as string);
  expect(link.pathname).toMatch(/^\/dev\/checkout\//);
  const page = await fetch(link);
  const html = await page.text();
  expect(html).toContain('Test payment');
  expect(html).toContain('<script src="/dev/checkout/checkout.js">');
  const sessionId = decodeURIComponent(link.pathname.slice('/dev/checkout/'.length));
  const done = await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/${action}`);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { html, done: done.body, sessionId };
};

describe('catalogue and entitlements', () => {
  it('lists the products with prices in minor units, 100 a page', async () => {
    const res = await new HttpClient(t().url).get('/api/products/');
    expect(res.status).toBe(200);
    const pro = res.body.find((p: { id: number }) => p.id === 200);
    expect(pro).toMatchObject({ name: 'Professional', price: 1999, validity: 'month', type: 'plan', assets: { quota: { sizeTotal: 500 * GB } } });
    expect(res.body.find((p: { id: number }) => p.id === 1002)).toMatchObject({ name: 'Enterprise', price: 400000, weight: 300 });
    expect((await new HttpClient(t().url).get('/api/products/?perPage=101')).status).toBe(400);
  });

  it('a new user is on Basic: 10 GB, 5 shares and 5 fetches a month', async () => {
    const { http, id } = await signUpConfirmed();
    const me = await http.get(`/api/users/${id}/`);
    expect(me.body).toMatchObject({
      isBasic: true,
      isProfessional: false,
      userPlanInfo: {
        productName: 'Basic',
        assets: { quota: { sizeTotal: 10 * GB }, 'secure-share': { maxCountPerPeriod: 5 }, 'secure-fetch': { maxCountPerPeriod: 5 } },
      },
    });
    expect((await http.get(`/api/users/${id}/plan/`)).body).toMatchObject({ productId: 1, quotaBytes: 10 * GB, paymentDelay: false });
    expect((await http.get(`/api/users/${id}/products/`)).body).toEqual([
      { productId: 1, productType: 'free-plan', status: 'active', subscriptionId: null, quantity: 1 },
    ]);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);
    expect((await http.get(`/api/users/${id}/member-role/`)).body).toMatchObject({ role: null, freeSeats: 5 });
  });

  it("another user's billing is not yours", async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    for (const path of ['plan/', 'subscriptions/', 'payments/', 'products/', 'product-assets/', 'grace-period-info/']) {
      expect((await a.http.get(`/api/users/${b.id}/${path}`)).status, path).toBe(403);
    }
    expect((await a.http.post(`/api/users/${b.id}/products/`, { productId: 200 })).status).toBe(403);
  });
});

describe('upgrade with a promo code through the test checkout', () => {
  it('Basic -> Professional at half price; 500 GB and the paid features; cancel keeps the plan until its end date', async () => {
    const staff = await root();
    const code = promo({ numberOfUses: 1 });
    const created = await staff.post('/api/admin/promocodes/', code);
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const { http, id, email } = await signUpConfirmed();
    const storageOf = async () => (await http.get(`/api/users/${id}/storages/`)).body.data.find((s: { type: string }) => s.type === 'online');
    expect((await storageOf()).sizeTotal).toBe(10 * GB);
    const offer = await http.get(`/api/promocode-products/?code=${code.code.toLowerCase()}`);
    expect(offer.body).toEqual([expect.objectContaining({ productId: 200, price: 1999, promoPrice: 1000, dueToday: 1000 })]);

    const { html, done } = await checkout(http, id, { productId: 200, promoCode: code.code.toLowerCase() });
    expect(html).toContain('10.00 USD');
    expect(done).toMatchObject({ status: 'paid', test: true });
    expect(done.redirectTo).toMatch(/^\/storages\/result\?status=paid/);

    const me = (await http.get(`/api/users/${id}/`)).body;
    expect(me).toMatchObject({
      isProfessional: true,
      isBasic: false,
      hasE2EEAccess: true,
      userPlanInfo: { productName: 'Professional', assets: { quota: { sizeTotal: 500 * GB } } },
    });
    expect(me.planFeatures).toEqual(expect.arrayContaining(['esign', 'e2ee', 'two-factor', 'backup']));
    expect(me.permissions).toEqual(expect.arrayContaining(['unlimited-shared-file-size', 'storage-encryption']));
    expect((await http.get(`/api/users/${id}/features/`)).body).toEqual(expect.arrayContaining(['esign', 'secure-fetch']));
    // the storage holds what the plan gives
    expect((await storageOf()).sizeTotal).toBe(500 * GB);

    const payments = (await http.get(`/api/users/${id}/payments/`)).body;
    expect(payments).toMatchObject({ total: 1, data: [{ amount: 1000, promoCode: code.code, test: true, description: 'test payment', status: 'succeeded' }] });
    const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    expect(sub).toMatchObject({ productId: 200, status: 'active', cancelSubscriptionAction: true, test: true });

    // the code had one use
    const other = await signUpConfirmed();
    const used = await other.http.post(`/api/users/${other.id}/products/`, { productId: 200, promoCode: code.code });
    expect(used.body).toMatchObject({ code: 5015, message: 'Promo code quota reached' });
    expect((await staff.get(`/api/admin/promocodes/${code.code}`)).body).toMatchObject({ usedTimes: 1 });

    const canceled = await http.post(`/api/users/${id}/subscriptions/${sub.id}/`, { action: 'cancel' });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', endDate: sub.nextPaymentDate, cancelSubscriptionAction: false });
    expect((await http.post(`/api/users/${id}/subscriptions/${sub.id}/`, { action: 'cancel' })).body.code).toBe('SUBSCRIPTION_ALREADY_CANCELED');
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ isProfessional: true });

    t().clock.advance(32 * DAY);
    try {
      // the session ran out meanwhile
      const again = (await signIn(email)).http;
      const after = (await again.get(`/api/users/${id}/`)).body;
      expect(after).toMatchObject({ isBasic: true, userPlanInfo: { productName: 'Basic', assets: { quota: { sizeTotal: 2 * GB } } } });
      expect((await again.get(`/api/users/${id}/subscriptions/`)).body).toEqual([]);
      expect((await again.get(`/api/users/${id}/subscriptions/?status=ended`)).body).toMatchObject([{ id: sub.id, status: 'ended' }]);
    } finally {
      t().clock.advance(-32 * DAY);
    }
  });

  it('answers 5007 for an unknown code, 5010 for one switched off, and a declined checkout changes nothing', async () => {
    const staff = await root();
    const code = promo();
    expect((await staff.post('/api/admin/promocodes/', code)).status).toBe(201);
    const { http, id } = await signUpConfirmed();
    expect((await http.post(`/api/users/${id}/products/`, { productId: 200, promoCode: 'NOSUCHCODE' })).body).toMatchObject({
      code: 5007,
      message: 'Promo code is invalid',
    });
    expect((await http.post(`/api/users/${id}/products/`, { productId: 100, promoCode: code.code })).body.code).toBe(5007);
    expect((await staff.post(`/api/admin/promocodes/${code.code}/toggle`)).body).toMatchObject({ status: 'inactive' });
    expect((await http.post(`/api/users/${id}/products/`, { productId: 200, promoCode: code.code })).body).toMatchObject({
      code: 5010,
      message: 'Promo code is no longer active',
    });
    expect((await http.get(`/api/promocode-products/?code=${code.code}`)).body.code).toBe(5010);

    const { done } = await checkout(http, id, { productId: 100 }, 'decline');
    expect(done.redirectTo).toMatch(/status=declined/);
    expect((await http.get(`/api/users/${id}/`)).body.isBasic).toBe(true);
    expect((await http.get(`/api/users/${id}/subscriptions/`)).body).toEqual([]);
  });

  it('a plan change waits for the current plan; the same plan again is refused', async () => {
    const { http, id } = await signUpConfirmed();
    await checkout(http, id, { productId: 100 });
    expect((await http.post(`/api/users/${id}/products/`, { productId: 100 })).body.code).toBe('PLAN_CHANGE_NOT_ALLOWED');
    await checkout(http, id, { productId: 201 });
    const subs = (await http.get(`/api/users/${id}/subscriptions/`)).body as { productId: number; status: string; startDate: string }[];
    expect(subs.map((s) => [s.productId, s.status]).sort()).toEqual([
      [100, 'canceled'],
      [201, 'pending'],
    ]);
    expect((await http.get(`/api/users/${id}/subscriptions/?status=pending`)).body).toHaveLength(1);
    expect((await http.get(`/api/users/${id}/plan/`)).body.kind).toBe('starter');
  });

  it('a failed renewal shows grace information; a late payment clears it', async () => {
    const { http, id } = await signUpConfirmed();
    await checkout(http, id, { productId: 200 });
    const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    expect((await http.post(`/api/dev/users/${id}/subscriptions/${sub.id}/renewal`, { outcome: 'failed' })).status).toBe(200);
    const [grace] = (await http.get(`/api/users/${id}/grace-period-info/`)).body;
    expect(grace).toMatchObject({
      subscriptionId: sub.id,
      graceType: 'start',
      subscriptionStatus: 'active',
      deleteProductAction: true,
      cost: 1999,
      planCycle: 'month',
    });
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ isGraceUnpaidUser: true, isUnpaidUser: false });
    expect((await http.get(`/api/users/${id}/payments/`)).body.data[0]).toMatchObject({ status: 'failed' });
    expect((await http.post(`/api/dev/users/${id}/subscriptions/${sub.id}/renewal`, { outcome: 'paid' })).status).toBe(200);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);
    expect((await http.get(`/api/users/${id}/payments/?perPage=1&sort=createdAt`)).body).toMatchObject({ total: 3, data: [{ status: 'succeeded' }] });
  });
});

describe('extra member slots', () => {
  it('a team owner buys slots (more free seats) and unsubscribes them; slots for a plan not held are refused', async () => {
    const { http, id } = await signUpConfirmed();
    expect((await http.post(`/api/users/${id}/products/`, { productId: 520, quantity: 2 })).body.code).toBe('PLAN_CHANGE_NOT_ALLOWED');
    await checkout(http, id, { productId: 500 });
    expect((await http.get(`/api/users/${id}/member-role/`)).body).toMatchObject({ role: 'admin', freeSeats: 1 });
    const { html } = await checkout(http, id, { productId: 520, quantity: 2 });
    expect(html).toContain('4.00 USD');
    expect((await http.get(`/api/users/${id}/member-role/`)).body.freeSeats).toBe(3);
    expect((await http.get(`/api/users/${id}/product-assets/`)).body).toMatchObject({
      quota: { sizeTotal: 1024 * GB },
      'secure-share': { maxCountPerPeriod: null },
    });
    const slots = (await http.get(`/api/users/${id}/subscriptions/?productType=extra-members`)).body;
    expect(slots).toMatchObject([{ productId: 520, quantity: 2, price: 400 }]);
    expect((await http.post(`/api/users/${id}/subscriptions/${slots[0].id}/`, { action: 'cancel' })).body).toMatchObject({ status: 'canceled' });
    expect((await http.get(`/api/users/${id}/products/`)).body.map((p: { productId: number }) => p.productId).sort()).toEqual([500, 520]);
  });
});

describe('a fixed-price promo code on extra seats', () => {
  it('charges its price per seat: 100 seats at 0.99 check out at 99.00 and grant 100 seats', async () => {
    const code = promo({ productIds: [520], discount: null, price: 99 });
    expect((await (await root()).post('/api/admin/promocodes/', code)).status).toBe(201);
    const { http, id } = await signUpConfirmed();
    await checkout(http, id, { productId: 500 });
    const { html } = await checkout(http, id, { productId: 520, quantity: 100, promoCode: code.code });
    expect(html).toContain('99.00 USD</strong> for 100');
    expect((await http.get(`/api/users/${id}/member-role/`)).body.freeSeats).toBe(1 + 100);
    const slots = (await http.get(`/api/users/${id}/subscriptions/?productType=extra-members`)).body;
    expect(slots).toMatchObject([{ productId: 520, quantity: 100, promoCode: code.code }]);
    const payments = (await http.get(`/api/users/${id}/payments/?subscriptionId=${slots[0].id}`)).body.data;
    expect(payments.map((p: { amount: number }) => p.amount)).toEqual([9900]);
  });
});

describe('the test provider renews on the next payment date', () => {
  it('pays each due renewal once, at the promo price while its cycles last', async () => {
    const code = promo({ productIds: [100], discount: null, price: 99, cycles: 2, recurrence: 'recurring' });
    expect((await (await root()).post('/api/admin/promocodes/', code)).status).toBe(201);
    const { id, email } = await signUpConfirmed();
    const { http } = await signIn(email);
    await checkout(http, id, { productId: 100, promoCode: code.code });
    const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    // the next payment is the code's second cycle, not the product's $9.99
    const promoNext = { date: sub.nextPaymentDate, amount: 99, regularAmount: 999, promoCode: code.code, promoPaymentsLeft: 1, currency: 'USD' };
    expect(sub).toMatchObject({ price: 999, nextPayment: promoNext });
    expect((await http.get(`/api/users/${id}/plan/`)).body.nextPayment).toEqual(promoNext);
    const staffView = (await (await root()).get(`/api/admin/users/${id}/billing`)).body;
    expect(staffView.subscriptions[0].nextPayment).toEqual(promoNext);
    expect(staffView.plan.nextPayment).toEqual(promoNext);
    const service = new BillingService(t().app.ctx, () => null);
    expect(await renewDueTestSubscriptions(t().app.ctx, service)).toBe(0);
    const jump = Date.parse(sub.nextPaymentDate) - t().clock.now().getTime() + DAY;
    t().clock.advance(jump);
    try {
      expect(await renewDueTestSubscriptions(t().app.ctx, service)).toBeGreaterThanOrEqual(1);
      const again = (await signIn(email)).http;
      const renewed = (await again.get(`/api/users/${id}/subscriptions/${sub.id}/`)).body;
      expect(Date.parse(renewed.nextPaymentDate)).toBeGreaterThan(Date.parse(sub.nextPaymentDate));
      const payments = (await again.get(`/api/users/${id}/payments/?sort=createdAt`)).body;
      expect(payments.data.map((p: { amount: number }) => p.amount)).toEqual([99, 99]);
      // the code's cycles are used up: the next payment is the product's price
      expect(renewed.nextPayment).toEqual({
        date: renewed.nextPaymentDate,
        amount: 999,
        regularAmount: 999,
        promoCode: null,
        promoPaymentsLeft: 0,
        currency: 'USD',
      });
      // the same due date is paid once, whoever runs the check
      await renewDueTestSubscriptions(t().app.ctx, service);
      expect((await again.get(`/api/users/${id}/payments/`)).body.total).toBe(2);
    } finally {
      t().clock.advance(-jump);
    }
  });
});

describe('promo codes in the console', () => {
  it('creates, lists with Content-Range, edits, toggles and deletes; delete needs admin:promocode:delete', async () => {
    const admin = await staffOf('admin');
    const money = await staffOf('financial_admin');
    const code = promo({ title: 'Console code' });
    const created = await admin.post('/api/admin/promocodes/', code);
    expect(created.body).toMatchObject({ id: code.code, code: code.code, status: 'active', usedTimes: 0, productIds: [200] });

    const list = await admin.get(`/api/admin/promocodes/?range=[0,9]&sort=["createdAt","DESC"]&filter=${encodeURIComponent(JSON.stringify({ q: code.code }))}`);
    expect(list.headers.get('content-range')).toBe('promocodes 0-0/1');
    expect(list.body[0].id).toBe(code.code);

    const edited = await admin.put(`/api/admin/promocodes/${code.code}`, { ...created.body, title: 'Renamed', discount: { amount: 20, unit: 'percent' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Renamed', discount: { amount: 20, unit: 'percent' } });

    expect((await admin.post(`/api/admin/promocodes/${code.code}/toggle`)).body.status).toBe('inactive');
    expect((await admin.post(`/api/admin/promocodes/${code.code}/toggle`)).body.status).toBe('active');

    const refused = await admin.delete(`/api/admin/promocodes/${code.code}`);
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ feature: 'admin:promocode:delete' });
    expect((await money.delete(`/api/admin/promocodes/${code.code}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/promocodes/${code.code}`)).status).toBe(404);

    expect((await admin.get('/api/admin/promocode-products/')).body.length).toBeGreaterThan(5);
    const user = await signUpConfirmed();
    expect((await user.http.get('/api/admin/promocodes/')).status).toBe(403);
  });

  it('applies the rules of §5 to the form', async () => {
    const admin = await staffOf('admin');
    const post = (over: Record<string, unknown>) => admin.post('/api/admin/promocodes/', promo(over));
    expect((await post({ title: '' })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ productIds: [] })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ expiryDate: new Date(t().clock.now().getTime() - 2 * DAY).toISOString() })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ extraQuotaBytes: 0 })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ customFields: [{ name: 'state', maxLength: 21 }] })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ customFields: [{ name: 'barNumber', maxLength: 5, maxValue: 10001 }] })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ price: 99 })).body).toMatchObject({ code: 'PROMO_INVALID_PRICE', message: 'Invalid promo discount or price' });
    expect((await post({ discount: { amount: 150, unit: 'percent' } })).body.code).toBe('PROMO_INVALID_PRICE');
    const dup = promo();
    expect((await admin.post('/api/admin/promocodes/', dup)).status).toBe(201);
    expect((await admin.post('/api/admin/promocodes/', { ...dup, code: dup.code.toLowerCase() })).body.code).toBe('PROMO_EXISTS');
  });

  it('a code with custom fields asks for them at checkout', async () => {
    const code = promo({ customFields: [{ name: 'barNumber', maxLength: 5, maxValue: 10000 }] });
    expect((await (await root()).post('/api/admin/promocodes/', code)).status).toBe(201);
    const { http, id } = await signUpConfirmed();
    expect((await http.post(`/api/users/${id}/products/`, { productId: 200, promoCode: code.code })).body).toMatchObject({
      code: 'PROMO_FIELD_REQUIRED',
      data: { field: 'barNumber' },
    });
    expect((await http.post(`/api/users/${id}/products/`, { productId: 200, promoCode: code.code, customFields: { barNumber: '4242' } })).status).toBe(201);
  });
});

describe('a custom plan set up by staff', () => {
  it("shows as the user's pending product until they pay it through its link", async () => {
    const boss = await root();
    const { http, id } = await signUpConfirmed();
    expect((await boss.post(`/api/admin/users/${id}/checkout`, { productId: 200 })).body.code).toBe('PLAN_CHANGE_NOT_ALLOWED');
    const opened = await boss.post(`/api/admin/users/${id}/checkout`, { productId: 1002 });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const me = (await http.get(`/api/users/${id}/`)).body;
    expect(me.pendingProduct).toEqual({ productId: 1002, checkoutLink: opened.body.checkoutLink });
    const page = await (await fetch(opened.body.checkoutLink)).text();
    expect(page).toContain('4000.00 USD');
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(opened.body.checkoutId)}/pay`)).status).toBe(200);
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ pendingProduct: null, isEnterprise: true });
    // a user's own abandoned checkout of an ordinary plan is not pressed on them
    const { http: other, id: otherId } = await signUpConfirmed();
    expect((await other.post(`/api/users/${otherId}/products/`, { productId: 200 })).status).toBe(201);
    expect((await other.get(`/api/users/${otherId}/`)).body.pendingProduct).toBeNull();
  });
});

describe('staff and the billing dashboard', () => {
  it("staff change a user's plan at once; the dashboard counts revenue and subscriptions", async () => {
    const boss = await root();
    const { http, id } = await signUpConfirmed();
    const changed = await boss.post(`/api/admin/users/${id}/plan`, { productId: 1001 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.plan).toMatchObject({ productId: 1001, kind: 'enterprise' });
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ isEnterprise: true, isTeamOwner: true, freeSeats: 1 });
    expect((await boss.get(`/api/admin/users/${id}/billing`)).body.subscriptions[0]).toMatchObject({ productId: 1001, provider: 'staff' });
    expect((await boss.post(`/api/admin/users/${id}/plan`, { productId: 99999 })).body.code).toBe('PRODUCT_NOT_FOUND');

    // the change is in the user's activity log, by whom, beside their account's own events
    const activity = (await boss.get(`/api/admin/users/${id}/activity?perPage=100`)).body as {
      event: string;
      actorKind: string;
      actorEmail: string | null;
      data: Record<string, unknown>;
    }[];
    expect(activity[0]).toMatchObject({
      event: 'PlanChangedByStaff',
      actorKind: 'staff',
      actorEmail: 'root@axel.test',
      data: { plan: 'Enterprise', previousPlan: 'Basic', productId: 1001 },
    });
    expect(activity.map((a) => a.event)).toContain('UserRegistered');
    // checkouts and subscriptions stay out of it
    expect(activity.filter((a) => /Subscription|Checkout|Payment/.test(a.event))).toEqual([]);
    // and in the auditors' activity log, in words
    const audit = (await boss.get(`/api/admin/activity?user=${id}&type=PlanChangedByStaff`)).body;
    expect(audit).toMatchObject([{ type: 'PlanChangedByStaff', sentence: 'Plan changed by staff from Basic to Enterprise' }]);

    const dashboard = (await boss.get('/api/admin/billing/dashboard')).body;
    expect(dashboard.revenueByPlan.find((r: { productId: number }) => r.productId === 200).amount).toBeGreaterThan(0);
    expect(dashboard.activeSubscriptions.find((r: { productId: number }) => r.productId === 1001).count).toBeGreaterThanOrEqual(1);
    expect(typeof dashboard.usersInGrace).toBe('number');
  });
});

describe('without a payment provider', () => {
  it('TEST_PAYMENTS=off: checkouts are refused and the test pages are not served', async () => {
    const off = await startTestApp({ env: { TEST_PAYMENTS: 'off' } });
    try {
      const other = accountHelpers(() => off);
      const { email, id } = await other.signUpConfirmed();
      const { http } = await other.signIn(email);
      const res = await http.post(`/api/users/${id}/products/`, { productId: 200 });
      expect(res.body).toMatchObject({ code: 'PAYMENTS_UNAVAILABLE' });
      expect((await http.get(`/api/users/${id}/subscriptions/`)).body).toEqual([]);
      expect((await fetch(`${off.url}/dev/checkout/x`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});

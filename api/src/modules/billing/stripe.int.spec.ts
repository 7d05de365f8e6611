import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { postStripeWebhook, startFakeStripe, type StripeRequest } from './payments/stripe.testing';

const SECRET = 'whsec_testsecret123';
const DAY = 24 * 60 * 60 * 1000;

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let requests: readonly StripeRequest[] = [];

beforeAll(async () => {
  fake = await startFakeStripe((req, sent) => {
    if (req.url === '/v1/coupons') return { body: { id: `co_${fake.requests.length}`, object: 'coupon' } };
    if (req.url === '/v1/checkout/sessions' && sent.body.get('line_items[0][price_data][product_data][name]') === 'Business') {
      // Stripe having a bad moment
      return { status: 500, body: { error: { type: 'api_error', message: 'down' } } };
    }
    const subscription = /^\/v1\/subscriptions\/(sub_[\w]+)\?/.exec(req.url ?? '');
    if (req.method === 'GET' && subscription) {
      const id = subscription[1]!;
      // sub_due has an unpaid invoice; any other has paid them all
      const invoice =
        id === 'sub_due'
          ? { id: 'in_due', object: 'invoice', status: 'open', hosted_invoice_url: 'https://invoice.stripe.test/i/in_due' }
          : { id: 'in_paid', object: 'invoice', status: 'paid', hosted_invoice_url: 'https://invoice.stripe.test/i/in_paid' };
      return { body: { id, object: 'subscription', latest_invoice: invoice } };
    }
    return undefined;
  });
  requests = fake.requests;
});
afterAll(async () => {
  await fake?.close();
});
const t = useTestApp(() => ({
  env: {
    ADMIN_EMAIL: 'root@axel.test',
    ADMIN_PASSWORD: 'Root-pass-123',
    STRIPE_SECRET_KEY: 'sk_test_axel123',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_URL: fake.url,
    RATE_LIMIT_FACTOR: '10',
  },
}));

const helpers = accountHelpers(t);
const user = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  return { http: (await helpers.signIn(email)).http, id };
};

const webhook = (event: Record<string, unknown>, secret = SECRET) => postStripeWebhook(t().url, event, secret);

const buy = async (http: Awaited<ReturnType<typeof user>>['http'], id: string, body: Record<string, unknown>) => {
  const res = await http.post(`/api/users/${id}/products/`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const sent = requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
  return { ...res.body, sent: sent.body } as { checkoutId: string; checkoutLink: string; sent: URLSearchParams };
};

const completed = (userId: string, checkoutId: string, subscription: string) => ({
  id: `evt_${checkoutId.slice(-8)}`,
  type: 'checkout.session.completed',
  data: { object: { id: 'cs_x', object: 'checkout.session', client_reference_id: checkoutId, metadata: { checkoutId, userId }, subscription } },
});
const invoice = (type: 'invoice.paid' | 'invoice.payment_failed', userId: string, subscription: string, invoiceId: string) => ({
  id: `evt_${invoiceId}`,
  type,
  data: {
    object: {
      id: invoiceId,
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      parent: { type: 'subscription_details', subscription_details: { subscription, metadata: { userId } } },
    },
  },
});

describe('Stripe', () => {
  it('opens a Stripe Checkout session in subscription mode for the product', async () => {
    const { http, id } = await user();
    const { checkoutLink, checkoutId, sent } = await buy(http, id, { productId: 201 });
    expect(checkoutLink).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    expect(sent.get('mode')).toBe('subscription');
    expect(sent.get('line_items[0][price_data][unit_amount]')).toBe('19990');
    expect(sent.get('line_items[0][price_data][recurring][interval]')).toBe('year');
    expect(sent.get('metadata[checkoutId]')).toBe(checkoutId);
    expect(sent.get('subscription_data[metadata][userId]')).toBe(id);
    expect(sent.get('success_url')).toContain('/storages/result?');
    // no test checkout beside a real provider
    expect((await fetch(`${t().url}/dev/checkout/${encodeURIComponent(checkoutId)}`)).status).toBe(404);
  });

  it('a provider failure is a clear 502, never a 500, and no subscription', async () => {
    const { http, id } = await user();
    const res = await http.post(`/api/users/${id}/products/`, { productId: 400 });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'PAYMENT_PROVIDER_FAILED' });
    expect((await http.get(`/api/users/${id}/subscriptions/`)).body).toEqual([]);

    // a promo code's use held for the checkout that could not open is let go
    const staff = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    const code = `DOWN${Date.now().toString(36).toUpperCase()}`;
    const now = t().clock.now().getTime();
    expect(
      (
        await staff.post('/api/admin/promocodes/', {
          code,
          title: 'Down',
          productIds: [400],
          discount: { amount: 10, unit: 'percent' },
          numberOfUses: 1,
          startDate: new Date(now - DAY).toISOString(),
          expiryDate: new Date(now + DAY).toISOString(),
        })
      ).status,
    ).toBe(201);
    expect((await http.post(`/api/users/${id}/products/`, { productId: 400, promoCode: code })).body.code).toBe('PAYMENT_PROVIDER_FAILED');
    expect((await staff.get(`/api/admin/promocodes/${code}`)).body).toMatchObject({ usedTimes: 0, heldUses: 0 });
  });

  it('a promo code becomes a coupon, so renewals after its cycles pay the full price', async () => {
    const staff = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    const code = `HOLIDAY${Date.now().toString(36).toUpperCase()}`;
    const now = t().clock.now().getTime();
    expect(
      (
        await staff.post('/api/admin/promocodes/', {
          code,
          title: 'Holiday',
          productIds: [100],
          price: 99,
          cycles: 3,
          recurrence: 'recurring',
          startDate: new Date(now - DAY).toISOString(),
          expiryDate: new Date(now + DAY).toISOString(),
        })
      ).status,
    ).toBe(201);
    const { http, id } = await user();
    await buy(http, id, { productId: 100, promoCode: code });
    const coupon = requests.filter((r) => r.path === '/v1/coupons').at(-1)!.body;
    expect(coupon.get('amount_off')).toBe(String(999 - 99));
    expect(coupon.get('duration')).toBe('repeating');
    expect(coupon.get('duration_in_months')).toBe('3');
  });

  it('believes only signed webhooks: completion, a failed renewal, a paid one', async () => {
    const { http, id } = await user();
    const { checkoutId } = await buy(http, id, { productId: 200 });

    const forged = await webhook(completed(id, checkoutId, 'sub_forged'), 'whsec_someoneelse');
    expect(forged).toEqual({ status: 400, body: { code: 'WEBHOOK_SIGNATURE_INVALID', message: 'The webhook signature is missing or invalid', data: null } });
    const unsigned = await fetch(`${t().url}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsigned.status).toBe(400);
    expect((await http.get(`/api/users/${id}/`)).body.isBasic).toBe(true);

    expect(await webhook(completed(id, checkoutId, 'sub_123'))).toEqual({ status: 200, body: { received: true } });
    // Stripe delivers at least once: a repeated event changes nothing
    expect((await webhook(completed(id, checkoutId, 'sub_123'))).status).toBe(200);
    const subs = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ productId: 200, provider: 'stripe', test: false, status: 'active' });
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ isProfessional: true });

    expect((await webhook(invoice('invoice.payment_failed', id, 'sub_123', 'in_1'))).status).toBe(200);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body[0]).toMatchObject({ subscriptionId: subs[0].id, graceType: 'start' });
    expect((await webhook(invoice('invoice.paid', id, 'sub_123', 'in_2'))).status).toBe(200);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);
    expect((await http.get(`/api/users/${id}/payments/`)).body.data.map((p: { status: string }) => p.status)).toEqual(['succeeded', 'failed', 'succeeded']);

    // what concerns no known checkout or subscription is received and left alone
    expect((await webhook(invoice('invoice.paid', id, 'sub_unknown', 'in_3'))).body).toEqual({ received: true });
    expect((await webhook(completed(id, `${id}.nosuchcheckout000000`, 'sub_9'))).body).toEqual({ received: true, ignored: 'CHECKOUT_NOT_FOUND' });
    expect((await webhook({ id: 'evt_other', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } })).body).toEqual({
      received: true,
    });
  });

  it('"Pay now" on a Stripe subscription in grace answers its open invoice\'s page; Stripe\'s invoice.paid ends the grace period', async () => {
    const { http, id } = await user();
    const { checkoutId } = await buy(http, id, { productId: 200 });
    expect((await webhook(completed(id, checkoutId, 'sub_due'))).status).toBe(200);
    const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    expect((await http.post(`/api/users/${id}/subscriptions/${sub.id}/pay`)).body.code).toBe('NOTHING_OVERDUE');
    expect((await webhook(invoice('invoice.payment_failed', id, 'sub_due', 'in_due'))).status).toBe(200);
    const due = await http.post(`/api/users/${id}/subscriptions/${sub.id}/pay`);
    expect(due.status, JSON.stringify(due.body)).toBe(201);
    expect(due.body).toMatchObject({ checkoutLink: 'https://invoice.stripe.test/i/in_due', amount: 1999 });
    expect(requests.at(-1)!.path).toMatch(/^\/v1\/subscriptions\/sub_due\?expand/);
    expect((await webhook(invoice('invoice.paid', id, 'sub_due', 'in_due'))).status).toBe(200);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);
    expect((await http.get(`/api/users/${id}/`)).body).toMatchObject({ isGraceUnpaidUser: false, isProfessional: true });
  });

  it("a Stripe checkout holds its promo code's use until Stripe reports the session expired", async () => {
    const staff = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    const code = `ONCE${Date.now().toString(36).toUpperCase()}`;
    const now = t().clock.now().getTime();
    expect(
      (
        await staff.post('/api/admin/promocodes/', {
          code,
          title: 'Once',
          productIds: [200],
          discount: { amount: 10, unit: 'percent' },
          numberOfUses: 1,
          startDate: new Date(now - DAY).toISOString(),
          expiryDate: new Date(now + DAY).toISOString(),
        })
      ).status,
    ).toBe(201);
    const a = await user();
    const b = await user();
    const { checkoutId } = await buy(a.http, a.id, { productId: 200, promoCode: code });
    expect((await b.http.post(`/api/users/${b.id}/products/`, { productId: 200, promoCode: code })).body.code).toBe(5015);
    expect(
      (
        await webhook({
          id: 'evt_exp_promo',
          type: 'checkout.session.expired',
          data: { object: { id: 'cs_p', object: 'checkout.session', metadata: { checkoutId, userId: a.id } } },
        })
      ).status,
    ).toBe(200);
    expect((await staff.get(`/api/admin/promocodes/${code}`)).body).toMatchObject({ usedTimes: 0, heldUses: 0 });
    await buy(b.http, b.id, { productId: 200, promoCode: code });
  });

  it('an expired checkout session is a declined checkout', async () => {
    const { http, id } = await user();
    const { checkoutId } = await buy(http, id, { productId: 100 });
    expect(
      (
        await webhook({
          id: 'evt_exp',
          type: 'checkout.session.expired',
          data: { object: { id: 'cs_e', object: 'checkout.session', metadata: { checkoutId, userId: id } } },
        })
      ).status,
    ).toBe(200);
    expect((await webhook(completed(id, checkoutId, 'sub_late'))).body).toEqual({ received: true, ignored: 'CHECKOUT_CLOSED' });
    expect((await http.get(`/api/users/${id}/subscriptions/`)).body).toEqual([]);
  });
});

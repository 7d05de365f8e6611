import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';
import { postStripeWebhook, startFakeStripe, type StripeRequest } from '../billing/payments/stripe.testing';
import { nextBlockOf } from './wallet.testing';

const SECRET = 'whsec_replenish123';

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let requests: readonly StripeRequest[] = [];

beforeAll(async () => {
  fake = await startFakeStripe();
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

const nextBlock = nextBlockOf(t, 150);

let events = 0;
const webhook = (event: Record<string, unknown>, secret = SECRET) => postStripeWebhook(t().url, { id: `evt_${++events}`, ...event }, secret);

const session = (type: string, checkoutId: string, userId: string, extra: Record<string, unknown> = {}) => ({
  type,
  data: {
    object: {
      id: 'cs_x',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      client_reference_id: checkoutId,
      metadata: { checkoutId, userId },
      ...extra,
    },
  },
});

const withWallet = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  return { http, id };
};

const replenish = async (http: HttpClient, amount: string) => {
  const res = await http.post('/api/wallet/v1/replenish', { amount });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const sent = requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
  return { ...(res.body as { checkoutId: string; checkoutLink: string }), sent: sent.body };
};

const treasurySends = async () => {
  const wallet = await t().app.wallet.walletOf(t().app.ctx);
  const page = await wallet.chain.transactions(await wallet.treasury(), { page: 1, perPage: 1000 });
  return page.data.filter((tx) => tx.category === 'send').length;
};

describe('replenish through Stripe', () => {
  let root: HttpClient;
  beforeAll(async () => {
    root = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    expect((await root.post('/api/wallet/v1/faucet', { amount: '1000', to: 'treasury' })).status).toBe(200);
    await nextBlock(root);
  });

  it('opens a payment-mode Checkout; a signed completion sends the tokens once, a replayed webhook sends nothing more', async () => {
    const { http, id } = await withWallet();
    const { checkoutId, checkoutLink, sent } = await replenish(http, '2.5');
    expect(checkoutLink).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    expect(sent.get('mode')).toBe('payment');
    expect(sent.get('line_items[0][price_data][unit_amount]')).toBe('250');
    expect(sent.get('line_items[0][price_data][recurring][interval]')).toBeNull();
    expect(sent.get('metadata[checkoutId]')).toBe(checkoutId);
    expect(sent.get('success_url')).toContain('/wallet/replenish?');
    expect(sent.get('success_url')).toContain('status=paid');
    expect(sent.get('cancel_url')).toContain('status=declined');

    // a forged report is refused and sends nothing
    const before = await treasurySends();
    expect((await webhook(session('checkout.session.completed', checkoutId, id), 'whsec_someoneelse')).status).toBe(400);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });

    const completed = session('checkout.session.completed', checkoutId, id);
    expect(await webhook(completed)).toEqual({ status: 200, body: { received: true } });
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '2.5' });
    // Stripe delivers at least once: the same event again, and a new event for the same session
    expect((await webhook({ ...completed, id: `evt_${events}` })).status).toBe(200);
    expect((await webhook(completed)).status).toBe(200);
    expect(await treasurySends()).toBe(before + 1);
    await nextBlock(http);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '2.5', unconfirmed: '0' });
    // a late expiry of a paid session changes nothing
    expect((await webhook(session('checkout.session.expired', checkoutId, id))).body).toEqual({ received: true, ignored: 'CHECKOUT_CLOSED' });
  });

  it('an expired session or a failed delayed payment sends nothing, and nothing afterwards', async () => {
    const { http, id } = await withWallet();
    const before = await treasurySends();
    const expired = await replenish(http, '3');
    expect((await webhook(session('checkout.session.expired', expired.checkoutId, id, { payment_status: 'unpaid' }))).body).toEqual({ received: true });
    expect((await webhook(session('checkout.session.completed', expired.checkoutId, id))).body).toEqual({ received: true, ignored: 'CHECKOUT_CLOSED' });

    // a delayed method: completed unpaid is no payment yet; then the bank declines
    const delayed = await replenish(http, '4');
    expect((await webhook(session('checkout.session.completed', delayed.checkoutId, id, { payment_status: 'unpaid' }))).body).toEqual({ received: true });
    expect((await webhook(session('checkout.session.async_payment_failed', delayed.checkoutId, id, { payment_status: 'unpaid' }))).body).toEqual({
      received: true,
    });
    expect((await webhook(session('checkout.session.async_payment_succeeded', delayed.checkoutId, id))).body).toEqual({
      received: true,
      ignored: 'CHECKOUT_CLOSED',
    });

    await nextBlock(http);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });
    expect(await treasurySends()).toBe(before);
  });

  it('a delayed payment that succeeds later sends the tokens then', async () => {
    const { http, id } = await withWallet();
    const { checkoutId } = await replenish(http, '1.25');
    expect((await webhook(session('checkout.session.completed', checkoutId, id, { payment_status: 'unpaid' }))).status).toBe(200);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });
    expect((await webhook(session('checkout.session.async_payment_succeeded', checkoutId, id))).status).toBe(200);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '1.25' });
  });
});

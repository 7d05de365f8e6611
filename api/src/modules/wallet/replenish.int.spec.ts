import { beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { nextBlockOf, until } from './wallet.testing';

// a treasury without a genesis supply: these tests fund it themselves, and one needs it short
const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10', AXEL_DEV_TREASURY_GENESIS: '0' } });

const helpers = accountHelpers(t);

const nextBlock = nextBlockOf(t);

const withWallet = async () => {
  const { email } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  return http;
};

/** The checkout id from a test checkout link. */
const sessionOf = (checkoutLink: string) => decodeURIComponent(new URL(checkoutLink).pathname.split('/').pop()!);

const treasurySends = async () => {
  const wallet = await t().app.wallet.walletOf(t().app.ctx);
  const page = await wallet.chain.transactions(await wallet.treasury(), { page: 1, perPage: 1000 });
  return page.data.filter((tx) => tx.category === 'send');
};

describe('replenish', () => {
  let root: HttpClient;
  beforeAll(async () => {
    root = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    expect((await root.post('/api/wallet/v1/faucet', { amount: '1000', to: 'treasury' })).status).toBe(200);
    await nextBlock(root);
  });

  it('answers a checkout link; once paid the treasury sends the tokens once, unconfirmed until mined', async () => {
    const http = await withWallet();
    const started = await http.post('/api/wallet/v1/replenish', { amount: '2.5' });
    expect(started.status).toBe(200);
    expect(started.body.checkoutLink).toMatch(/\/dev\/checkout\//);
    const session = sessionOf(started.body.checkoutLink);

    const page = await new HttpClient(t().url).get(`/dev/checkout/${encodeURIComponent(session)}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('2.50 USD');
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });

    const before = (await treasurySends()).length;
    const paid = await http.post(`/api/dev/checkout/${encodeURIComponent(session)}/pay`, {});
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('paid');
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '2.5' });

    // the provider reports the payment again: nothing more is sent
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(session)}/pay`, {})).status).toBe(200);
    expect((await treasurySends()).length).toBe(before + 1);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '2.5' });

    await nextBlock(http);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '2.5', unconfirmed: '0' });
    // a paid checkout cannot be declined afterwards
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(session)}/decline`, {})).body.code).toBe('CHECKOUT_CLOSED');
  });

  it('sends nothing for a declined checkout, and a declined checkout cannot be paid', async () => {
    const http = await withWallet();
    const started = await http.post('/api/wallet/v1/replenish', { amount: '3' });
    expect(started.status).toBe(200);
    const session = sessionOf(started.body.checkoutLink);
    const declined = await http.post(`/api/dev/checkout/${encodeURIComponent(session)}/decline`, {});
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe('declined');
    const paid = await http.post(`/api/dev/checkout/${encodeURIComponent(session)}/pay`, {});
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('CHECKOUT_CLOSED');
    await nextBlock(http);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });
  });

  it('a payment while the treasury lacks funds waits (staff see it); once funded, the tokens arrive once without a new report', async () => {
    const http = await withWallet();
    const started = await http.post('/api/wallet/v1/replenish', { amount: '5000' });
    expect(started.status).toBe(200);
    const { checkoutId } = started.body as { checkoutId: string };
    expect((await http.get(`/api/wallet/v1/replenish/${encodeURIComponent(checkoutId)}`)).body).toMatchObject({
      status: 'open',
      tokens: 'none',
      amount: '5000',
    });
    const before = (await treasurySends()).length;
    const paid = await http.post(`/api/dev/checkout/${encodeURIComponent(checkoutId)}/pay`, {});
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('paid');
    expect((await http.get(`/api/wallet/v1/replenish/${encodeURIComponent(checkoutId)}`)).body).toMatchObject({
      status: 'paid',
      tokens: 'waiting',
      txid: null,
    });
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '0' });

    // retried on its own while the treasury is short: still waiting, nothing sent
    t().clock.advance(10 * 60_000);
    const waiting = await until(
      () => root.get('/api/wallet/v1/admin/replenishments/waiting'),
      (r) => (r.body.data as { checkoutId: string; attempts: number }[]).some((w) => w.checkoutId === checkoutId && w.attempts >= 2),
      'a second attempt',
    );
    expect(waiting.body.data.find((w: { checkoutId: string }) => w.checkoutId === checkoutId)).toMatchObject({
      amount: '5000',
      lastError: 'WALLET_INSUFFICIENT_FUNDS',
      amountCents: 500000,
    });
    expect(typeof waiting.body.data[0].email).toBe('string');
    expect((await http.get('/api/wallet/v1/admin/replenishments/waiting')).status).toBe(403);
    expect((await treasurySends()).length).toBe(before);

    // staff fund the treasury: no new report of the payment, the retry pays it
    for (let i = 0; i < 5; i++) expect((await root.post('/api/wallet/v1/faucet', { amount: '1000', to: 'treasury' })).status).toBe(200);
    // the faucet's tokens are spendable once mined: a retry before the block fails again and waits its backoff
    await nextBlock(root);
    // a retry that ran before the block (a loaded machine) waits its backoff (at most 5 min): time keeps passing until one pays
    await until(
      () => {
        t().clock.advance(60_000);
        return http.get('/api/wallet/v1/balance');
      },
      // each minute also mines a block, so the tokens may already be confirmed when seen
      (r) => r.body.unconfirmed === '5000' || r.body.confirmed === '5000',
      'the tokens',
      300,
    );
    const state = (await http.get(`/api/wallet/v1/replenish/${encodeURIComponent(checkoutId)}`)).body;
    expect(state).toMatchObject({ status: 'paid', tokens: 'sent' });
    expect(state.txid).toMatch(/^\w{20,}$/);
    expect((await root.get('/api/wallet/v1/admin/replenishments/waiting')).body.data.some((w: { checkoutId: string }) => w.checkoutId === checkoutId)).toBe(
      false,
    );

    // more time, and the payment reported again: still one send
    t().clock.advance(10 * 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(checkoutId)}/pay`, {})).status).toBe(200);
    expect((await treasurySends()).length).toBe(before + 1);
    await nextBlock(http);
    expect((await http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '5000', unconfirmed: '0' });
    // a checkout of someone else is not found
    const other = await withWallet();
    expect((await other.get(`/api/wallet/v1/replenish/${encodeURIComponent(checkoutId)}`)).status).toBe(404);
  });

  it('refuses bad amounts with the wallet codes, asks for an address first, and needs a session', async () => {
    const http = await withWallet();
    for (const amount of ['', 'abc', '-1', '0', '1.123456789', '10000.00000001', '1e3']) {
      const r = await http.post('/api/wallet/v1/replenish', { amount });
      expect(r.status, amount).toBe(400);
      expect(r.body.code, amount).toBe('WALLET_INVALID_AMOUNT');
    }
    const small = await http.post('/api/wallet/v1/replenish', { amount: '0.5' });
    expect(small.status).toBe(400);
    expect(small.body).toMatchObject({ code: 'WALLET_BELOW_MINIMUM', data: { minimum: '1' } });
    const missing = await http.post('/api/wallet/v1/replenish', {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');

    const { email } = await helpers.signUpConfirmed();
    const fresh = (await helpers.signIn(email)).http;
    expect((await fresh.post('/api/wallet/v1/replenish', { amount: '2' })).body.code).toBe('WALLET_NO_ADDRESS');
    expect((await new HttpClient(t().url).post('/api/wallet/v1/replenish', { amount: '2' })).status).toBe(401);
  });
});

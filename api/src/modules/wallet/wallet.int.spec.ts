import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { nextBlockOf } from './wallet.testing';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const helpers = accountHelpers(t);
const { signIn } = helpers;
/** A confirmed and signed-in user. */
const signUpConfirmed = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await signIn(email);
  return { http, email, id };
};

const nextBlock = nextBlockOf(t);

const withWallet = async () => {
  const user = await signUpConfirmed();
  const created = await user.http.post('/api/wallet/v1/addresses', {});
  expect(created.status).toBe(201);
  const primary = created.body.addresses.find((a: { type: string }) => a.type === 'primary').address as string;
  return { ...user, primary };
};

const fund = async (http: HttpClient, amount: string) => {
  const minted = await http.post('/api/wallet/v1/faucet', { amount });
  expect(minted.status).toBe(200);
  await nextBlock(http);
};

describe('wallet', () => {
  it('starts empty, asks for an address first, then creates primary and fuel once', async () => {
    const { http } = await signUpConfirmed();
    expect((await http.get('/api/wallet/v1/')).body).toEqual({
      addresses: [],
      main: '0',
      fuel: '0',
      pending: '0',
      available: '0',
      outgoing: '0',
      sendable: '0',
      sendBlockedBy: null,
    });
    const early = await http.post('/api/wallet/v1/send', { address: 'y'.repeat(34), amount: '1', idempotencyKey: 'key-00000001' });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'WALLET_NO_ADDRESS', message: 'Create a wallet address first' });
    expect((await http.get('/api/wallet/v1/receive')).body.code).toBe('WALLET_NO_ADDRESS');

    const created = await http.post('/api/wallet/v1/addresses', {});
    expect(created.status).toBe(201);
    expect(created.body.addresses.map((a: { type: string }) => a.type)).toEqual(['primary', 'fuel']);
    for (const a of created.body.addresses) expect(a.address).toMatch(/^[A-Za-z0-9]{34}$/);
    const again = await http.post('/api/wallet/v1/addresses', {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);

    const receive = await http.get('/api/wallet/v1/receive');
    expect(receive.body.address).toBe(created.body.addresses[0].address);
    expect(receive.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
  });

  it('names the development chain, its costs and its faucet; no masternodes', async () => {
    const { http } = await signUpConfirmed();
    const info = await http.get('/api/wallet/v1/blockchaininfo');
    expect(info.body).toMatchObject({
      chain: 'development',
      development: true,
      label: 'development chain',
      faucet: true,
      minimumSend: '0.001',
      costs: { fetch: '0.003', certificate: '0.006' },
    });
    expect((await http.get('/api/wallet/v1/masternodes/count')).body).toEqual({ total: 0, enabled: 0 });
    expect((await new HttpClient(t().url).get('/api/wallet/v1/blockchaininfo')).status).toBe(401);
  });

  it('sends once per idempotency key, refuses a second send while unconfirmed, and the receiver sees the tokens arrive', async () => {
    const alice = await withWallet();
    const bob = await withWallet();
    await alice.http.post('/api/wallet/v1/faucet', { amount: '100' });
    expect((await alice.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '100' });
    await nextBlock(alice.http);
    expect((await alice.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '100', unconfirmed: '0' });

    const send = { address: bob.primary, amount: '25.5', note: 'rent', idempotencyKey: 'send-0001-alice' };
    const first = await alice.http.post('/api/wallet/v1/send', send);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ amount: '25.5', address: bob.primary });
    const retried = await alice.http.post('/api/wallet/v1/send', send);
    expect(retried.body.txid).toBe(first.body.txid);
    const reused = await alice.http.post('/api/wallet/v1/send', { ...send, amount: '2' });
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const blocked = await alice.http.post('/api/wallet/v1/send', { ...send, amount: '1', idempotencyKey: 'send-0002-alice' });
    expect(blocked.status).toBe(409);
    expect(blocked.body).toMatchObject({ code: 'WALLET_UNCONFIRMED', message: 'You have unconfirmed tokens, please wait until they are confirmed' });

    expect((await alice.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '74.5', unconfirmed: '0' });
    // the wallet says so before a send is tried: the pending send, nothing sendable until it is mined
    expect((await alice.http.get('/api/wallet/v1/')).body).toMatchObject({
      available: '74.5',
      pending: '0',
      outgoing: '25.5',
      sendable: '0',
      sendBlockedBy: 'outgoing',
    });
    expect((await bob.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '25.5' });
    expect((await bob.http.get('/api/wallet/v1/')).body).toMatchObject({
      main: '25.5',
      pending: '25.5',
      available: '0',
      outgoing: '0',
      sendable: '0',
      sendBlockedBy: 'incoming',
    });
    await nextBlock(alice.http);
    expect((await alice.http.get('/api/wallet/v1/')).body).toMatchObject({ available: '74.5', outgoing: '0', sendable: '74.5', sendBlockedBy: null });
    expect((await bob.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '25.5', unconfirmed: '0' });
    expect((await alice.http.post('/api/wallet/v1/send', { ...send, amount: '1', idempotencyKey: 'send-0003-alice' })).status).toBe(200);

    const list = await alice.http.get('/api/wallet/v1/transactions?perPage=2&page=1');
    expect(list.body.total).toBe(3);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data[1]).toMatchObject({ txid: first.body.txid, category: 'send', amount: '-25.5', note: 'rent', address: bob.primary, confirmations: 1 });
    expect(list.body.data[1].blockIndex).toBeGreaterThan(0);
    const incoming = await bob.http.get(`/api/wallet/v1/transactions?address=${bob.primary}`);
    expect(incoming.body.data[1]).toMatchObject({ txid: first.body.txid, category: 'receive', amount: '25.5', note: null });
    // another user's address is not yours to list
    expect((await bob.http.get(`/api/wallet/v1/transactions?address=${alice.primary}`)).status).toBe(403);
  });

  it("checks every send rule with the spec's codes", async () => {
    const alice = await withWallet();
    await fund(alice.http, '5');
    const to = (await withWallet()).primary;
    const send = (body: Record<string, unknown>) =>
      alice.http.post('/api/wallet/v1/send', { idempotencyKey: `rules-${Math.random().toString(36).slice(2)}`, ...body });
    expect((await send({ amount: '1' })).body.code).toBe('WALLET_INVALID_ADDRESS');
    expect((await send({ address: to.slice(1), amount: '1' })).body.code).toBe('WALLET_INVALID_ADDRESS');
    expect((await send({ address: `${to.slice(1)}!`, amount: '1' })).body.code).toBe('WALLET_INVALID_ADDRESS');
    expect((await send({ address: to })).body.code).toBe('WALLET_INVALID_AMOUNT');
    for (const amount of ['abc', '-1', '1e3', '0', '0.000000001', '1.5.5'])
      expect((await send({ address: to, amount })).body.code, amount).toBe('WALLET_INVALID_AMOUNT');
    const below = await send({ address: to, amount: '0.0009' });
    expect(below.body).toMatchObject({ code: 'WALLET_BELOW_MINIMUM', message: 'The amount is below the minimum transaction amount of 0.001 AXEL' });
    expect((await send({ address: to, amount: '5.00000001' })).body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    const noKey = await alice.http.post('/api/wallet/v1/send', { address: to, amount: '1' });
    expect(noKey.body).toMatchObject({ code: 'VALIDATION_FAILED', data: { fields: { idempotencyKey: 'validation.required' } } });
    const byHeader = await alice.http.request('POST', '/api/wallet/v1/send', { address: to, amount: '1' }, { 'idempotency-key': 'header-key-0001' });
    expect(byHeader.status).toBe(200);
    expect((await alice.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '4', unconfirmed: '0' });
  });

  it('the faucet answers this machine only, and mints at most 1000', async () => {
    const { http } = await withWallet();
    expect((await http.request('POST', '/api/wallet/v1/faucet', {}, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(404);
    expect((await http.post('/api/wallet/v1/faucet', { amount: '1000.00000001' })).body.code).toBe('WALLET_INVALID_AMOUNT');
    expect((await http.post('/api/wallet/v1/faucet', {})).body.amount).toBe('10');
  });

  it('pinning moves 0.003 (0.009 with a certificate) from the confirmed balance to the treasury, once per key', async () => {
    const alice = await withWallet();
    const wallet = await t().app.wallet.walletOf(t().app.ctx);
    const broke = await wallet.payForPinning({ userId: alice.id, certificate: false, idempotencyKey: 'fetch-1' }).catch((e) => e);
    expect(broke).toMatchObject({ code: 'INSUFFICIENT_CONFIRMED_TOKENS', message: 'Insufficient confirmed tokens to pin' });
    await alice.http.post('/api/wallet/v1/faucet', { amount: '0.01' });
    // unconfirmed tokens do not pay for pinning
    expect(await wallet.payForPinning({ userId: alice.id, certificate: false, idempotencyKey: 'fetch-1' }).catch((e) => e.code)).toBe(
      'INSUFFICIENT_CONFIRMED_TOKENS',
    );
    await nextBlock(alice.http);
    const treasury = await wallet.treasury();
    const before = await wallet.chain.balance(treasury);
    const paid = await wallet.payForPinning({ userId: alice.id, certificate: true, idempotencyKey: 'fetch-1' });
    expect(paid.amount).toBe('0.009');
    await wallet.payForPinning({ userId: alice.id, certificate: true, idempotencyKey: 'fetch-1' });
    expect((await alice.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0.001', unconfirmed: '0' });
    const after = await wallet.chain.balance(treasury);
    expect(after.unconfirmed - before.unconfirmed).toBe(900_000);
    expect(await wallet.payForPinning({ userId: alice.id, certificate: false, idempotencyKey: 'fetch-2' }).catch((e) => e.code)).toBe(
      'INSUFFICIENT_CONFIRMED_TOKENS',
    );
  });

  it('staff see the chain and treasury dashboard; users do not', async () => {
    const user = await withWallet();
    expect((await user.http.get('/api/wallet/v1/admin/dashboard/')).status).toBe(403);
    const { http: root } = await signIn('root@axel.test', 'Root-pass-123');
    const dash = await root.get('/api/wallet/v1/admin/dashboard/');
    expect(dash.status).toBe(200);
    expect(dash.body).toMatchObject({ chain: 'development', development: true, masternodes: { total: 0, enabled: 0 } });
    expect(dash.body.wallets).toBeGreaterThan(0);
    expect(dash.body.treasury.address).toMatch(/^[A-Za-z0-9]{34}$/);
  });
});

describe("the development chain's treasury", () => {
  it("begins funded (genesis): a fresh start's replenish is delivered at once", async () => {
    const { http: root } = await signIn('root@axel.test', 'Root-pass-123');
    const wallet = await t().app.wallet.walletOf(t().app.ctx);
    const genesis = (await wallet.chain.transactions(await wallet.treasury(), { page: 1, perPage: 1000 })).data.find((tx) => tx.blockHeight === 1);
    expect(genesis).toMatchObject({ category: 'generate', amount: 10_000 * 100_000_000 });
    const buyer = await withWallet();
    const started = await buyer.http.post('/api/wallet/v1/replenish', { amount: '5' });
    expect(started.status).toBe(200);
    expect((await buyer.http.post(`/api/dev/checkout/${encodeURIComponent(started.body.checkoutId)}/pay`, {})).status).toBe(200);
    expect((await buyer.http.get(`/api/wallet/v1/replenish/${encodeURIComponent(started.body.checkoutId)}`)).body).toMatchObject({
      status: 'paid',
      tokens: 'sent',
    });
    expect((await buyer.http.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '5' });
    // the list says where the tokens came from
    expect((await buyer.http.get('/api/wallet/v1/transactions')).body.data[0]).toMatchObject({
      category: 'receive',
      about: 'fromTreasury',
      amount: '5',
      note: null,
    });
    await buyer.http.post('/api/wallet/v1/faucet', { amount: '1' });
    expect((await buyer.http.get('/api/wallet/v1/transactions')).body.data[0]).toMatchObject({ category: 'generate', about: 'minted', amount: '1' });
    expect(
      (await root.get('/api/wallet/v1/admin/replenishments/waiting')).body.data.some((w: { checkoutId: string }) => w.checkoutId === started.body.checkoutId),
    ).toBe(false);
  });

  it('staff with admin:treasury:fill fill it; the mint names who did it; others are refused', async () => {
    const { http: root } = await signIn('root@axel.test', 'Root-pass-123');
    const rootId = (await root.get('/api/sessions/this/')).body.user.id as string;
    const before = (await root.get('/api/wallet/v1/admin/dashboard/')).body.treasury;
    const filled = await root.post('/api/wallet/v1/admin/treasury/fill', { amount: '50' });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(filled.body).toMatchObject({ amount: '50', treasury: before.address });
    const after = (await root.get('/api/wallet/v1/admin/dashboard/')).body.treasury;
    expect(Number(after.unconfirmed) - Number(before.unconfirmed)).toBe(50);
    const { events } = await t().app.ctx.store.readStream('devchain-ledger');
    const mint = events.find((e) => e.type === 'ChainCoinsMinted' && (e.data as { txid: string }).txid === filled.body.txid);
    expect(mint?.metadata).toMatchObject({ actorId: rootId, actorKind: 'staff' });
    expect((await root.post('/api/wallet/v1/admin/treasury/fill', { amount: '1000.5' })).body.code).toBe('WALLET_INVALID_AMOUNT');

    const user = await withWallet();
    expect((await user.http.post('/api/wallet/v1/admin/treasury/fill', {})).status).toBe(403);
    const email = helpers.uniqueEmail('plain-admin');
    expect((await root.post('/api/admin/users/', { email, password: helpers.PASSWORD, passwordConfirmation: helpers.PASSWORD, role: 'admin' })).status).toBe(
      201,
    );
    const admin = (await signIn(email)).http;
    const refused = await admin.post('/api/wallet/v1/admin/treasury/fill', {});
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ feature: 'admin:treasury:fill' });
  });
});

describe('explorer', () => {
  it('shows a transaction publicly with its block, confirmations and linked transactions', async () => {
    const alice = await withWallet();
    const bob = await withWallet();
    const mint = await alice.http.post('/api/wallet/v1/faucet', { amount: '3' });
    const other = await bob.http.post('/api/wallet/v1/faucet', { amount: '1' });
    const stranger = new HttpClient(t().url);
    const pending = await stranger.get(`/api/wallet/v1/explorer/transactions/${mint.body.txid}`);
    expect(pending.body).toMatchObject({
      txid: mint.body.txid,
      from: null,
      to: alice.primary,
      amount: '3',
      confirmations: 0,
      blockIndex: null,
      explorerUrl: null,
    });
    await nextBlock(alice.http);
    const mined = await stranger.get(`/api/wallet/v1/explorer/transactions/${mint.body.txid}`);
    expect(mined.body.confirmations).toBe(1);
    expect(mined.body.linkedTransactions).toContain(other.body.txid);

    const html = await stranger.request('GET', `/transaction/${mint.body.txid}`, undefined, { accept: 'text/html' });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.body).toContain('1 confirmation');
    expect(html.body).toContain('Development chain');
    expect(html.body).toContain(`/transaction/${other.body.txid}`);

    const unknown = 'a'.repeat(64);
    expect((await stranger.get(`/api/wallet/v1/explorer/transactions/${unknown}`)).body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await stranger.request('GET', `/transaction/${unknown}`, undefined, { accept: 'text/html' })).status).toBe(404);
    expect((await stranger.get('/api/wallet/v1/explorer/transactions/short')).body.code).toBe('VALIDATION_FAILED');
  });
});

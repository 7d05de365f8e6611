import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { sendMachine } from './send.machine';
import type { SendRequest } from './wallet.types';

const ADDRESS = 'AXe1ectronicDevChain000000000000a1';
const good = { address: ADDRESS, amount: '1.50', note: 'rent' };

const start = (impl: (req: SendRequest) => Promise<unknown>, minimumUnits?: number) => {
  const calls: SendRequest[] = [];
  let n = 0;
  let sentActions = 0;
  const actor = createActor(
    sendMachine.provide({
      actors: {
        send: fromPromise<unknown, SendRequest>(({ input }) => {
          calls.push(input);
          return impl(input);
        }),
      },
      actions: { sent: () => void (sentActions += 1) },
    }),
    { input: { newKey: () => `key-${++n}`, minimumUnits } },
  ).start();
  return { actor, calls, sentActions: () => sentActions };
};

describe('send machine', () => {
  it('shows the §5 rules under the fields and calls nothing', () => {
    const { actor, calls } = start(async () => ({}), 100_000);
    actor.send({ type: 'SUBMIT', values: { address: '', amount: '', note: '' } });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ address: 'validation.required', amount: 'validation.required' });

    actor.send({ type: 'SUBMIT', values: { address: `${ADDRESS}x`, amount: '1.123456789', note: '' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ address: 'wallet.validation.address', amount: 'wallet.validation.amount' });

    actor.send({ type: 'SUBMIT', values: { address: ADDRESS.replace('a1', '!1'), amount: '0.0001', note: '' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ address: 'wallet.validation.address', amount: 'wallet.validation.belowMinimum' });
    expect(calls).toHaveLength(0);
  });

  it('edit -> confirm -> sending -> sent, with the canonical amount and a key', async () => {
    const { actor, calls, sentActions } = start(async () => ({ id: 'tx1' }));
    actor.send({ type: 'SUBMIT', values: good });
    expect(actor.getSnapshot().value).toBe('confirm');
    expect(actor.getSnapshot().context.values.amount).toBe('1.5');
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('sending');
    const snap = await waitFor(actor, (s) => s.matches('sent'));
    expect(snap.context.result).toEqual({ id: 'tx1' });
    expect(calls).toEqual([{ address: ADDRESS, amount: '1.5', note: 'rent', idempotencyKey: 'key-1' }]);
    expect(sentActions()).toBe(1);
  });

  it('back from confirm returns to the form with the values kept', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'SUBMIT', values: good });
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.values.address).toBe(ADDRESS);
  });

  it('a retried send reuses its idempotency key, also after going back to the form with the same values', async () => {
    let fail = 2;
    const { actor, calls } = start(async () => {
      if (fail-- > 0) throw new ApiError('TIMEOUT', 'Timeout exceeded');
      return { id: 'tx1' };
    });
    actor.send({ type: 'SUBMIT', values: good });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error?.code).toBe('TIMEOUT');
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '1.5' } });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(calls.map((c) => c.idempotencyKey)).toEqual(['key-1', 'key-1', 'key-1']);
    expect(actor.getSnapshot().context.attempts).toBe(3);
  });

  it('changed values get a new key; a new send after success gets a new key', async () => {
    let fail = true;
    const { actor, calls } = start(async () => {
      if (fail) {
        fail = false;
        throw new ApiError('WALLET_UNCONFIRMED', 'You have unconfirmed tokens, please wait until they are confirmed', null, 409);
      }
      return { id: 'tx' };
    });
    actor.send({ type: 'SUBMIT', values: good });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '2' } });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('sent'));
    actor.send({ type: 'NEW' });
    expect(actor.getSnapshot().context.values).toEqual({ address: '', amount: '', note: '' });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '2' } });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(calls.map((c) => c.idempotencyKey)).toEqual(['key-1', 'key-2', 'key-3']);
  });

  it('a refusal of a field goes back to the form under that field, not to failed', async () => {
    const { actor } = start(async () => {
      throw new ApiError('WALLET_INSUFFICIENT_FUNDS', 'Insufficient funds', null, 400);
    });
    actor.send({ type: 'SUBMIT', values: good });
    actor.send({ type: 'CONFIRM' });
    const snap = await waitFor(actor, (s) => s.matches('edit'));
    expect(snap.context.fieldErrors).toEqual({ amount: 'errors.WALLET_INSUFFICIENT_FUNDS' });
    expect(snap.context.error).toBeNull();
  });

  it('VALIDATION_FAILED with data.fields lands under the fields', async () => {
    const { actor } = start(async () => {
      throw new ApiError('VALIDATION_FAILED', 'Some fields are invalid', { fields: { address: 'wallet.validation.address' } }, 400);
    });
    actor.send({ type: 'SUBMIT', values: good });
    actor.send({ type: 'CONFIRM' });
    const snap = await waitFor(actor, (s) => s.matches('edit'));
    expect(snap.context.fieldErrors).toEqual({ address: 'wallet.validation.address' });
  });

  it('refuses more than the wallet says may be sent before the confirmation step: 1,000 of 10, anything while a send waits for its block', () => {
    const { actor, calls } = start(async () => ({}));
    actor.send({ type: 'SET_SENDABLE', units: 10 * 100_000_000 });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '1000' } });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: 'wallet.validation.aboveSendable' });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '10' } });
    expect(actor.getSnapshot().value).toBe('confirm');
    actor.send({ type: 'BACK' });
    actor.send({ type: 'SET_SENDABLE', units: 0 });
    actor.send({ type: 'SUBMIT', values: good });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: 'wallet.validation.aboveSendable' });
    // unknown: the server decides
    actor.send({ type: 'SET_SENDABLE', units: null });
    actor.send({ type: 'SUBMIT', values: { ...good, amount: '1000' } });
    expect(actor.getSnapshot().value).toBe('confirm');
    expect(calls).toEqual([]);
  });

  it('takes the minimum the wallet reports', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'SET_MINIMUM', units: 200_000_000 });
    actor.send({ type: 'SUBMIT', values: good });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: 'wallet.validation.belowMinimum' });
  });
});

describe('wallet answers', () => {
  it('reads the chain info the server gives', async () => {
    const { chainInfoOf, transactionPageOf } = await import('./wallet.api');
    expect(
      chainInfoOf({ chain: 'development', development: true, blocks: 7, faucet: true, minimumSend: '0.001', costs: { fetch: '0.003', certificate: '0.006' } }),
    ).toEqual({
      chain: 'development',
      development: true,
      blocks: 7,
      faucet: true,
      minimumSend: '0.001',
      costs: { fetch: '0.003', certificate: '0.006' },
    });
    expect(chainInfoOf({ chain: 'main', development: false, blocks: 1 })).toMatchObject({ development: false, faucet: false, minimumSend: null, costs: null });
    const page = transactionPageOf({ data: [{ id: 'a', amount: '1', confirmations: 0 }], total: 11, page: 2, perPage: 10 }, 2, 10);
    expect(page).toMatchObject({ total: 11, page: 2, items: [{ id: 'a', amount: '1', confirmations: 0 }] });
  });
});

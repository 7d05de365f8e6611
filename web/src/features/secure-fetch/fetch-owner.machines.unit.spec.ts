import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { DEFAULT_CREATE_VALUES, fetchCreateMachine } from './fetch-create.machine';
import { fetchCost, fetchPayMachine, INSUFFICIENT_TO_PIN, shortOfTokens } from './fetch-pay.machine';
import type { CreateRequest, SecureFetch } from './secure-fetch.api';

const NOW = new Date('2026-05-01T12:00:00Z');
const created = { id: 'f1', shareId: 'f1', shareLinkId: 'L'.repeat(22), note: 'Contract', status: 'pending' } as SecureFetch;

describe('create dialog machine', () => {
  const start = (impl: (r: CreateRequest) => Promise<SecureFetch>) => {
    const calls: CreateRequest[] = [];
    const actor = createActor(fetchCreateMachine.provide({ actors: { create: fromPromise(async ({ input }) => (calls.push(input), impl(input))) } }), {
      input: { now: () => NOW },
    }).start();
    return { actor, calls };
  };

  it('shows the rules under the fields and calls nothing', () => {
    const { actor, calls } = start(async () => created);
    actor.send({ type: 'SUBMIT', values: { ...DEFAULT_CREATE_VALUES, note: ' ', expiresAt: '2026-04-01T10:00', hashChoice: [] } });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      note: 'secureFetch.validation.noteRequired',
      expiresAt: 'secureFetch.validation.expiryPast',
      hashChoice: 'secureFetch.validation.hashChoice',
    });
    expect(calls).toEqual([]);
  });

  it('creates with the parsed values and shows the link', async () => {
    const { actor, calls } = start(async () => created);
    actor.send({ type: 'SUBMIT', values: { ...DEFAULT_CREATE_VALUES, note: '  Contract  ', includeMetadata: true, hashChoice: ['sha3-512'] } });
    const snap = await waitFor(actor, (s) => s.matches('created'));
    expect(calls).toEqual([{ note: 'Contract', expiresAt: null, includeMetadata: true, certificate: true, hashChoice: ['sha3-512'] }]);
    expect(snap.context.created).toBe(created);
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('a link without certificate asks for no hashes; a server refusal of the note goes under the note', async () => {
    const { actor, calls } = start(async () => Promise.reject(new ApiError('INVALID_NOTE', 'Notes must not contain', null, 400)));
    actor.send({ type: 'SUBMIT', values: { ...DEFAULT_CREATE_VALUES, note: 'Contract', certificate: false } });
    const snap = await waitFor(actor, (s) => s.matches('editing') && Object.keys(s.context.fieldErrors).length > 0);
    expect(calls[0]!.hashChoice).toEqual([]);
    expect(snap.context.fieldErrors).toEqual({ note: 'secureFetch.validation.noteCharacters' });
    expect(snap.context.error).toBeNull();
  });

  it('any other refusal shows above the form', async () => {
    const { actor } = start(async () => Promise.reject(new ApiError('SECURE_FETCH_LIMIT_REACHED', 'You have used all', { limit: 5 }, 403)));
    actor.send({ type: 'SUBMIT', values: { ...DEFAULT_CREATE_VALUES, note: 'Contract' } });
    const snap = await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(snap.context.error).toEqual({ code: 'SECURE_FETCH_LIMIT_REACHED', message: 'You have used all', data: { limit: 5 } });
  });
});

describe('pay and pin machine', () => {
  it('costs 0.003 AXEL, 0.009 with the certificate (spec §9)', () => {
    expect(fetchCost(false)).toBe('0.003');
    expect(fetchCost(true)).toBe('0.009');
  });

  it('confirm, pay, refused for unconfirmed tokens, retried, paid once', async () => {
    let calls = 0;
    let paidActions = 0;
    const actor = createActor(
      fetchPayMachine.provide({
        actors: {
          pay: fromPromise(async () => {
            calls += 1;
            if (calls === 1) throw new ApiError(INSUFFICIENT_TO_PIN, 'Insufficient confirmed tokens to pin', null, 402);
            return { txId: 'ab'.repeat(32), amount: '0.009', fetch: { ...created, status: 'active', paid: true } as SecureFetch };
          }),
        },
        actions: { paid: () => void (paidActions += 1) },
      }),
      { input: { fetchId: 'f1', certificated: true } },
    ).start();
    expect(actor.getSnapshot().context.cost).toBe('0.009');
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toBe(0);
    actor.send({ type: 'PAY' });
    actor.send({ type: 'CONFIRM' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toEqual({ code: INSUFFICIENT_TO_PIN, message: 'Insufficient confirmed tokens to pin', data: null });
    actor.send({ type: 'RETRY' });
    const paid = await waitFor(actor, (s) => s.matches('paid'));
    expect(paid.context.error).toBeNull();
    expect(paid.context.paid?.amount).toBe('0.009');
    expect(calls).toBe(2);
    expect(paidActions).toBe(1);
  });

  it('does not take a balance known to fall short to the confirm step; an unknown balance is left to the server', () => {
    const actor = createActor(fetchPayMachine, { input: { fetchId: 'f1', certificated: true } }).start();
    actor.send({ type: 'PAY', confirmed: 0 });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'PAY', confirmed: 899_999 });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'PAY', confirmed: 900_000 });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'CANCEL' });
    actor.send({ type: 'PAY', confirmed: null });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(shortOfTokens(299_999, false)).toBe(true);
    expect(shortOfTokens(300_000, false)).toBe(false);
    expect(shortOfTokens(null, true)).toBe(false);
  });
});

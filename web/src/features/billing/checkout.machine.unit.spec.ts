import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Product, PromoQuote } from './billing.types';
import { checkoutMachine, type CheckoutInput, type CheckoutRequest, type PaymentResult, type PromoQuoteRequest } from './checkout.machine';

const product = (id: number, name: string, price: number, cycle: 'monthly' | 'yearly', type: Product['type'] = 'plan'): Product => ({
  id,
  name,
  type,
  price,
  currency: 'USD',
  cycle,
  weight: id,
  parentId: null,
  status: 'active',
  quotaBytes: null,
});

const CATALOGUE = [product(1, 'Basic', 0, 'monthly', 'free-plan'), product(30, 'Professional', 1999, 'monthly'), product(31, 'Professional', 19990, 'yearly')];

const start = (
  input: CheckoutInput = {},
  options: {
    load?: () => Promise<Product[]>;
    checkout?: (r: CheckoutRequest) => Promise<string>;
    confirm?: (r: PaymentResult) => Promise<PaymentResult>;
    quote?: (r: PromoQuoteRequest) => Promise<PromoQuote>;
  } = {},
) => {
  const checkouts: CheckoutRequest[] = [];
  const quotes: PromoQuoteRequest[] = [];
  const opened: string[] = [];
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        loadProducts: fromPromise<Product[]>(() => (options.load ?? (async () => CATALOGUE))()),
        startCheckout: fromPromise<string, CheckoutRequest>(({ input: request }) => {
          checkouts.push(request);
          return (options.checkout ?? (async () => '/dev/checkout/sess_1'))(request);
        }),
        confirmResult: fromPromise<PaymentResult, { result: PaymentResult }>(({ input: r }) => (options.confirm ?? (async (x) => x))(r.result)),
        quotePromo: fromPromise<PromoQuote, PromoQuoteRequest>(({ input: request }) => {
          quotes.push(request);
          return (
            options.quote ??
            (async (q) => ({
              code: q.code,
              productId: q.productId,
              promoPrice: 1000,
              price: 1999,
              dueToday: 1000,
              cycles: 3,
              freeTrialDays: 0,
              currency: 'USD',
            }))
          )(request);
        }),
      },
      actions: { openCheckout: ({ context }) => void opened.push(context.checkoutLink ?? '') },
    }),
    { input },
  ).start();
  return { actor, checkouts, opened, quotes };
};

describe('checkout machine', () => {
  it('choose a plan, enter a promo code, then redirect to the provider with both', async () => {
    const { actor, checkouts, opened } = start();
    await waitFor(actor, (s) => s.matches('choosing'));
    actor.send({ type: 'SET_CYCLE', cycle: 'yearly' });
    expect(actor.getSnapshot().context.cycle).toBe('yearly');
    actor.send({ type: 'SELECT', productId: 31 });
    expect(actor.getSnapshot().value).toBe('promo');
    actor.send({ type: 'SET_PROMO', code: '  SPRING50 ' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(checkouts).toEqual([{ productId: 31, promoCode: 'SPRING50' }]);
    expect(opened).toEqual(['/dev/checkout/sess_1']);
  });

  it('applying a code shows its price before paying; a new code forgets it; a refused code says why under the field', async () => {
    const { actor, checkouts, quotes } = start(
      { productId: 30 },
      {
        quote: async (q) => {
          if (q.code === 'OLDCODE') throw new ApiError('5010', 'inactive', null, 400);
          return { code: q.code, productId: q.productId, promoPrice: 1000, price: 1999, dueToday: 1000, cycles: 3, freeTrialDays: 0, currency: 'USD' };
        },
      },
    );
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'APPLY_PROMO' });
    expect(actor.getSnapshot().value).toBe('promo');
    expect(quotes).toEqual([]);
    actor.send({ type: 'SET_PROMO', code: ' HALF ' });
    actor.send({ type: 'APPLY_PROMO' });
    const quoted = await waitFor(actor, (s) => s.matches('promo') && s.context.quote !== null);
    expect(quotes).toEqual([{ code: 'HALF', productId: 30 }]);
    expect(quoted.context.quote).toMatchObject({ promoPrice: 1000, dueToday: 1000, cycles: 3 });
    expect(checkouts).toEqual([]);
    actor.send({ type: 'SET_PROMO', code: 'OLDCODE' });
    expect(actor.getSnapshot().context.quote).toBeNull();
    actor.send({ type: 'APPLY_PROMO' });
    const refused = await waitFor(actor, (s) => s.matches('promo') && s.context.promoError !== null);
    expect(refused.context.promoError).toBe('errors.5010');
    expect(refused.context.quote).toBeNull();
    actor.send({ type: 'SET_PROMO', code: 'TWO WORDS' });
    actor.send({ type: 'APPLY_PROMO' });
    expect(actor.getSnapshot().context.promoError).toBe('errors.5007');
    expect(quotes).toHaveLength(2);
  });

  it('sends no promo code when the field is empty', async () => {
    const { actor, checkouts } = start({ productId: 30 });
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(checkouts).toEqual([{ productId: 30 }]);
  });

  it('starts at the promo step for a plan chosen on the plans page, and at choosing for an unknown or free one', async () => {
    const known = start({ productId: 30 });
    await waitFor(known.actor, (s) => !s.matches('loading'));
    expect(known.actor.getSnapshot().value).toBe('promo');
    for (const productId of [999, 1]) {
      const other = start({ productId });
      await waitFor(other.actor, (s) => !s.matches('loading'));
      expect(other.actor.getSnapshot().value).toBe('choosing');
      expect(other.actor.getSnapshot().context.productId).toBeNull();
    }
  });

  it('refuses to select a product that is not a sellable plan', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('choosing'));
    actor.send({ type: 'SELECT', productId: 1 });
    actor.send({ type: 'SELECT', productId: 12345 });
    expect(actor.getSnapshot().value).toBe('choosing');
  });

  it('shows the catalogue errors 5007, 5010 and 5015 under the promo code field and stays on the promo step', async () => {
    for (const code of ['5007', '5010', '5015']) {
      const { actor } = start(
        { productId: 30 },
        {
          checkout: async () => {
            throw new ApiError(code, 'promo', null, 400);
          },
        },
      );
      await waitFor(actor, (s) => s.matches('promo'));
      actor.send({ type: 'SET_PROMO', code: 'OLDCODE' });
      actor.send({ type: 'PAY' });
      const snap = await waitFor(actor, (s) => s.matches('promo') && s.context.promoError !== null);
      expect(snap.context.promoError).toBe(`errors.${code}`);
      expect(snap.context.error).toBeNull();
      actor.send({ type: 'SET_PROMO', code: '' });
      expect(actor.getSnapshot().context.promoError).toBeNull();
    }
  });

  it('a code that asks for a custom field shows it, and sends what was typed with the code', async () => {
    const { actor, checkouts } = start(
      { productId: 30 },
      {
        checkout: async (r) => {
          if (!r.customFields?.barNumber) throw new ApiError('PROMO_FIELD_REQUIRED', 'needs barNumber', { field: 'barNumber' }, 400);
          return '/dev/checkout/sess_2';
        },
      },
    );
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'SET_PROMO', code: 'LAWYERS' });
    actor.send({ type: 'PAY' });
    const asked = await waitFor(actor, (s) => s.matches('promo') && s.context.askedFields.length > 0);
    expect(asked.context.askedFields).toEqual(['barNumber']);
    expect(asked.context.error?.code).toBe('PROMO_FIELD_REQUIRED');
    actor.send({ type: 'SET_FIELD', name: 'barNumber', value: ' 1234 ' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(checkouts).toEqual([
      { productId: 30, promoCode: 'LAWYERS' },
      { productId: 30, promoCode: 'LAWYERS', customFields: { barNumber: '1234' } },
    ]);
  });

  it('an unknown field name in the refusal is shown as an error, not as an input', async () => {
    const { actor } = start(
      { productId: 30 },
      {
        checkout: async () => {
          throw new ApiError('PROMO_FIELD_REQUIRED', 'needs x', { field: 'password' }, 400);
        },
      },
    );
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'SET_PROMO', code: 'X1' });
    actor.send({ type: 'PAY' });
    const snap = await waitFor(actor, (s) => s.matches('promo') && s.context.error !== null);
    expect(snap.context.askedFields).toEqual([]);
  });

  it('a malformed promo code never reaches the server', async () => {
    const { actor, checkouts } = start({ productId: 30 });
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'SET_PROMO', code: 'TWO WORDS' });
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().value).toBe('promo');
    expect(actor.getSnapshot().context.promoError).toBe('errors.5007');
    actor.send({ type: 'SET_PROMO', code: 'X'.repeat(41) });
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().context.promoError).toBe('errors.5007');
    expect(checkouts).toEqual([]);
  });

  it('any other refusal is shown above the form; BACK returns to the plans', async () => {
    const { actor } = start(
      { productId: 30 },
      {
        checkout: async () => {
          throw new ApiError('PAYMENT_DELAY', 'delay', null, 409);
        },
      },
    );
    await waitFor(actor, (s) => s.matches('promo'));
    actor.send({ type: 'PAY' });
    const snap = await waitFor(actor, (s) => s.matches('promo') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('PAYMENT_DELAY');
    expect(snap.context.promoError).toBeNull();
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a failed catalogue load can be retried', async () => {
    let calls = 0;
    const { actor } = start(
      {},
      {
        load: async () => {
          calls += 1;
          if (calls === 1) throw new ApiError('NETWORK_ERROR', 'down');
          return CATALOGUE;
        },
      },
    );
    await waitFor(actor, (s) => s.matches('loadFailed'));
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('choosing'));
    expect(actor.getSnapshot().context.products).toHaveLength(3);
  });

  it('on the result page: the server decides, not the address bar', async () => {
    const ok = start({ result: 'success' });
    expect(ok.actor.getSnapshot().value).toBe('confirming');
    await waitFor(ok.actor, (s) => s.status === 'done');
    expect(ok.actor.getSnapshot().value).toBe('succeeded');

    const claimed = start({ result: 'success' }, { confirm: async () => 'declined' });
    await waitFor(claimed.actor, (s) => s.matches('declined'));

    const declined = start({ result: 'declined' });
    await waitFor(declined.actor, (s) => s.matches('declined'));
    declined.actor.send({ type: 'RETRY' });
    await waitFor(declined.actor, (s) => s.matches('choosing'));
  });
});

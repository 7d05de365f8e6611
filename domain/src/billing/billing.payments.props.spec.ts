import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fold } from '../shared/decider';
import { PRODUCTS } from './billing.catalogue';
import { billingDecider, type BillingCommand } from './billing.decide';
import type { AppliedPromo, BillingEvent } from './billing.events';
import { checkoutQuote, nextPaymentOf, paymentQuote } from './billing.payments';
import { promoPrice, type PromoTerms } from './promo-code';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const cycled = PRODUCTS.filter((p) => p.price > 0 && p.validity && p.type !== 'child-plan' && p.type !== 'custom-plan');

const termsArb: fc.Arbitrary<PromoTerms> = fc
  .record({
    price: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
    discount: fc.option(
      fc.oneof(
        fc.record({ amount: fc.integer({ min: 1, max: 100 }), unit: fc.constant('percent' as const) }),
        fc.record({ amount: fc.integer({ min: 1, max: 50_000 }), unit: fc.constant('usd' as const) }),
      ),
      { nil: null },
    ),
    cycles: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  })
  .map(({ price, discount, cycles }) => ({
    title: 'T',
    productIds: [],
    cycles,
    price: discount ? null : price,
    discount,
    startDate: new Date(T0).toISOString(),
    expiryDate: new Date(T0 + 365 * DAY).toISOString(),
    numberOfUses: null,
    recurrence: 'recurring' as const,
    freeTrialDays: 0,
    extraQuotaBytes: null,
    customFields: [],
    notes: null,
  }));

describe('the price of a payment', () => {
  test.prop([fc.constantFrom(...cycled), fc.integer({ min: 1, max: 4 }), termsArb, fc.integer({ min: 0, max: 12 })])(
    'a code prices exactly its first cycles, never above the product, and the product prices the rest',
    (product, quantity, terms, made) => {
      const promo: AppliedPromo = { code: 'P', price: promoPrice(terms, product, quantity), cycles: terms.cycles, freeTrialDays: 0, extraQuotaBytes: 0 };
      const quote = paymentQuote(product, quantity, promo, made);
      expect(quote.regularAmount).toBe(product.price * quantity);
      expect(quote.amount).toBeLessThanOrEqual(quote.regularAmount);
      expect(Number.isSafeInteger(quote.amount) && quote.amount >= 0).toBe(true);
      const inPromo = terms.cycles === null || made < terms.cycles;
      expect(quote.amount).toBe(inPromo ? promo.price : product.price * quantity);
      expect(quote.promoCode).toBe(inPromo ? 'P' : null);
      expect(quote.promoPaymentsLeft).toBe(terms.cycles === null ? null : Math.max(0, terms.cycles - made));
      expect(paymentQuote(product, quantity, null, made)).toEqual({
        amount: product.price * quantity,
        regularAmount: product.price * quantity,
        promoCode: null,
        promoPaymentsLeft: 0,
      });
    },
  );

  test.prop([fc.constantFrom(...cycled), fc.integer({ min: 1, max: 3 }), termsArb, fc.constantFrom(0, 0, 14), fc.array(fc.boolean(), { maxLength: 10 })])(
    'what the checkout and the next payment show is what the decider charges, renewal after renewal',
    (product, qty, terms, freeTrialDays, outcomes) => {
      const quantity = product.extraMembers ? qty : 1;
      const promo: AppliedPromo = { code: 'P', price: promoPrice(terms, product, quantity), cycles: terms.cycles, freeTrialDays, extraQuotaBytes: 0 };
      const events: BillingEvent[] = [];
      let now = T0;
      const run = (type: BillingCommand['type'], data: unknown) => {
        const fresh = billingDecider.decide({ type, data, metadata: { now: new Date(now) } } as BillingCommand, fold(billingDecider, events));
        events.push(...fresh);
        return fresh;
      };
      const quote = checkoutQuote(product, quantity, promo);
      // a member slot needs a team plan first, bought at its own price
      if (product.extraMembers) {
        const plan = PRODUCTS.find((p) => p.plan?.kind === product.extraMembers!.forKind && p.price > 0 && p.type !== 'child-plan')!;
        run('StartCheckout', { checkoutId: 'plan', productId: plan.id, quantity: 1, provider: 'test', promo: null, customFields: {}, usageBytes: 0 });
        run('CompleteCheckout', { checkoutId: 'plan', subscriptionId: 'plan', paymentId: 'plan', providerRef: null });
      }
      const started = run('StartCheckout', { checkoutId: 'c', productId: product.id, quantity, provider: 'test', promo, customFields: {}, usageBytes: 0 });
      expect(started.find((e) => e.type === 'CheckoutStarted')?.data).toMatchObject({ amount: quote.dueToday });
      const completed = run('CompleteCheckout', { checkoutId: 'c', subscriptionId: 's', paymentId: 'p0', providerRef: null });
      const first = completed.find((e) => e.type === 'PaymentRecorded');
      if (freeTrialDays > 0) {
        expect(first).toBeUndefined();
        expect(nextPaymentOf(fold(billingDecider, events).subscriptions.s!)).toBeNull();
        return;
      }
      expect(first?.data).toMatchObject({ amount: quote.dueToday, promoCode: quote.promoCode });
      outcomes.forEach((paid, i) => {
        const sub = fold(billingDecider, events).subscriptions.s!;
        const next = nextPaymentOf(sub)!;
        expect(next.date).toBe(sub.nextPaymentDate);
        now = Date.parse(next.date) + DAY;
        const charged = run('RecordRenewal', { subscriptionId: 's', paymentId: `p${i + 1}`, outcome: paid ? 'paid' : 'failed' }).find(
          (e) => e.type === 'PaymentRecorded',
        );
        expect(charged?.data).toMatchObject({ amount: next.amount, promoCode: next.promoCode });
      });
    },
  );
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fold } from '../shared/decider';
import { isPurchasable, PRODUCTS, type PlanKind, type Product } from './billing.catalogue';
import { billingDecider, type BillingCommand } from './billing.decide';
import { entitlementsOf } from './billing.entitlements';
import type { BillingEvent } from './billing.events';
import { applyPromoCode, promoCodeDecider, type PromoCodeCommand, type PromoTerms } from './promo-code';

/*
 * A promo code through a whole checkout and the renewals after it: whatever the code, the product,
 * the quantity and the cycles, each payment stays between what the code promises and the full price,
 * and the seats a user gets are exactly the seats paid for.
 */

const T0 = new Date('2026-03-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const purchasable = PRODUCTS.filter(isPurchasable);
/** The plan an extra-members product is sold beside. */
const planFor = (kind: PlanKind): Product => PRODUCTS.find((p) => p.plan?.kind === kind && p.type !== 'child-plan' && p.validity === 'month')!;

const offerArb = fc.oneof(
  fc.record({ price: fc.integer({ min: 0, max: 50_000 }), discount: fc.constant(null) }),
  fc.record({
    price: fc.constant(null),
    discount: fc.oneof(
      fc.record({ amount: fc.integer({ min: 1, max: 100 }), unit: fc.constant('percent' as const) }),
      fc.record({ amount: fc.integer({ min: 1, max: 500_000 }), unit: fc.constant('usd' as const) }),
    ),
  }),
);

const caseArb = fc.record({
  product: fc.constantFrom(...purchasable),
  quantity: fc.integer({ min: 1, max: 100 }),
  offer: offerArb,
  cycles: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  recurrence: fc.constantFrom('once' as const, 'recurring' as const),
  renewals: fc.integer({ min: 0, max: 6 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer C> ? C : never;

const termsOf = (c: Case, productId: number): PromoTerms => ({
  title: 'Any',
  productIds: [productId],
  cycles: c.cycles,
  price: c.offer.price,
  discount: c.offer.discount,
  startDate: '2026-02-01T00:00:00.000Z',
  expiryDate: '2026-04-01T00:00:00.000Z',
  numberOfUses: null,
  recurrence: c.recurrence,
  freeTrialDays: 0,
  extraQuotaBytes: null,
  customFields: [],
  notes: null,
});

describe('a promo code over quantities and cycles', () => {
  test.prop([caseArb], { numRuns: 300 })('each payment is between the promised price and the full price; seats granted are seats paid', (c) => {
    const { product } = c;
    // the service sells plans one at a time and extra members by the unit
    const quantity = product.extraMembers ? c.quantity : 1;
    const full = product.price * quantity;
    const terms = termsOf(c, product.id);
    const created = promoCodeDecider.decide(
      { type: 'CreatePromoCode', data: { code: 'any', status: 'active', terms }, metadata: { now: T0 } } as PromoCodeCommand,
      promoCodeDecider.initialState(),
    );
    const applied = applyPromoCode(fold(promoCodeDecider, created), product, quantity, T0, {});

    const events: BillingEvent[] = [];
    let now = T0.getTime();
    const exec = (type: BillingCommand['type'], data: unknown) => {
      const out = billingDecider.decide({ type, data, metadata: { now: new Date(now) } } as BillingCommand, fold(billingDecider, events));
      events.push(...out);
      return out;
    };
    const buy = (p: Product, q: number, promo: typeof applied | null, n: string) => {
      exec('StartCheckout', { checkoutId: `c-${n}`, productId: p.id, quantity: q, provider: 'test', promo, customFields: {}, usageBytes: 0 });
      exec('CompleteCheckout', { checkoutId: `c-${n}`, subscriptionId: `s-${n}`, paymentId: `p-${n}`, providerRef: null });
    };
    if (product.extraMembers) buy(planFor(product.extraMembers.forKind), 1, null, 'plan');
    const seatsBefore = entitlementsOf({ subscriptions: Object.values(fold(billingDecider, events).subscriptions), now: new Date(now) }).freeSeats;
    buy(product, quantity, applied, 'promo');
    for (let i = 0; i < c.renewals; i++) {
      now += (product.validity === 'year' ? 366 : 31) * DAY;
      exec('RecordRenewal', { subscriptionId: 's-promo', paymentId: `r-${i}`, outcome: 'paid' });
      if (product.extraMembers) exec('RecordRenewal', { subscriptionId: 's-plan', paymentId: `rp-${i}`, outcome: 'paid' });
    }

    const paid = events.flatMap((e) => (e.type === 'PaymentRecorded' && e.data.subscriptionId === 's-promo' ? [e.data] : []));
    expect(paid).toHaveLength(1 + c.renewals);
    const promoCycles = c.recurrence === 'once' ? 1 : c.cycles;
    paid.forEach((payment, i) => {
      expect(payment.amount).toBeLessThanOrEqual(full);
      expect(payment.amount).toBeGreaterThanOrEqual(0);
      const promoApplies = promoCycles === null || i < promoCycles;
      if (!promoApplies) {
        expect(payment.amount).toBe(full);
        expect(payment.promoCode).toBeNull();
        return;
      }
      expect(payment.promoCode).toBe('ANY');
      if (terms.price !== null) {
        // a fixed price is per unit: never below it times the quantity (unless that is above the full price)
        expect(payment.amount).toBeGreaterThanOrEqual(Math.min(terms.price * quantity, full));
        expect(payment.amount).toBe(Math.min(terms.price, product.price) * quantity);
      } else if (terms.discount!.unit === 'percent') {
        expect(payment.amount).toBeGreaterThanOrEqual(Math.floor((full * (100 - terms.discount!.amount)) / 100));
      } else {
        expect(payment.amount).toBeGreaterThanOrEqual(full - terms.discount!.amount);
      }
    });

    const after = entitlementsOf({ subscriptions: Object.values(fold(billingDecider, events).subscriptions), now: new Date(now) });
    const seatsPaid = product.extraMembers ? product.extraMembers.seats * quantity : 0;
    if (product.extraMembers) {
      expect(after.extraMemberSeats).toBe(seatsPaid);
      expect(after.freeSeats - seatsBefore).toBe(seatsPaid);
    }
  });
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { BASIC, PRODUCTS, productById, type Product } from './billing.catalogue';
import { billingDecider, type BillingCommand } from './billing.decide';
import { effectivePlanSubscription, entitlementsOf } from './billing.entitlements';
import type { AppliedPromo, BillingEvent } from './billing.events';
import { isRunning } from './billing.state';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const purchasable = PRODUCTS.filter((p) => p.price > 0 && p.type !== 'child-plan');

const promoArb: fc.Arbitrary<AppliedPromo | null> = fc.option(
  fc.record({
    code: fc.constant('P'),
    price: fc.integer({ min: 0, max: 5000 }),
    cycles: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    freeTrialDays: fc.constantFrom(0, 0, 14, 30),
    extraQuotaBytes: fc.constantFrom(0, 0, 1024 ** 3),
  }),
  { nil: null },
);

const stepArb = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    product: fc.constantFrom(...purchasable),
    quantity: fc.integer({ min: 1, max: 3 }),
    promo: promoArb,
    pay: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), membersUsed: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant('renew' as const), pick: fc.nat(), paid: fc.boolean() }),
  fc.record({ kind: fc.constant('staff' as const), product: fc.constantFrom(...PRODUCTS.filter((p) => p.plan && p.type !== 'child-plan')) }),
);

/** Random histories through the real decider: refusals are part of life, anything else is a bug. */
const history = fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 40 })), { maxLength: 25 }).map((steps) => {
  const events: BillingEvent[] = [];
  let t = T0;
  let n = 0;
  const exec = (type: BillingCommand['type'], data: unknown) => {
    try {
      events.push(...billingDecider.decide({ type, data, metadata: { now: new Date(t) } } as BillingCommand, fold(billingDecider, events)));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
  };
  for (const [step, days] of steps) {
    t += days * DAY;
    n++;
    const subs = Object.values(fold(billingDecider, events).subscriptions);
    const pick = (i: number) => subs[i % Math.max(1, subs.length)]?.id ?? 'none';
    if (step.kind === 'buy') {
      exec('StartCheckout', {
        checkoutId: `c${n}`,
        productId: step.product.id,
        quantity: step.product.extraMembers ? step.quantity : 1,
        provider: 'test',
        promo: step.promo,
        customFields: {},
        usageBytes: 0,
      });
      if (step.pay) exec('CompleteCheckout', { checkoutId: `c${n}`, subscriptionId: `s${n}`, paymentId: `p${n}`, providerRef: null });
    } else if (step.kind === 'cancel') exec('CancelSubscription', { subscriptionId: pick(step.pick), by: 'user', membersUsed: step.membersUsed });
    else if (step.kind === 'renew') exec('RecordRenewal', { subscriptionId: pick(step.pick), paymentId: `p${n}`, outcome: step.paid ? 'paid' : 'failed' });
    else exec('ChangePlanByStaff', { subscriptionId: `s${n}`, productId: step.product.id });
  }
  return { events, end: t };
});

describe('entitlements over random histories', () => {
  test.prop([history, fc.integer({ min: 0, max: 800 })], { numRuns: 200 })('a user always has exactly one effective plan', ({ events, end }, later) => {
    const subs = Object.values(fold(billingDecider, events).subscriptions);
    for (const now of [new Date(T0), new Date(end), new Date(end + later * DAY)]) {
      const e = entitlementsOf({ subscriptions: subs, now });
      const plan = productById(e.plan.productId)!;
      expect(plan.plan).not.toBeNull();
      const owning = [
        e.flags.isBasic,
        e.flags.isStarter,
        e.flags.isPremium,
        e.flags.isProfessional && plan.plan!.kind === 'professional',
        e.flags.isGroupOwner,
        e.flags.isBusOwner,
        e.flags.isPartnerBusiness,
        e.flags.isEnterprise,
        plan.plan!.kind === 'team',
      ];
      expect(owning.filter(Boolean)).toHaveLength(1);
      const chosen = effectivePlanSubscription(subs, now);
      expect(chosen === null ? BASIC.id : chosen.productId).toBe(e.plan.productId);
    }
  });

  test.prop([history, fc.integer({ min: 0, max: 800 })], { numRuns: 200 })('entitlements never exceed the sum of what was bought', ({ events, end }, later) => {
    const subs = Object.values(fold(billingDecider, events).subscriptions);
    const now = new Date(end + later * DAY);
    const e = entitlementsOf({ subscriptions: subs, now });
    const running = subs.filter((s) => isRunning(s, now));
    const products = running.map((s) => productById(s.productId)!).filter((p): p is Product => Boolean(p));
    const boughtQuota =
      [BASIC, ...products].reduce((sum, p) => sum + (p.plan?.quotaBytes ?? 0), 0) + running.reduce((sum, s) => sum + (s.promo?.extraQuotaBytes ?? 0), 0);
    expect(e.quotaBytes).toBeLessThanOrEqual(boughtQuota);
    const boughtSeats = 5 + running.reduce((sum, s) => sum + (productById(s.productId)?.extraMembers?.seats ?? 0) * s.quantity, 0);
    expect(e.freeSeats).toBeLessThanOrEqual(boughtSeats);
    for (const permission of e.permissions) {
      expect([BASIC, ...products].some((p) => p.plan?.permissions.includes(permission))).toBe(true);
    }
  });
});

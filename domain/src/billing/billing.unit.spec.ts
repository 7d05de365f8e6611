import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError, type ErrorDefinition } from '../shared/errors';
import { EventRegistry } from '../shared/events';
import { BASIC_AFTER_DOWNGRADE_BYTES, ENTERPRISE_MONTHLY_ID, ENTERPRISE_YEARLY_ID, GB, PRODUCTS, productById, yearlyPrice } from './billing.catalogue';
import { billingDecider, GRACE_DAYS, type BillingCommand } from './billing.decide';
import { entitlementsOf, paymentDelayed } from './billing.entitlements';
import { BillingErrors } from './billing.errors';
import { billingEventDefinitions, type AppliedPromo, type BillingEvent } from './billing.events';
import { subscriptionStatusAt, type BillingState } from './billing.state';

const registry = new EventRegistry().register(...billingEventDefinitions);
const T0 = new Date('2026-01-10T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(T0.getTime() + days * DAY);

/** Runs commands in order, each at its time, and keeps every event (all of them storable). */
const run = (steps: readonly [BillingCommand['type'], unknown, Date][], given: BillingEvent[] = []) => {
  const events = [...given];
  for (const [type, data, now] of steps) {
    const produced = billingDecider.decide({ type, data, metadata: { now } } as BillingCommand, fold(billingDecider, events));
    for (const e of produced) registry.encode(e);
    events.push(...produced);
  }
  return { events, state: fold(billingDecider, events) };
};
const subsOf = (state: BillingState) => Object.values(state.subscriptions);

const buy = (productId: number, n: string, now: Date, promo: AppliedPromo | null = null): [BillingCommand['type'], unknown, Date][] => [
  ['StartCheckout', { checkoutId: `c${n}`, productId, quantity: 1, provider: 'test', promo, customFields: {}, usageBytes: 0 }, now],
  ['CompleteCheckout', { checkoutId: `c${n}`, subscriptionId: `s${n}`, paymentId: `p${n}`, providerRef: null }, now],
];

const expectError = (fn: () => unknown, def: ErrorDefinition) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe(def.code);
    return;
  }
  throw new Error(`expected ${def.code}`);
};

describe('the catalogue (§9)', () => {
  it('has the plans with their figures', () => {
    const byName = (name: string) => PRODUCTS.find((p) => p.name === name && p.validity !== 'year')!;
    expect(byName('Basic').plan!.quotaBytes).toBe(10 * GB);
    expect(byName('Starter').plan).toMatchObject({ quotaBytes: 100 * GB, sharesPerMonth: 20, fetchesPerMonth: 5 });
    expect(byName('Basic').plan).toMatchObject({ sharesPerMonth: 5, fetchesPerMonth: 5 });
    expect(byName('Professional').plan).toMatchObject({ quotaBytes: 500 * GB, sharesPerMonth: null });
    expect(byName('Team').plan).toMatchObject({ quotaBytes: 1024 * GB, includedAccounts: 10 });
    expect(byName('Group').plan).toMatchObject({ quotaBytes: 100 * GB, includedAccounts: 5 });
    expect(byName('Business').plan).toMatchObject({ quotaBytes: 250 * GB, includedAccounts: 25 });
    expect(byName('Partner Business').plan).toMatchObject({ quotaBytes: 150 * GB, includedAccounts: 5 });
    expect(byName('Premium').plan!.quotaBytes).toBe(10 * GB);
    expect(productById(ENTERPRISE_MONTHLY_ID)).toMatchObject({ price: 40000, weight: 300, validity: 'month' });
    expect(productById(ENTERPRISE_YEARLY_ID)).toMatchObject({ price: 400000, weight: 300, validity: 'year' });
  });

  it('prices extra accounts as the specification does, and yearly plans save 16.6%', () => {
    const extras = PRODUCTS.filter((p) => p.type === 'extra-members').map((p) => [p.extraMembers!.forKind, p.validity, p.price]);
    expect(extras).toEqual(
      expect.arrayContaining([
        ['team', 'month', 200],
        ['team', 'year', 2000],
        ['group', 'month', 499],
        ['group', 'year', 4999],
        ['business', 'month', 199],
        ['business', 'year', 1999],
      ]),
    );
    for (const p of PRODUCTS.filter((x) => x.type === 'plan' && x.validity === 'month')) {
      expect(p.price).toBeGreaterThanOrEqual(999);
      const saving = 1 - yearlyPrice(p.price) / (12 * p.price);
      expect(saving).toBeCloseTo(0.166, 2);
      expect(productById(p.id + 1)!.price).toBe(yearlyPrice(p.price));
    }
  });
});

describe('subscriptions', () => {
  it('an upgrade starts at once, and cancelling keeps the plan until the end date, then Basic at 2 GB', () => {
    const { state } = run([...buy(200, '1', T0), ['CancelSubscription', { subscriptionId: 's1', by: 'user', membersUsed: 0 }, at(3)]]);
    const sub = state.subscriptions.s1!;
    expect(sub.endDate).toBe(sub.nextPaymentDate);
    expect(subscriptionStatusAt(sub, at(3))).toBe('canceled');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(20) }).plan.kind).toBe('professional');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(20) }).quotaBytes).toBe(500 * GB);
    const after = entitlementsOf({ subscriptions: subsOf(state), now: at(40) });
    expect(after.plan.kind).toBe('basic');
    expect(after.downgraded).toBe(true);
    expect(after.quotaBytes).toBe(BASIC_AFTER_DOWNGRADE_BYTES);
  });

  it('a plan change waits for the current plan to expire (pending until then)', () => {
    const { state } = run([...buy(100, '1', T0), ...buy(200, '2', at(5))]);
    expect(subscriptionStatusAt(state.subscriptions.s2!, at(5))).toBe('pending');
    expect(state.subscriptions.s2!.startDate).toBe(state.subscriptions.s1!.nextPaymentDate);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(10) }).plan.kind).toBe('starter');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).plan.kind).toBe('professional');
    // a second change behind a pending one is refused
    expectError(() => run(buy(400, '3', at(6)), run([...buy(100, '1', T0), ...buy(200, '2', at(5))]).events), BillingErrors.planChangeNotAllowed);
  });

  it('refuses the plan already held, and a smaller plan until the usage fits', () => {
    const { events } = run(buy(200, '1', T0));
    expectError(() => run(buy(200, '2', at(1)), events), BillingErrors.planChangeNotAllowed);
    expectError(
      () =>
        run(
          [['StartCheckout', { checkoutId: 'c9', productId: 100, quantity: 1, provider: 'test', promo: null, customFields: {}, usageBytes: 200 * GB }, at(1)]],
          events,
        ),
      BillingErrors.usageTooHigh,
    );
  });

  it('a free trial ends and falls back to Basic', () => {
    const trial: AppliedPromo = { code: 'TRIAL', price: 0, cycles: null, freeTrialDays: 14, extraQuotaBytes: 0 };
    const { state } = run(buy(200, '1', T0, trial));
    expect(state.payments).toEqual([]);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(13) }).plan.kind).toBe('professional');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(15) }).plan.kind).toBe('basic');
  });

  it('renews on the next payment date at the promo price while payments are fewer than its cycles', () => {
    const holiday: AppliedPromo = { code: 'HOLIDAY', price: 99, cycles: 3, freeTrialDays: 0, extraQuotaBytes: 0 };
    const steps: [BillingCommand['type'], unknown, Date][] = [...buy(100, '1', T0, holiday)];
    for (let i = 2; i <= 5; i++) steps.push(['RecordRenewal', { subscriptionId: 's1', paymentId: `p${i}`, outcome: 'paid' }, at(31 * (i - 1))]);
    const { state } = run(steps);
    expect(state.payments.map((p) => p.amount)).toEqual([99, 99, 99, 999, 999]);
    expect(state.subscriptions.s1!.nextPaymentDate).toBe('2026-06-10T12:00:00.000Z');
  });

  it('a failed renewal starts a grace period with its dates; a payment ends it', () => {
    const { state } = run([...buy(200, '1', T0), ['RecordRenewal', { subscriptionId: 's1', paymentId: 'p2', outcome: 'failed' }, at(31)]]);
    const grace = entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).grace!;
    expect(grace.gracePeriodEndDate).toBe(at(31 + GRACE_DAYS).toISOString());
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).flags.isGraceUnpaidUser).toBe(true);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(31 + GRACE_DAYS + 1) }).flags.isUnpaidUser).toBe(true);
    const paid = run(
      [['RecordRenewal', { subscriptionId: 's1', paymentId: 'p3', outcome: 'paid' }, at(40)]],
      run([...buy(200, '1', T0), ['RecordRenewal', { subscriptionId: 's1', paymentId: 'p2', outcome: 'failed' }, at(31)]]).events,
    );
    expect(entitlementsOf({ subscriptions: subsOf(paid.state), now: at(41) }).grace).toBeNull();
  });

  it('in grace, buying the plan again replaces the unpaid subscription at once', () => {
    const failed = run([...buy(200, '1', T0), ['RecordRenewal', { subscriptionId: 's1', paymentId: 'p2', outcome: 'failed' }, at(31)]]);
    const { state } = run(buy(200, '2', at(33)), failed.events);
    expect(subscriptionStatusAt(state.subscriptions.s1!, at(33))).toBe('ended');
    expect(subscriptionStatusAt(state.subscriptions.s2!, at(33))).toBe('active');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(34) }).grace).toBeNull();
  });

  it('PAYMENT_DELAY once a checked plan is over a day past its next payment date', () => {
    const { state, events } = run(buy(100, '1', T0));
    const due = Date.parse(state.subscriptions.s1!.nextPaymentDate!);
    expect(paymentDelayed(subsOf(state), new Date(due + DAY - 1000))).toBe(false);
    expect(paymentDelayed(subsOf(state), new Date(due + DAY + 1000))).toBe(true);
    expectError(() => run(buy(200, '2', new Date(due + 2 * DAY)), events), BillingErrors.paymentDelay);
  });

  it('refuses a web subscription while a mobile-store one runs', () => {
    const mobile: BillingEvent = {
      type: 'SubscriptionStarted',
      data: {
        subscriptionId: 'm1',
        checkoutId: null,
        productId: 100,
        quantity: 1,
        cycle: 'month',
        provider: 'app_store',
        providerRef: 'x',
        startDate: T0.toISOString(),
        nextPaymentDate: at(30).toISOString(),
        endDate: null,
        promo: null,
        at: T0.toISOString(),
      },
    };
    expectError(() => run(buy(200, '1', at(1)), [mobile]), BillingErrors.mobileSubscription);
  });

  it('extra member slots add seats and cannot be cancelled below the members in use', () => {
    const { state, events } = run([...buy(500, '1', T0), ...buy(520, '2', T0)]);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(1) }).freeSeats).toBe(2);
    expectError(() => run([['CancelSubscription', { subscriptionId: 's2', by: 'user', membersUsed: 2 }, at(1)]], events), BillingErrors.notEnoughUnusedSlots);
    expect(run([['CancelSubscription', { subscriptionId: 's2', by: 'user', membersUsed: 1 }, at(1)]], events).events.at(-1)!.type).toBe('SubscriptionCanceled');
    // slots of a plan the user does not hold are refused
    expectError(() => run(buy(320, '3', T0)), BillingErrors.planChangeNotAllowed);
  });

  it('staff change the plan at once, without a payment', () => {
    const { state, events } = run([...buy(100, '1', T0), ['ChangePlanByStaff', { subscriptionId: 's2', productId: ENTERPRISE_MONTHLY_ID }, at(2)]]);
    // one fact for the user's activity log, beside the subscriptions it ends and starts
    expect(events.filter((e) => e.type === 'PlanChangedByStaff').map((e) => e.data)).toEqual([
      {
        productId: ENTERPRISE_MONTHLY_ID,
        plan: 'Enterprise',
        previousProductId: 100,
        previousPlan: productById(100)!.name,
        subscriptionId: 's2',
        at: at(2).toISOString(),
      },
    ]);
    const e = entitlementsOf({ subscriptions: subsOf(state), now: at(2) });
    expect(e.plan.kind).toBe('enterprise');
    expect(e.flags.isEnterprise && e.flags.isTeamOwner).toBe(true);
    expect(state.payments).toHaveLength(1);
  });

  it("keeps the provider's link of a checkout, once", () => {
    const start: [BillingCommand['type'], unknown, Date] = [
      'StartCheckout',
      { checkoutId: 'c1', productId: 1001, quantity: 1, provider: 'test', promo: null, customFields: {}, usageBytes: 0 },
      T0,
    ];
    const link: [BillingCommand['type'], unknown, Date] = ['RecordCheckoutLink', { checkoutId: 'c1', checkoutLink: 'https://pay.example/c1' }, T0];
    const { state, events } = run([start, link, link]);
    expect(state.checkouts.c1!.checkoutLink).toBe('https://pay.example/c1');
    expect(events.filter((e) => e.type === 'CheckoutLinkIssued')).toHaveLength(1);
  });

  it('a declined checkout cannot be paid afterwards, and a paid one is paid once', () => {
    const start: [BillingCommand['type'], unknown, Date] = [
      'StartCheckout',
      { checkoutId: 'c1', productId: 200, quantity: 1, provider: 'test', promo: null, customFields: {}, usageBytes: 0 },
      T0,
    ];
    const declined = run([start, ['DeclineCheckout', { checkoutId: 'c1' }, T0]]);
    expectError(
      () => run([['CompleteCheckout', { checkoutId: 'c1', subscriptionId: 's1', paymentId: 'p1', providerRef: null }, T0]], declined.events),
      BillingErrors.checkoutClosed,
    );
    const paid = run(buy(200, '1', T0));
    expect(run([['CompleteCheckout', { checkoutId: 'c1', subscriptionId: 's9', paymentId: 'p9', providerRef: null }, T0]], paid.events).events).toHaveLength(
      paid.events.length,
    );
  });
});

describe('entitlements', () => {
  it('Basic: 10 GB, 5 shares and 5 fetches a month, 5 free seats', () => {
    const e = entitlementsOf({ subscriptions: [], now: T0 });
    expect(e).toMatchObject({ quotaBytes: 10 * GB, secureShareMaxCountPerPeriod: 5, secureFetchMaxCountPerPeriod: 5, freeSeats: 5, downgraded: false });
    expect(e.flags.isBasic).toBe(true);
  });

  it('Professional: 500 GB, unlimited sharing, eSign, E2EE, 2FA and backup', () => {
    const { state } = run(buy(200, '1', T0));
    const e = entitlementsOf({ subscriptions: subsOf(state), now: at(1) });
    expect(e.quotaBytes).toBe(500 * GB);
    expect(e.secureShareMaxCountPerPeriod).toBeNull();
    expect(e.features).toEqual(expect.arrayContaining(['esign', 'e2ee', 'two-factor', 'backup']));
    expect(e.permissions).toEqual(expect.arrayContaining(['unlimited-shared-file-size', 'shared-storage-access', 'storage-encryption']));
    expect(e.flags).toMatchObject({ isProfessional: true, isBasic: false, hasE2EEAccess: true });
  });

  it("a promo code's extra quota counts while its subscription runs", () => {
    const extra: AppliedPromo = { code: 'MORE', price: 999, cycles: null, freeTrialDays: 0, extraQuotaBytes: 50 * GB };
    const { state } = run(buy(100, '1', T0, extra));
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(1) }).quotaBytes).toBe(150 * GB);
  });

  it('team owners have one free seat, as do co-admins', () => {
    const { state } = run(buy(500, '1', T0));
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(1) }).freeSeats).toBe(1);
    expect(entitlementsOf({ subscriptions: [], now: T0, isCoAdmin: true }).freeSeats).toBe(1);
  });
});

describe('"Pay now": a checkout for an overdue renewal', () => {
  const inGrace = () => run([...buy(200, '1', T0), ['RecordRenewal', { subscriptionId: 's1', paymentId: 'p2', outcome: 'failed' }, at(31)]]).events;

  it('given a failed renewal, when its checkout is paid, then the missed cycle is paid and the grace period ends', () => {
    const { events, state } = run(
      [
        ['StartRenewalCheckout', { checkoutId: 'r1', subscriptionId: 's1', provider: 'test' }, at(33)],
        ['CompleteCheckout', { checkoutId: 'r1', subscriptionId: 'unused', paymentId: 'p3', providerRef: null }, at(34)],
      ],
      inGrace(),
    );
    expect(events.find((e) => e.type === 'CheckoutStarted' && e.data.checkoutId === 'r1')?.data).toMatchObject({ amount: 1999, renewsSubscriptionId: 's1' });
    const sub = state.subscriptions.s1!;
    expect(sub.grace).toBeNull();
    expect(sub.nextPaymentDate).toBe('2026-03-10T12:00:00.000Z');
    expect(state.checkouts.r1!.status).toBe('paid');
    expect(state.payments.at(-1)).toMatchObject({ id: 'p3', amount: 1999, status: 'succeeded' });
    expect(Object.keys(state.subscriptions)).toEqual(['s1']);
  });

  it('nothing is due without a failed renewal, another provider does not take it, and it is never paid twice', () => {
    expectError(
      () => run([['StartRenewalCheckout', { checkoutId: 'r1', subscriptionId: 's1', provider: 'test' }, at(2)]], run(buy(200, '1', T0)).events),
      BillingErrors.nothingOverdue,
    );
    expectError(
      () => run([['StartRenewalCheckout', { checkoutId: 'r1', subscriptionId: 's1', provider: 'stripe' }, at(33)]], inGrace()),
      BillingErrors.paymentsUnavailable,
    );
    const two = run(
      [
        ['StartRenewalCheckout', { checkoutId: 'r1', subscriptionId: 's1', provider: 'test' }, at(33)],
        ['StartRenewalCheckout', { checkoutId: 'r2', subscriptionId: 's1', provider: 'test' }, at(33)],
        ['CompleteCheckout', { checkoutId: 'r1', subscriptionId: 'x', paymentId: 'p3', providerRef: null }, at(34)],
      ],
      inGrace(),
    );
    expectError(
      () => run([['CompleteCheckout', { checkoutId: 'r2', subscriptionId: 'x', paymentId: 'p4', providerRef: null }, at(34)]], two.events),
      BillingErrors.nothingOverdue,
    );
    expect(run([['CompleteCheckout', { checkoutId: 'r1', subscriptionId: 'x', paymentId: 'p5', providerRef: null }, at(35)]], two.events).events).toHaveLength(
      two.events.length,
    );
  });
});

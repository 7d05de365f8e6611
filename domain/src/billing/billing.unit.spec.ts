import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
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

type Data<T extends BillingCommand['type']> = Extract<BillingCommand, { type: T }>['data'];
const cmd = <T extends BillingCommand['type']>(type: T, data: Data<T>, now: Date) => ({ type, data, metadata: { now } }) as BillingCommand;
// every event a command decides must be storable as it is
const storable = { eachEvent: (event: BillingEvent) => void registry.encode(event) };
const given = DeciderSpecification.for(billingDecider, storable);
const history = (commands: readonly BillingCommand[], before: BillingEvent[] = []) => DeciderSpecification.history(billingDecider, commands, before, storable);
const stateAfter = (commands: readonly BillingCommand[], before: BillingEvent[] = []) => fold(billingDecider, history(commands, before));
const subsOf = (state: BillingState) => Object.values(state.subscriptions);

const startCheckout = (productId: number, n: string, now: Date, promo: AppliedPromo | null = null, usageBytes = 0) =>
  cmd('StartCheckout', { checkoutId: `c${n}`, productId, quantity: 1, provider: 'test', promo, customFields: {}, usageBytes }, now);
const completeCheckout = (checkoutId: string, subscriptionId: string, paymentId: string, now: Date) =>
  cmd('CompleteCheckout', { checkoutId, subscriptionId, paymentId, providerRef: null }, now);
const buy = (productId: number, n: string, now: Date, promo: AppliedPromo | null = null): BillingCommand[] => [
  startCheckout(productId, n, now, promo),
  completeCheckout(`c${n}`, `s${n}`, `p${n}`, now),
];
const renewal = (paymentId: string, outcome: 'paid' | 'failed', now: Date) => cmd('RecordRenewal', { subscriptionId: 's1', paymentId, outcome }, now);
const cancel = (subscriptionId: string, membersUsed: number, now: Date) => cmd('CancelSubscription', { subscriptionId, by: 'user', membersUsed }, now);

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
    given(history(buy(200, '1', T0)))
      .when(cancel('s1', 0, at(3)))
      .thenState((state) => {
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
  });

  it('a plan change waits for the current plan to expire (pending until then)', () => {
    const changed = history([...buy(100, '1', T0), ...buy(200, '2', at(5))]);
    const state = fold(billingDecider, changed);
    expect(subscriptionStatusAt(state.subscriptions.s2!, at(5))).toBe('pending');
    expect(state.subscriptions.s2!.startDate).toBe(state.subscriptions.s1!.nextPaymentDate);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(10) }).plan.kind).toBe('starter');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).plan.kind).toBe('professional');
    // a second change behind a pending one is refused
    given(changed)
      .when(startCheckout(400, '3', at(6)))
      .thenThrows(BillingErrors.planChangeNotAllowed);
  });

  it('refuses the plan already held, and a smaller plan until the usage fits', () => {
    const events = history(buy(200, '1', T0));
    given(events)
      .when(startCheckout(200, '2', at(1)))
      .thenThrows(BillingErrors.planChangeNotAllowed);
    given(events)
      .when(startCheckout(100, '9', at(1), null, 200 * GB))
      .thenThrows(BillingErrors.usageTooHigh);
  });

  it('a free trial ends and falls back to Basic', () => {
    const trial: AppliedPromo = { code: 'TRIAL', price: 0, cycles: null, freeTrialDays: 14, extraQuotaBytes: 0 };
    const state = stateAfter(buy(200, '1', T0, trial));
    expect(state.payments).toEqual([]);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(13) }).plan.kind).toBe('professional');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(15) }).plan.kind).toBe('basic');
  });

  it('renews on the next payment date at the promo price while payments are fewer than its cycles', () => {
    const holiday: AppliedPromo = { code: 'HOLIDAY', price: 99, cycles: 3, freeTrialDays: 0, extraQuotaBytes: 0 };
    const commands: BillingCommand[] = [...buy(100, '1', T0, holiday)];
    for (let i = 2; i <= 5; i++) commands.push(renewal(`p${i}`, 'paid', at(31 * (i - 1))));
    const state = stateAfter(commands);
    expect(state.payments.map((p) => p.amount)).toEqual([99, 99, 99, 999, 999]);
    expect(state.subscriptions.s1!.nextPaymentDate).toBe('2026-06-10T12:00:00.000Z');
  });

  it('a failed renewal starts a grace period with its dates; a payment ends it', () => {
    const failed = history([...buy(200, '1', T0), renewal('p2', 'failed', at(31))]);
    const state = fold(billingDecider, failed);
    const grace = entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).grace!;
    expect(grace.gracePeriodEndDate).toBe(at(31 + GRACE_DAYS).toISOString());
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(32) }).flags.isGraceUnpaidUser).toBe(true);
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(31 + GRACE_DAYS + 1) }).flags.isUnpaidUser).toBe(true);
    given(failed)
      .when(renewal('p3', 'paid', at(40)))
      .thenState((paid) => expect(entitlementsOf({ subscriptions: subsOf(paid), now: at(41) }).grace).toBeNull());
  });

  it('in grace, buying the plan again replaces the unpaid subscription at once', () => {
    const failed = history([...buy(200, '1', T0), renewal('p2', 'failed', at(31))]);
    const state = stateAfter(buy(200, '2', at(33)), failed);
    expect(subscriptionStatusAt(state.subscriptions.s1!, at(33))).toBe('ended');
    expect(subscriptionStatusAt(state.subscriptions.s2!, at(33))).toBe('active');
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(34) }).grace).toBeNull();
  });

  it('PAYMENT_DELAY once a checked plan is over a day past its next payment date', () => {
    const events = history(buy(100, '1', T0));
    const state = fold(billingDecider, events);
    const due = Date.parse(state.subscriptions.s1!.nextPaymentDate!);
    expect(paymentDelayed(subsOf(state), new Date(due + DAY - 1000))).toBe(false);
    expect(paymentDelayed(subsOf(state), new Date(due + DAY + 1000))).toBe(true);
    given(events)
      .when(startCheckout(200, '2', new Date(due + 2 * DAY)))
      .thenThrows(BillingErrors.paymentDelay);
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
    given([mobile])
      .when(startCheckout(200, '1', at(1)))
      .thenThrows(BillingErrors.mobileSubscription);
  });

  it('extra member slots add seats and cannot be cancelled below the members in use', () => {
    const events = history([...buy(500, '1', T0), ...buy(520, '2', T0)]);
    expect(entitlementsOf({ subscriptions: subsOf(fold(billingDecider, events)), now: at(1) }).freeSeats).toBe(2);
    given(events)
      .when(cancel('s2', 2, at(1)))
      .thenThrows(BillingErrors.notEnoughUnusedSlots);
    given(events)
      .when(cancel('s2', 1, at(1)))
      .then((decided) => expect(decided.at(-1)!.type).toBe('SubscriptionCanceled'));
    // slots of a plan the user does not hold are refused
    given([])
      .when(startCheckout(320, '3', T0))
      .thenThrows(BillingErrors.planChangeNotAllowed);
  });

  it('staff change the plan at once, without a payment', () => {
    given(history(buy(100, '1', T0)))
      .when(cmd('ChangePlanByStaff', { subscriptionId: 's2', productId: ENTERPRISE_MONTHLY_ID }, at(2)))
      .thenState((state, events) => {
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
  });

  it("keeps the provider's link of a checkout, once", () => {
    const started = history([startCheckout(1001, '1', T0)]);
    const link = cmd('RecordCheckoutLink', { checkoutId: 'c1', checkoutLink: 'https://pay.example/c1' }, T0);
    given(started)
      .when(link)
      .thenState((state, events) => {
        expect(state.checkouts.c1!.checkoutLink).toBe('https://pay.example/c1');
        expect([...started, ...events].filter((e) => e.type === 'CheckoutLinkIssued')).toHaveLength(1);
      });
    given(history([link], started))
      .when(link)
      .thenNothingHappened();
  });

  it('a declined checkout cannot be paid afterwards, and a paid one is paid once', () => {
    given(history([startCheckout(200, '1', T0), cmd('DeclineCheckout', { checkoutId: 'c1' }, T0)]))
      .when(completeCheckout('c1', 's1', 'p1', T0))
      .thenThrows(BillingErrors.checkoutClosed);
    given(history(buy(200, '1', T0)))
      .when(completeCheckout('c1', 's9', 'p9', T0))
      .thenNothingHappened();
  });
});

describe('entitlements', () => {
  it('Basic: 10 GB, 5 shares and 5 fetches a month, 5 free seats', () => {
    const e = entitlementsOf({ subscriptions: [], now: T0 });
    expect(e).toMatchObject({ quotaBytes: 10 * GB, secureShareMaxCountPerPeriod: 5, secureFetchMaxCountPerPeriod: 5, freeSeats: 5, downgraded: false });
    expect(e.flags.isBasic).toBe(true);
  });

  it('Professional: 500 GB, unlimited sharing, eSign, E2EE, 2FA and backup', () => {
    const state = stateAfter(buy(200, '1', T0));
    const e = entitlementsOf({ subscriptions: subsOf(state), now: at(1) });
    expect(e.quotaBytes).toBe(500 * GB);
    expect(e.secureShareMaxCountPerPeriod).toBeNull();
    expect(e.features).toEqual(expect.arrayContaining(['esign', 'e2ee', 'two-factor', 'backup']));
    expect(e.permissions).toEqual(expect.arrayContaining(['unlimited-shared-file-size', 'shared-storage-access', 'storage-encryption']));
    expect(e.flags).toMatchObject({ isProfessional: true, isBasic: false, hasE2EEAccess: true });
  });

  it("a promo code's extra quota counts while its subscription runs", () => {
    const extra: AppliedPromo = { code: 'MORE', price: 999, cycles: null, freeTrialDays: 0, extraQuotaBytes: 50 * GB };
    const state = stateAfter(buy(100, '1', T0, extra));
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(1) }).quotaBytes).toBe(150 * GB);
  });

  it('team owners have one free seat, as do co-admins', () => {
    const state = stateAfter(buy(500, '1', T0));
    expect(entitlementsOf({ subscriptions: subsOf(state), now: at(1) }).freeSeats).toBe(1);
    expect(entitlementsOf({ subscriptions: [], now: T0, isCoAdmin: true }).freeSeats).toBe(1);
  });
});

describe('"Pay now": a checkout for an overdue renewal', () => {
  const inGrace = () => history([...buy(200, '1', T0), renewal('p2', 'failed', at(31))]);
  const startRenewal = (checkoutId: string, provider: 'test' | 'stripe', now: Date) =>
    cmd('StartRenewalCheckout', { checkoutId, subscriptionId: 's1', provider }, now);

  it('given a failed renewal, when its checkout is paid, then the missed cycle is paid and the grace period ends', () => {
    given(inGrace())
      .when(startRenewal('r1', 'test', at(33)))
      .then((events) =>
        expect(events.find((e) => e.type === 'CheckoutStarted' && e.data.checkoutId === 'r1')?.data).toMatchObject({
          amount: 1999,
          renewsSubscriptionId: 's1',
        }),
      );
    given(history([startRenewal('r1', 'test', at(33))], inGrace()))
      .when(completeCheckout('r1', 'unused', 'p3', at(34)))
      .thenState((state) => {
        const sub = state.subscriptions.s1!;
        expect(sub.grace).toBeNull();
        expect(sub.nextPaymentDate).toBe('2026-03-10T12:00:00.000Z');
        expect(state.checkouts.r1!.status).toBe('paid');
        expect(state.payments.at(-1)).toMatchObject({ id: 'p3', amount: 1999, status: 'succeeded' });
        expect(Object.keys(state.subscriptions)).toEqual(['s1']);
      });
  });

  it('nothing is due without a failed renewal, another provider does not take it, and it is never paid twice', () => {
    given(history(buy(200, '1', T0)))
      .when(startRenewal('r1', 'test', at(2)))
      .thenThrows(BillingErrors.nothingOverdue);
    given(inGrace())
      .when(startRenewal('r1', 'stripe', at(33)))
      .thenThrows(BillingErrors.paymentsUnavailable);
    const two = history([startRenewal('r1', 'test', at(33)), startRenewal('r2', 'test', at(33)), completeCheckout('r1', 'x', 'p3', at(34))], inGrace());
    given(two)
      .when(completeCheckout('r2', 'x', 'p4', at(34)))
      .thenThrows(BillingErrors.nothingOverdue);
    given(two)
      .when(completeCheckout('r1', 'x', 'p5', at(35)))
      .thenNothingHappened();
  });
});

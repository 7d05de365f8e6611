import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { BASIC, GB, isPurchasable, productById, type Cycle, type Product } from './billing.catalogue';
import { effectivePlanSubscription, entitlementsOf, paymentDelayed } from './billing.entitlements';
import { BillingErrors } from './billing.errors';
import { checkoutQuote, paymentQuote } from './billing.payments';
import type { AppliedPromo, BillingEvent, Provider } from './billing.events';
import {
  evolveBilling,
  initialBillingState,
  isRunning,
  subscriptionStatusAt,
  type BillingState,
  type CheckoutRecord,
  type SubscriptionRecord,
} from './billing.state';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The grace timeline after a failed renewal (the specification leaves the numbers open). */
export const GRACE_DAYS = 14;
export const STORAGE_DELETION_AFTER_GRACE_DAYS = 30;
export const ACCOUNT_DELETION_AFTER_GRACE_DAYS = 60;

export type BillingCommand =
  | Command<
      'StartCheckout',
      {
        checkoutId: string;
        productId: number;
        quantity: number;
        provider: Provider;
        promo: AppliedPromo | null;
        customFields: Record<string, string>;
        /** Bytes the user stores now: a smaller plan waits until they fit. */
        usageBytes: number;
      }
    >
  | Command<'StartRenewalCheckout', { checkoutId: string; subscriptionId: string; provider: Provider }>
  | Command<'CompleteCheckout', { checkoutId: string; subscriptionId: string; paymentId: string; providerRef: string | null }>
  | Command<'DeclineCheckout', { checkoutId: string }>
  | Command<'RecordCheckoutLink', { checkoutId: string; checkoutLink: string }>
  | Command<'CancelSubscription', { subscriptionId: string; by: 'user' | 'staff'; membersUsed: number }>
  | Command<'RecordRenewal', { subscriptionId: string; paymentId: string; outcome: 'paid' | 'failed' }>
  | Command<'ChangePlanByStaff', { subscriptionId: string; productId: number }>
  | Command<'DeactivateForNonPayment', { subscriptionId: string }>
  | Command<'MarkUnpaidStorageDeletionDue', { subscriptionId: string }>;

export const addCycle = (from: Date, cycle: Cycle): Date => {
  const d = new Date(from.getTime());
  if (cycle === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
};

const iso = (d: Date) => d.toISOString();
const subscriptions = (state: BillingState) => Object.values(state.subscriptions);

const requireProduct = (id: number): Product => {
  const p = productById(id);
  if (!p) throw new DomainError(BillingErrors.productNotFound);
  return p;
};

const startCheckout = (state: BillingState, data: Extract<BillingCommand, { type: 'StartCheckout' }>['data'], now: Date): BillingEvent[] => {
  const product = requireProduct(data.productId);
  if (!isPurchasable(product)) throw new DomainError(BillingErrors.productNotFound);
  const subs = subscriptions(state);
  if (subs.some((s) => (s.provider === 'app_store' || s.provider === 'play_store') && isRunning(s, now))) {
    throw new DomainError(BillingErrors.mobileSubscription);
  }
  if (paymentDelayed(subs, now)) throw new DomainError(BillingErrors.paymentDelay);
  const current = entitlementsOf({ subscriptions: subs, now });
  if (product.plan) {
    const running = effectivePlanSubscription(subs, now);
    // the same plan again, or a second change queued behind one already waiting
    // (buying again while a renewal is unpaid is how a user in grace pays)
    if (running?.productId === product.id && subscriptionStatusAt(running, now) === 'active' && !running.grace) {
      throw new DomainError(BillingErrors.planChangeNotAllowed);
    }
    if (subs.some((s) => productById(s.productId)?.plan && subscriptionStatusAt(s, now) === 'pending')) {
      throw new DomainError(BillingErrors.planChangeNotAllowed);
    }
    if (data.usageBytes > product.plan.quotaBytes) {
      throw new DomainError(
        BillingErrors.usageTooHigh,
        { size: product.plan.quotaBytes },
        BillingErrors.usageTooHigh.message.replace('{{size}}', `${product.plan.quotaBytes / GB} GB`),
      );
    }
  } else if (product.extraMembers && product.extraMembers.forKind !== current.plan.kind) {
    throw new DomainError(BillingErrors.planChangeNotAllowed);
  }
  const quote = checkoutQuote(product, data.quantity, data.promo);
  return [
    {
      type: 'CheckoutStarted',
      data: {
        checkoutId: data.checkoutId,
        productId: product.id,
        quantity: data.quantity,
        provider: data.provider,
        amount: quote.dueToday,
        promo: data.promo,
        customFields: data.customFields,
        at: iso(now),
      },
    },
  ];
};

/** The payment a subscription in grace owes: its cycle's price (the promo code's while it applies). */
const overduePayment = (sub: SubscriptionRecord) => {
  const product = requireProduct(sub.productId);
  const { amount, promoCode } = paymentQuote(product, sub.quantity, sub.promo, sub.paymentsMade);
  return { product, amount, promoCode };
};

/** "Pay now": a checkout for the renewal a subscription in grace failed to pay. */
const startRenewalCheckout = (state: BillingState, data: Extract<BillingCommand, { type: 'StartRenewalCheckout' }>['data'], now: Date): BillingEvent[] => {
  const sub = requireSubscription(state, data.subscriptionId);
  if (!sub.grace || !sub.cycle || subscriptionStatusAt(sub, now) === 'ended') throw new DomainError(BillingErrors.nothingOverdue);
  // the renewal is owed to the provider that runs the subscription
  if (sub.provider !== data.provider) throw new DomainError(BillingErrors.paymentsUnavailable);
  const { product, amount } = overduePayment(sub);
  return [
    {
      type: 'CheckoutStarted',
      data: {
        checkoutId: data.checkoutId,
        productId: product.id,
        quantity: sub.quantity,
        provider: data.provider,
        amount,
        promo: null,
        customFields: {},
        renewsSubscriptionId: sub.id,
        at: iso(now),
      },
    },
  ];
};

/** A renewal checkout paid: the overdue cycle is paid, as a renewal payment would, and the grace period ends. */
const completeRenewalCheckout = (
  state: BillingState,
  checkout: CheckoutRecord,
  data: Extract<BillingCommand, { type: 'CompleteCheckout' }>['data'],
  now: Date,
): BillingEvent[] => {
  const sub = requireSubscription(state, checkout.renewsSubscriptionId!);
  // paid meanwhile by another checkout or the provider's own retry: nothing is taken twice
  if (!sub.grace || !sub.cycle || subscriptionStatusAt(sub, now) === 'ended') throw new DomainError(BillingErrors.nothingOverdue);
  const { product, promoCode } = overduePayment(sub);
  const from = sub.nextPaymentDate ? new Date(sub.nextPaymentDate) : now;
  return [
    {
      type: 'PaymentRecorded',
      data: {
        paymentId: data.paymentId,
        subscriptionId: sub.id,
        productId: product.id,
        amount: checkout.amount,
        currency: 'usd',
        provider: checkout.provider,
        status: 'succeeded',
        promoCode,
        checkoutId: checkout.id,
        at: iso(now),
      },
    },
    { type: 'SubscriptionRenewed', data: { subscriptionId: sub.id, paymentId: data.paymentId, nextPaymentDate: iso(addCycle(from, sub.cycle)), at: iso(now) } },
  ];
};

const completeCheckout = (state: BillingState, data: Extract<BillingCommand, { type: 'CompleteCheckout' }>['data'], now: Date): BillingEvent[] => {
  const checkout = state.checkouts[data.checkoutId];
  if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
  if (checkout.status === 'paid') return [];
  if (checkout.status === 'declined') throw new DomainError(BillingErrors.checkoutClosed);
  if (checkout.renewsSubscriptionId) return completeRenewalCheckout(state, checkout, data, now);
  const product = requireProduct(checkout.productId);
  const events: BillingEvent[] = [];
  let start = now;
  if (product.plan) {
    const running = effectivePlanSubscription(subscriptions(state), now);
    const runningProduct = running ? productById(running.productId) : undefined;
    if (running?.grace) {
      // the unpaid plan gives way at once to the one just paid
      events.push({ type: 'SubscriptionCanceled', data: { subscriptionId: running.id, endDate: iso(now), by: 'plan_change', at: iso(now) } });
    } else if (running && runningProduct && runningProduct.price > 0) {
      // a plan or cycle change takes effect when the current one expires
      const end = running.endDate ?? running.nextPaymentDate ?? iso(now);
      start = new Date(Math.max(Date.parse(end), now.getTime()));
      if (!running.canceledAt) {
        events.push({ type: 'SubscriptionCanceled', data: { subscriptionId: running.id, endDate: iso(start), by: 'plan_change', at: iso(now) } });
      }
    }
  }
  const trialDays = checkout.promo?.freeTrialDays ?? 0;
  const cycle = product.validity;
  const trialEnd = trialDays > 0 ? new Date(start.getTime() + trialDays * DAY_MS) : null;
  events.push({
    type: 'SubscriptionStarted',
    data: {
      subscriptionId: data.subscriptionId,
      checkoutId: checkout.id,
      productId: product.id,
      quantity: checkout.quantity,
      cycle,
      provider: checkout.provider,
      providerRef: data.providerRef,
      startDate: iso(start),
      nextPaymentDate: trialEnd || !cycle ? null : iso(addCycle(start, cycle)),
      endDate: trialEnd ? iso(trialEnd) : null,
      promo: checkout.promo,
      at: iso(now),
    },
  });
  if (!trialEnd) {
    events.push({
      type: 'PaymentRecorded',
      data: {
        paymentId: data.paymentId,
        subscriptionId: data.subscriptionId,
        productId: product.id,
        amount: checkout.amount,
        currency: 'usd',
        provider: checkout.provider,
        status: 'succeeded',
        promoCode: checkout.promo?.code ?? null,
        at: iso(now),
      },
    });
  }
  return events;
};

const requireSubscription = (state: BillingState, id: string): SubscriptionRecord => {
  const sub = state.subscriptions[id];
  if (!sub) throw new DomainError(BillingErrors.subscriptionNotFound);
  return sub;
};

const cancel = (state: BillingState, data: Extract<BillingCommand, { type: 'CancelSubscription' }>['data'], now: Date): BillingEvent[] => {
  const sub = requireSubscription(state, data.subscriptionId);
  const status = subscriptionStatusAt(sub, now);
  if (status === 'ended' || sub.canceledAt) throw new DomainError(BillingErrors.alreadyCanceled);
  const product = requireProduct(sub.productId);
  if (product.extraMembers) {
    const others = subscriptions(state).filter((s) => s.id !== sub.id);
    if (entitlementsOf({ subscriptions: others, now }).freeSeats < data.membersUsed) throw new DomainError(BillingErrors.notEnoughUnusedSlots);
  }
  // a pending change is dropped at once; a running plan is kept until its paid time runs out
  const endDate = status === 'pending' ? iso(now) : (sub.nextPaymentDate ?? sub.endDate ?? iso(now));
  return [{ type: 'SubscriptionCanceled', data: { subscriptionId: sub.id, endDate, by: data.by, at: iso(now) } }];
};

const renew = (state: BillingState, data: Extract<BillingCommand, { type: 'RecordRenewal' }>['data'], now: Date): BillingEvent[] => {
  const sub = requireSubscription(state, data.subscriptionId);
  if (state.payments.some((p) => p.id === data.paymentId)) return [];
  const product = requireProduct(sub.productId);
  if (!sub.cycle || subscriptionStatusAt(sub, now) === 'ended') throw new DomainError(BillingErrors.subscriptionNotFound);
  const { amount, promoCode } = paymentQuote(product, sub.quantity, sub.promo, sub.paymentsMade);
  const payment = (status: 'succeeded' | 'failed'): BillingEvent => ({
    type: 'PaymentRecorded',
    data: {
      paymentId: data.paymentId,
      subscriptionId: sub.id,
      productId: product.id,
      amount,
      currency: 'usd',
      provider: sub.provider,
      status,
      promoCode,
      at: iso(now),
    },
  });
  if (data.outcome === 'paid') {
    // a late payment in grace pays the cycle that was due, not one counted from today
    const from = sub.nextPaymentDate ? new Date(sub.nextPaymentDate) : now;
    return [
      payment('succeeded'),
      {
        type: 'SubscriptionRenewed',
        data: { subscriptionId: sub.id, paymentId: data.paymentId, nextPaymentDate: iso(addCycle(from, sub.cycle)), at: iso(now) },
      },
    ];
  }
  if (sub.grace) return [payment('failed')];
  const graceEnd = new Date(now.getTime() + GRACE_DAYS * DAY_MS);
  return [
    payment('failed'),
    {
      type: 'RenewalFailed',
      data: {
        subscriptionId: sub.id,
        paymentId: data.paymentId,
        graceEndDate: iso(graceEnd),
        storageDeletionDate: iso(new Date(graceEnd.getTime() + STORAGE_DELETION_AFTER_GRACE_DAYS * DAY_MS)),
        accountDeletionDate: iso(new Date(graceEnd.getTime() + ACCOUNT_DELETION_AFTER_GRACE_DAYS * DAY_MS)),
        at: iso(now),
      },
    },
  ];
};

const changeByStaff = (state: BillingState, data: Extract<BillingCommand, { type: 'ChangePlanByStaff' }>['data'], now: Date): BillingEvent[] => {
  const product = requireProduct(data.productId);
  if (!product.plan || product.type === 'child-plan') throw new DomainError(BillingErrors.planChangeNotAllowed);
  const previous = productById(effectivePlanSubscription(subscriptions(state), now)?.productId ?? BASIC.id) ?? BASIC;
  const events: BillingEvent[] = [
    {
      type: 'PlanChangedByStaff',
      data: {
        productId: product.id,
        plan: product.name,
        previousProductId: previous.id,
        previousPlan: previous.name,
        subscriptionId: product.price > 0 ? data.subscriptionId : null,
        at: iso(now),
      },
    },
  ];
  for (const sub of subscriptions(state)) {
    const p = productById(sub.productId);
    const status = subscriptionStatusAt(sub, now);
    if (p?.plan && status !== 'ended') {
      events.push({ type: 'SubscriptionCanceled', data: { subscriptionId: sub.id, endDate: iso(now), by: 'staff', at: iso(now) } });
    }
  }
  if (product.price > 0) {
    events.push({
      type: 'SubscriptionStarted',
      data: {
        subscriptionId: data.subscriptionId,
        checkoutId: null,
        productId: product.id,
        quantity: 1,
        cycle: product.validity,
        provider: 'staff',
        providerRef: null,
        startDate: iso(now),
        nextPaymentDate: null,
        endDate: null,
        promo: null,
        at: iso(now),
      },
    });
  }
  return events;
};

export const decideBilling = (command: BillingCommand, state: BillingState): BillingEvent[] => {
  const now = command.metadata.now;
  switch (command.type) {
    case 'StartCheckout':
      return startCheckout(state, command.data, now);
    case 'StartRenewalCheckout':
      return startRenewalCheckout(state, command.data, now);
    case 'CompleteCheckout':
      return completeCheckout(state, command.data, now);
    case 'DeclineCheckout': {
      const checkout = state.checkouts[command.data.checkoutId];
      if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
      if (checkout.status === 'declined') return [];
      if (checkout.status === 'paid') throw new DomainError(BillingErrors.checkoutClosed);
      return [{ type: 'CheckoutDeclined', data: { checkoutId: checkout.id, at: iso(now) } }];
    }
    case 'RecordCheckoutLink': {
      const checkout = state.checkouts[command.data.checkoutId];
      if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
      if (checkout.checkoutLink === command.data.checkoutLink) return [];
      return [{ type: 'CheckoutLinkIssued', data: { checkoutId: checkout.id, checkoutLink: command.data.checkoutLink, at: iso(now) } }];
    }
    case 'CancelSubscription':
      return cancel(state, command.data, now);
    case 'RecordRenewal':
      return renew(state, command.data, now);
    case 'ChangePlanByStaff':
      return changeByStaff(state, command.data, now);
    case 'DeactivateForNonPayment': {
      const sub = requireSubscription(state, command.data.subscriptionId);
      if (!sub.grace || sub.grace.deactivatedAt) return [];
      return [{ type: 'AccountDeactivatedForNonPayment', data: { subscriptionId: sub.id, at: iso(now) } }];
    }
    case 'MarkUnpaidStorageDeletionDue': {
      const sub = requireSubscription(state, command.data.subscriptionId);
      if (!sub.grace || sub.grace.storageDeletionDueAt) return [];
      return [{ type: 'UnpaidStorageDeletionDue', data: { subscriptionId: sub.id, at: iso(now) } }];
    }
    default:
      return assertNever(command);
  }
};

export const billingDecider: Decider<BillingCommand, BillingEvent, BillingState> = {
  decide: decideBilling,
  evolve: evolveBilling,
  initialState: initialBillingState,
};

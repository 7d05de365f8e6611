import type { Cycle } from './billing.catalogue';
import type { AppliedPromo, BillingEvent, Provider } from './billing.events';

export interface SubscriptionRecord {
  readonly id: string;
  readonly productId: number;
  readonly quantity: number;
  readonly cycle: Cycle | null;
  readonly provider: Provider;
  readonly providerRef: string | null;
  readonly startDate: string;
  readonly nextPaymentDate: string | null;
  /** Set by a cancellation or a trial: the subscription counts until then. */
  readonly endDate: string | null;
  readonly canceledAt: string | null;
  readonly promo: AppliedPromo | null;
  readonly paymentsMade: number;
  readonly createdAt: string;
  /** A failed renewal's grace period, until a payment ends it. */
  readonly grace: GraceRecord | null;
}

export interface GraceRecord {
  readonly startedAt: string;
  readonly graceEndDate: string;
  readonly storageDeletionDate: string;
  readonly accountDeletionDate: string;
  readonly deactivatedAt: string | null;
  readonly storageDeletionDueAt: string | null;
}

export interface CheckoutRecord {
  readonly id: string;
  readonly productId: number;
  readonly quantity: number;
  readonly provider: Provider;
  readonly amount: number;
  readonly promo: AppliedPromo | null;
  readonly status: 'open' | 'paid' | 'declined';
  readonly at: string;
  readonly checkoutLink: string | null;
  /** The subscription whose overdue renewal this checkout pays; null for a purchase. */
  readonly renewsSubscriptionId: string | null;
}

export interface PaymentRecord {
  readonly id: string;
  readonly subscriptionId: string;
  readonly productId: number;
  readonly amount: number;
  readonly status: 'succeeded' | 'failed';
  readonly provider: Provider;
  readonly promoCode: string | null;
  readonly at: string;
}

export interface BillingState {
  readonly subscriptions: Readonly<Record<string, SubscriptionRecord>>;
  readonly checkouts: Readonly<Record<string, CheckoutRecord>>;
  readonly payments: readonly PaymentRecord[];
}

export const initialBillingState = (): BillingState => ({ subscriptions: {}, checkouts: {}, payments: [] });

const withSub = (state: BillingState, id: string, change: (s: SubscriptionRecord) => SubscriptionRecord): BillingState => {
  const sub = state.subscriptions[id];
  return sub ? { ...state, subscriptions: { ...state.subscriptions, [id]: change(sub) } } : state;
};

const withGrace = (state: BillingState, id: string, change: (g: GraceRecord) => GraceRecord): BillingState =>
  withSub(state, id, (s) => (s.grace ? { ...s, grace: change(s.grace) } : s));

export const evolveBilling = (state: BillingState, event: BillingEvent): BillingState => {
  switch (event.type) {
    case 'CheckoutStarted': {
      const d = event.data;
      const checkout: CheckoutRecord = {
        id: d.checkoutId,
        productId: d.productId,
        quantity: d.quantity,
        provider: d.provider,
        amount: d.amount,
        promo: d.promo,
        status: 'open',
        at: d.at,
        checkoutLink: null,
        renewsSubscriptionId: d.renewsSubscriptionId ?? null,
      };
      return { ...state, checkouts: { ...state.checkouts, [d.checkoutId]: checkout } };
    }
    case 'CheckoutLinkIssued': {
      const c = state.checkouts[event.data.checkoutId];
      return c ? { ...state, checkouts: { ...state.checkouts, [c.id]: { ...c, checkoutLink: event.data.checkoutLink } } } : state;
    }
    case 'CheckoutDeclined': {
      const c = state.checkouts[event.data.checkoutId];
      return c ? { ...state, checkouts: { ...state.checkouts, [c.id]: { ...c, status: 'declined' } } } : state;
    }
    case 'SubscriptionStarted': {
      const d = event.data;
      const sub: SubscriptionRecord = {
        id: d.subscriptionId,
        productId: d.productId,
        quantity: d.quantity,
        cycle: d.cycle,
        provider: d.provider,
        providerRef: d.providerRef,
        startDate: d.startDate,
        nextPaymentDate: d.nextPaymentDate,
        endDate: d.endDate,
        canceledAt: null,
        promo: d.promo,
        paymentsMade: 0,
        createdAt: d.at,
        grace: null,
      };
      const checkouts =
        d.checkoutId && state.checkouts[d.checkoutId]
          ? { ...state.checkouts, [d.checkoutId]: { ...state.checkouts[d.checkoutId]!, status: 'paid' as const } }
          : state.checkouts;
      return { ...state, checkouts, subscriptions: { ...state.subscriptions, [sub.id]: sub } };
    }
    case 'PaymentRecorded': {
      const d = event.data;
      const payment: PaymentRecord = {
        id: d.paymentId,
        subscriptionId: d.subscriptionId,
        productId: d.productId,
        amount: d.amount,
        status: d.status,
        provider: d.provider,
        promoCode: d.promoCode,
        at: d.at,
      };
      const paidCheckout = d.checkoutId ? state.checkouts[d.checkoutId] : undefined;
      const checkouts = paidCheckout ? { ...state.checkouts, [paidCheckout.id]: { ...paidCheckout, status: 'paid' as const } } : state.checkouts;
      const next = { ...state, checkouts, payments: [...state.payments, payment] };
      return d.status === 'succeeded' ? withSub(next, d.subscriptionId, (s) => ({ ...s, paymentsMade: s.paymentsMade + 1 })) : next;
    }
    case 'SubscriptionRenewed':
      return withSub(state, event.data.subscriptionId, (s) => ({ ...s, nextPaymentDate: event.data.nextPaymentDate, grace: null }));
    case 'SubscriptionCanceled':
      return withSub(state, event.data.subscriptionId, (s) => ({ ...s, endDate: event.data.endDate, canceledAt: event.data.at }));
    case 'RenewalFailed': {
      const d = event.data;
      return withSub(state, d.subscriptionId, (s) =>
        s.grace
          ? s
          : {
              ...s,
              grace: {
                startedAt: d.at,
                graceEndDate: d.graceEndDate,
                storageDeletionDate: d.storageDeletionDate,
                accountDeletionDate: d.accountDeletionDate,
                deactivatedAt: null,
                storageDeletionDueAt: null,
              },
            },
      );
    }
    case 'AccountDeactivatedForNonPayment':
      return withGrace(state, event.data.subscriptionId, (g) => ({ ...g, deactivatedAt: event.data.at }));
    case 'UnpaidStorageDeletionDue':
      return withGrace(state, event.data.subscriptionId, (g) => ({ ...g, storageDeletionDueAt: event.data.at }));
    default:
      return state;
  }
};

// ---- reading a subscription at a moment -------------------------------------------------------

export type SubscriptionStatus = 'active' | 'canceled' | 'pending' | 'ended';

/** active, canceled (still running until its end date), pending (starts later) or ended. */
export const subscriptionStatusAt = (sub: SubscriptionRecord, now: Date): SubscriptionStatus => {
  const t = now.getTime();
  if (sub.endDate && Date.parse(sub.endDate) <= t) return 'ended';
  if (Date.parse(sub.startDate) > t) return 'pending';
  return sub.canceledAt ? 'canceled' : 'active';
};

/** Counts at this moment: what the user has (active, or canceled with time left). */
export const isRunning = (sub: SubscriptionRecord, now: Date): boolean => {
  const status = subscriptionStatusAt(sub, now);
  return status === 'active' || status === 'canceled';
};

import {
  BASIC,
  entitlementsOf,
  nextPaymentOf,
  paymentQuote,
  PRODUCTS,
  productById,
  subscriptionStatusAt,
  type BillingState,
  type Entitlements,
  type PaymentRecord,
  type Product,
  type SubscriptionRecord,
} from '@axel/domain';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Grace items show only within this many days of their grace end. */
export const GRACE_WINDOW_DAYS = 90;

/** Assets as the specification names them: quota with sizeTotal, maxCountPerPeriod per counted feature. */
export const assetsOf = (
  e: Pick<Entitlements, 'quotaBytes' | 'extraGroupQuotaBytes' | 'secureFetchMaxCountPerPeriod' | 'secureShareMaxCountPerPeriod' | 'features'>,
) => ({
  quota: { sizeTotal: e.quotaBytes },
  'extra-group-quota': { sizeTotal: e.extraGroupQuotaBytes },
  'secure-fetch': { maxCountPerPeriod: e.secureFetchMaxCountPerPeriod },
  'secure-share': { maxCountPerPeriod: e.secureShareMaxCountPerPeriod },
  'e2e-encryption': { enabled: e.features.includes('e2ee') },
  esign: { enabled: e.features.includes('esign') },
});

export const toProductView = (p: Product) => ({
  id: p.id,
  name: p.name,
  type: p.type,
  price: p.price,
  currency: 'USD',
  validity: p.validity,
  cycle: p.validity,
  status: p.status,
  weight: p.weight,
  parentId: p.parentId,
  quotaBytes: p.plan?.quotaBytes ?? null,
  includedAccounts: p.plan?.includedAccounts ?? 0,
  permissions: p.plan ? [...p.plan.permissions] : [],
  features: p.plan ? [...p.plan.features] : [],
  extraMembers: p.extraMembers,
  assets: p.plan
    ? assetsOf({
        quotaBytes: p.plan.quotaBytes,
        extraGroupQuotaBytes: p.plan.extraGroupQuotaBytes,
        secureFetchMaxCountPerPeriod: p.plan.fetchesPerMonth,
        secureShareMaxCountPerPeriod: p.plan.sharesPerMonth,
        features: p.plan.features,
      })
    : {},
});

export const catalogue = () => PRODUCTS.filter((p) => p.status === 'active');

/** The next payment as the manage page, the checkout and the console show it (null when none is coming). */
export const toNextPaymentView = (s: SubscriptionRecord) => {
  const next = nextPaymentOf(s);
  return (
    next && {
      date: next.date,
      amount: next.amount,
      regularAmount: next.regularAmount,
      promoCode: next.promoCode,
      promoPaymentsLeft: next.promoPaymentsLeft,
      currency: 'USD',
    }
  );
};

export const toSubscriptionView = (s: SubscriptionRecord, now: Date) => {
  const product = productById(s.productId);
  const status = subscriptionStatusAt(s, now);
  return {
    id: s.id,
    productId: s.productId,
    productName: product?.name ?? null,
    productType: product?.type ?? null,
    quantity: s.quantity,
    status,
    cycle: s.cycle,
    startDate: s.startDate,
    nextPaymentDate: s.canceledAt ? null : s.nextPaymentDate,
    endDate: s.endDate,
    canceledAt: s.canceledAt,
    cancelSubscriptionAction: (status === 'active' || status === 'pending') && s.provider !== 'app_store' && s.provider !== 'play_store',
    /** The product's own price for the quantity; the next payment says what will really be charged. */
    price: product ? product.price * s.quantity : null,
    nextPayment: toNextPaymentView(s),
    promoCode: s.promo?.code ?? null,
    currency: 'USD',
    provider: s.provider,
    test: s.provider === 'test',
    inGrace: s.grace !== null,
  };
};

export const toPaymentView = (p: PaymentRecord) => ({
  id: p.id,
  subscriptionId: p.subscriptionId,
  productId: p.productId,
  productName: productById(p.productId)?.name ?? null,
  amount: p.amount,
  currency: 'USD',
  status: p.status,
  provider: p.provider,
  promoCode: p.promoCode,
  createdAt: p.at,
  test: p.provider === 'test',
  /** The test provider's receipts say so, wherever they are shown. */
  description: p.provider === 'test' ? 'test payment' : null,
});

export const planView = (state: BillingState, now: Date) => {
  const subs = Object.values(state.subscriptions);
  const e = entitlementsOf({ subscriptions: subs, now });
  const current = e.plan.subscriptionId ? state.subscriptions[e.plan.subscriptionId] : undefined;
  return {
    productId: e.plan.productId,
    productName: e.plan.name,
    kind: e.plan.kind,
    type: e.plan.type,
    cycle: e.plan.cycle,
    subscriptionId: e.plan.subscriptionId,
    startDate: e.plan.startDate,
    nextPaymentDate: current && !current.canceledAt ? current.nextPaymentDate : null,
    nextPayment: current ? toNextPaymentView(current) : null,
    endDate: current?.endDate ?? null,
    quotaBytes: e.quotaBytes,
    downgraded: e.downgraded,
    assets: assetsOf(e),
    permissions: [...e.permissions],
    features: [...e.features],
    freeSeats: e.freeSeats,
    flags: e.flags,
  };
};

/** The user's products: what runs or waits, Basic when nothing does. */
export const userProducts = (state: BillingState, now: Date) => {
  const rows = Object.values(state.subscriptions)
    .map((s) => ({ s, status: subscriptionStatusAt(s, now) }))
    .filter(({ status }) => status !== 'ended')
    .map(({ s, status }) => ({
      productId: s.productId,
      productType: productById(s.productId)?.type ?? null,
      status,
      subscriptionId: s.id,
      quantity: s.quantity,
    }));
  const hasPlan = rows.some((r) => productById(r.productId)?.plan && r.status !== 'pending');
  return hasPlan ? rows : [{ productId: BASIC.id, productType: BASIC.type, status: 'active' as const, subscriptionId: null, quantity: 1 }, ...rows];
};

/**
 * Grace items (§3, §4): graceType `start` before the grace end, `end` after (forced to pay); shown
 * only within 90 days of the grace end; the delete-product button only for a paid plan whose
 * subscription is active with a cancel action and whose grace has not ended.
 */
export const graceItems = (state: BillingState, now: Date) =>
  Object.values(state.subscriptions)
    .filter((s) => s.grace && Math.abs(now.getTime() - Date.parse(s.grace.graceEndDate)) <= GRACE_WINDOW_DAYS * DAY_MS)
    .map((s) => {
      const g = s.grace!;
      const product = productById(s.productId);
      const status = subscriptionStatusAt(s, now);
      const ended = g.deactivatedAt !== null || Date.parse(g.graceEndDate) <= now.getTime();
      return {
        subscriptionId: s.id,
        productId: s.productId,
        productName: product?.name ?? null,
        graceType: ended ? ('end' as const) : ('start' as const),
        gracePeriodEndDate: g.graceEndDate,
        endDate: s.nextPaymentDate,
        scheduledStorageDeletionDate: g.storageDeletionDate,
        scheduledAccDeletionDate: g.accountDeletionDate,
        userProductStatus: ended ? 'unpaid' : 'grace',
        userProductType: product?.type ?? null,
        subscriptionStatus: status,
        planCycle: s.cycle,
        // what paying the overdue renewal takes: the promo code's price while its cycles remain
        cost: product ? paymentQuote(product, s.quantity, s.promo, s.paymentsMade).amount : 0,
        currency: 'USD',
        deleteProductAction: product?.type !== 'free-plan' && status === 'active' && !s.canceledAt && !ended,
      };
    })
    // expired items first
    .sort((a, b) => (a.graceType === b.graceType ? a.gracePeriodEndDate.localeCompare(b.gracePeriodEndDate) : a.graceType === 'end' ? -1 : 1));

/** A checkout older than this is no longer offered. */
export const PENDING_CHECKOUT_DAYS = 7;

/**
 * The custom plan a user has been offered and not yet paid (Enterprise and partner plans are set
 * up by staff): the newest open checkout of a custom plan with its provider's link.
 */
export const pendingProductOf = (state: BillingState, now: Date): { productId: number; checkoutLink: string } | null => {
  const open = Object.values(state.checkouts)
    .filter(
      (c) =>
        c.status === 'open' &&
        c.checkoutLink &&
        productById(c.productId)?.type === 'custom-plan' &&
        now.getTime() - Date.parse(c.at) <= PENDING_CHECKOUT_DAYS * DAY_MS,
    )
    .sort((a, b) => b.at.localeCompare(a.at))[0];
  return open ? { productId: open.productId, checkoutLink: open.checkoutLink! } : null;
};

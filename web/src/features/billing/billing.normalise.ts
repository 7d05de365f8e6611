import type {
  BillingCycle,
  GraceInfo,
  NextPayment,
  Page,
  Payment,
  PendingProduct,
  PlanIncludes,
  PlanInfo,
  Product,
  ProductType,
  PromoQuote,
  Subscription,
  SubscriptionStatus,
} from './billing.types';

/**
 * The billing answers read defensively: a field the server leaves out becomes null rather than
 * `undefined` somewhere deep in a page, and a list arrives either bare or as `{ data, total }`.
 */
type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const int = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.round(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number.parseInt(v, 10);
  return null;
};
const bool = (v: unknown): boolean => v === true;

const PRODUCT_TYPES: readonly ProductType[] = ['plan', 'free-plan', 'child-plan', 'custom-plan', 'extra-members'];
const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active', 'canceled', 'pending'];

export const cycleOf = (raw: Raw): BillingCycle | null => {
  const v = String(raw.cycle ?? raw.planCycle ?? raw.validity ?? raw.interval ?? '').toLowerCase();
  if (['month', 'monthly', '1', 'm', '30'].includes(v)) return 'monthly';
  if (['year', 'yearly', 'annual', '12', 'y', '365'].includes(v)) return 'yearly';
  return null;
};

/** Storage of a product: `quotaBytes`, or `assets.quota.sizeTotal` as the specification names it. */
const quotaOf = (raw: Raw): number | null => {
  const direct = int(raw.quotaBytes ?? raw.quota);
  if (direct !== null) return direct;
  if (isRecord(raw.plan)) {
    const fromPlan = int(raw.plan.quotaBytes);
    if (fromPlan !== null) return fromPlan;
  }
  const assets = raw.assets;
  if (isRecord(assets)) {
    const quota = assets.quota;
    if (isRecord(quota)) return int(quota.sizeTotal ?? quota.bytes);
    return int(quota ?? assets.quotaBytes);
  }
  if (Array.isArray(assets)) {
    for (const a of assets) if (isRecord(a) && (a.name === 'quota' || a.type === 'quota')) return int(a.sizeTotal ?? a.value ?? a.amount);
  }
  return null;
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** A count per period from `assets.<name>.maxCountPerPeriod`: null (unlimited) when the server says so. */
const countOf = (assets: Raw, name: string): number | null => {
  const asset = assets[name];
  return isRecord(asset) ? int(asset.maxCountPerPeriod) : null;
};

/** What a plan grants beside its storage; null when the answer carries no grants (a product that is no plan). */
const includesOf = (raw: Raw): PlanIncludes | null => {
  if (!isRecord(raw.assets) || !Array.isArray(raw.features)) return null;
  const groupQuota = raw.assets['extra-group-quota'];
  return {
    accounts: int(raw.includedAccounts) ?? 0,
    groupStorageBytes: (isRecord(groupQuota) ? int(groupQuota.sizeTotal) : null) ?? 0,
    sharesPerMonth: countOf(raw.assets, 'secure-share'),
    fetchesPerMonth: countOf(raw.assets, 'secure-fetch'),
    permissions: strings(raw.permissions),
    features: strings(raw.features),
  };
};

export const listOf = (body: unknown): Raw[] => {
  const items = Array.isArray(body)
    ? body
    : isRecord(body) && Array.isArray(body.data)
      ? body.data
      : isRecord(body) && Array.isArray(body.items)
        ? body.items
        : [];
  return items.filter(isRecord);
};

export const pageOf = <T>(body: unknown, map: (raw: Raw) => T): Page<T> => {
  const data = listOf(body).map(map);
  const total = isRecord(body) ? int(body.total ?? body.count) : null;
  return { data, total: total ?? data.length };
};

export const toProduct = (raw: Raw): Product => ({
  id: int(raw.id) ?? 0,
  name: str(raw.name) ?? '',
  type: (PRODUCT_TYPES as readonly string[]).includes(String(raw.type)) ? (raw.type as ProductType) : 'plan',
  price: int(raw.price ?? raw.priceMinor ?? raw.amount) ?? 0,
  currency: (str(raw.currency) ?? 'USD').toUpperCase(),
  cycle: cycleOf(raw),
  weight: int(raw.weight) ?? 0,
  parentId: int(raw.parentId),
  status: str(raw.status) ?? 'active',
  quotaBytes: quotaOf(raw),
  includes: includesOf(raw),
});

const toNextPayment = (raw: unknown): NextPayment | null => {
  if (!isRecord(raw)) return null;
  const date = str(raw.date);
  const amount = int(raw.amount);
  if (!date || amount === null) return null;
  return {
    date,
    amount,
    regularAmount: int(raw.regularAmount) ?? amount,
    promoCode: str(raw.promoCode),
    promoPaymentsLeft: int(raw.promoPaymentsLeft),
    currency: (str(raw.currency) ?? 'USD').toUpperCase(),
  };
};

/** The first row of `/promocode-products/?code=&productId=`; null when it has none. */
export const toPromoQuote = (code: string, body: unknown): PromoQuote | null => {
  const r = listOf(body)[0];
  if (!r) return null;
  const price = int(r.price) ?? 0;
  const promoPrice = int(r.promoPrice) ?? price;
  return {
    code,
    productId: int(r.productId) ?? 0,
    promoPrice,
    price,
    dueToday: int(r.dueToday) ?? promoPrice,
    cycles: int(r.cycles),
    freeTrialDays: int(r.freeTrialDays) ?? 0,
    currency: (str(r.currency) ?? 'USD').toUpperCase(),
  };
};

export const toSubscription = (raw: Raw): Subscription => ({
  id: str(raw.id) ?? '',
  productId: int(raw.productId) ?? 0,
  productName: str(raw.productName ?? raw.name ?? (isRecord(raw.product) ? raw.product.name : null)),
  status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(String(raw.status)) ? (raw.status as SubscriptionStatus) : 'pending',
  startDate: str(raw.startDate),
  nextPaymentDate: str(raw.nextPaymentDate),
  endDate: str(raw.endDate ?? raw.endsAt ?? raw.canceledAt),
  cancelSubscriptionAction: raw.cancelSubscriptionAction === undefined ? raw.status === 'active' : bool(raw.cancelSubscriptionAction),
  quantity: Math.max(1, int(raw.quantity) ?? 1),
  price: int(raw.price ?? raw.cost ?? raw.amount),
  nextPayment: toNextPayment(raw.nextPayment),
  currency: (str(raw.currency) ?? 'USD').toUpperCase(),
  test: bool(raw.test ?? raw.testPayment),
});

export const toPayment = (raw: Raw): Payment => ({
  id: str(raw.id) ?? '',
  subscriptionId: str(raw.subscriptionId),
  productName: str(raw.productName ?? raw.description ?? raw.name),
  amount: int(raw.amount ?? raw.price ?? raw.cost) ?? 0,
  currency: (str(raw.currency) ?? 'USD').toUpperCase(),
  status: str(raw.status) ?? 'paid',
  createdAt: str(raw.createdAt ?? raw.paidAt ?? raw.date) ?? '',
  test: bool(raw.test ?? raw.testPayment),
});

export const toPlanInfo = (raw: unknown): PlanInfo => {
  const r = isRecord(raw) ? raw : {};
  return {
    productId: int(r.productId ?? r.id),
    productName: str(r.productName ?? r.name) ?? '',
    quotaBytes: quotaOf(r),
    startDate: str(r.startDate),
    paymentDelay: bool(r.paymentDelay),
  };
};

/** `null` when the user has no grace period: the server answers nothing, an empty list or `{}`. */
export const toGraceInfo = (raw: unknown): GraceInfo | null => {
  const r = Array.isArray(raw) ? raw.find(isRecord) : isRecord(raw) && Array.isArray(raw.data) ? raw.data.find(isRecord) : raw;
  if (!isRecord(r)) return null;
  const end = str(r.gracePeriodEndDate);
  if (!end && !r.graceType) return null;
  return {
    graceType: r.graceType === 'end' ? 'end' : 'start',
    gracePeriodEndDate: end,
    scheduledStorageDeletionDate: str(r.scheduledStorageDeletionDate),
    scheduledAccDeletionDate: str(r.scheduledAccDeletionDate),
    subscriptionId: str(r.subscriptionId),
    cost: int(r.cost),
    currency: (str(r.currency) ?? 'USD').toUpperCase(),
  };
};

export const toPendingProduct = (raw: unknown): PendingProduct | null => {
  if (!isRecord(raw)) return null;
  const link = str(raw.checkoutLink);
  return link ? { productId: int(raw.productId), checkoutLink: link } : null;
};

/**
 * What the billing calls of the API answer (specification §3: Product, User product, Subscription,
 * Grace item; §7 "Billing and members"). Money is always an integer in minor units (cents).
 */
export type ProductType = 'plan' | 'free-plan' | 'child-plan' | 'custom-plan' | 'extra-members';
export type BillingCycle = 'monthly' | 'yearly';

export interface Product {
  id: number;
  name: string;
  type: ProductType;
  /** Minor units (cents). */
  price: number;
  currency: string;
  cycle: BillingCycle | null;
  weight: number;
  parentId: number | null;
  status: string;
  /** Storage in bytes, when the product grants any. */
  quotaBytes: number | null;
  /** What a plan grants beside its storage, as the catalogue says; absent for products that are no plan. */
  includes?: PlanIncludes | null;
}

/** A plan's grants from the catalogue (specification §6): accounts, monthly counts, permissions, features. */
export interface PlanIncludes {
  /** Accounts that come with the plan (its members); 0 for a single-user plan. */
  accounts: number;
  /** Storage a group's members share, in bytes. */
  groupStorageBytes: number;
  /** Shares per month; null: unlimited. */
  sharesPerMonth: number | null;
  /** Secure Fetch requests per month; null: unlimited. */
  fetchesPerMonth: number | null;
  permissions: string[];
  features: string[];
}

export type SubscriptionStatus = 'active' | 'canceled' | 'pending';

/** The next payment as the server prices it: the promo code's price while its cycles remain. */
export interface NextPayment {
  date: string;
  /** Minor units of the payment itself. */
  amount: number;
  /** Minor units of every payment once the promo code is used up. */
  regularAmount: number;
  promoCode: string | null;
  /** Payments at the promo price still to come, this one included; null: all of them. */
  promoPaymentsLeft: number | null;
  currency: string;
}

/** A promo code's price for a product at checkout, before paying. */
export interface PromoQuote {
  code: string;
  productId: number;
  /** Minor units per payment while the code applies. */
  promoPrice: number;
  /** Minor units of the product without the code. */
  price: number;
  /** Minor units charged at checkout (0 during a free trial). */
  dueToday: number;
  /** Payments the code applies to; null: all of them. */
  cycles: number | null;
  freeTrialDays: number;
  currency: string;
}

export interface Subscription {
  id: string;
  productId: number;
  productName: string | null;
  status: SubscriptionStatus;
  startDate: string | null;
  nextPaymentDate: string | null;
  endDate: string | null;
  cancelSubscriptionAction: boolean;
  /** Extra member slots bought with it (1 for a plan). */
  quantity: number;
  /** Minor units of the product's own price for the quantity. */
  price: number | null;
  /** What the next payment will really be; null when none is coming. */
  nextPayment: NextPayment | null;
  currency: string;
  test: boolean;
}

export interface Payment {
  id: string;
  subscriptionId: string | null;
  productName: string | null;
  /** Minor units. */
  amount: number;
  currency: string;
  status: string;
  createdAt: string;
  test: boolean;
}

export interface Page<T> {
  data: T[];
  total: number;
}

export interface PlanInfo {
  productId: number | null;
  productName: string;
  quotaBytes: number | null;
  startDate: string | null;
  /** A renewal of a plan that may not run late is over a day overdue (PAYMENT_DELAY). */
  paymentDelay: boolean;
}

export interface GraceInfo {
  graceType: 'start' | 'end';
  gracePeriodEndDate: string | null;
  scheduledStorageDeletionDate: string | null;
  scheduledAccDeletionDate: string | null;
  subscriptionId: string | null;
  cost: number | null;
  currency: string;
}

export interface PendingProduct {
  productId: number | null;
  checkoutLink: string;
}

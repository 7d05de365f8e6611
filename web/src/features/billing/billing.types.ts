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
}

export type SubscriptionStatus = 'active' | 'canceled' | 'pending';

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
  /** Minor units of the next charge, when known. */
  price: number | null;
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

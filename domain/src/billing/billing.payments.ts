import { productById, type Product } from './billing.catalogue';
import type { AppliedPromo } from './billing.events';
import type { SubscriptionRecord } from './billing.state';

/**
 * What one payment of a subscription costs, as every screen shows it and as the decider charges it:
 * the promo code's price while the payments made so far are fewer than its cycles, the product's
 * own price after. Minor units (cents), integers only.
 */
export interface PaymentQuote {
  /** This payment (minor units). */
  readonly amount: number;
  /** The product's own price for the quantity: what every payment costs once the code is used up. */
  readonly regularAmount: number;
  /** The code that prices this payment; null when the product's own price applies. */
  readonly promoCode: string | null;
  /** Payments at the code's price still to come, this one included; null: every payment. */
  readonly promoPaymentsLeft: number | null;
}

export const paymentQuote = (product: Pick<Product, 'price'>, quantity: number, promo: AppliedPromo | null, paymentsMade: number): PaymentQuote => {
  const regularAmount = product.price * quantity;
  const applies = promo !== null && (promo.cycles === null || paymentsMade < promo.cycles);
  if (!applies) return { amount: regularAmount, regularAmount, promoCode: null, promoPaymentsLeft: 0 };
  return { amount: promo.price, regularAmount, promoCode: promo.code, promoPaymentsLeft: promo.cycles === null ? null : promo.cycles - paymentsMade };
};

/**
 * A checkout's price before paying: the first payment at the code's price, nothing today during a
 * free trial (the trial ends on Basic unless the user buys again).
 */
export interface CheckoutQuote extends PaymentQuote {
  /** Charged at checkout (minor units). */
  readonly dueToday: number;
  readonly freeTrialDays: number;
}

export const checkoutQuote = (product: Pick<Product, 'price'>, quantity: number, promo: AppliedPromo | null): CheckoutQuote => {
  const first = paymentQuote(product, quantity, promo, 0);
  const freeTrialDays = promo?.freeTrialDays ?? 0;
  return { ...first, dueToday: freeTrialDays > 0 ? 0 : first.amount, freeTrialDays };
};

/**
 * The subscription's next payment: its date and what it will really cost (the promo code's price
 * while cycles of it remain). Null when no payment is coming: cancelled, a trial that ends on
 * Basic, a plan staff granted without payments.
 */
export const nextPaymentOf = (
  sub: Pick<SubscriptionRecord, 'productId' | 'quantity' | 'promo' | 'paymentsMade' | 'nextPaymentDate' | 'canceledAt'>,
): (PaymentQuote & { readonly date: string }) | null => {
  const product = productById(sub.productId);
  if (sub.canceledAt || !sub.nextPaymentDate || !product) return null;
  return { ...paymentQuote(product, sub.quantity, sub.promo, sub.paymentsMade), date: sub.nextPaymentDate };
};

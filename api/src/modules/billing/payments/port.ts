import type { AppliedPromo, Product } from '@axel/domain';

/** What checkout asks of a payment provider: a page where the buyer pays this checkout. */
export interface CheckoutRequest {
  readonly checkoutId: string;
  readonly userId: string;
  readonly email: string | null;
  readonly product: Product;
  readonly quantity: number;
  /** First payment, minor units. */
  readonly amount: number;
  readonly trialDays: number;
  readonly promo: AppliedPromo | null;
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe';
  createCheckout(request: CheckoutRequest): Promise<{ checkoutLink: string }>;
}

/**
 * Facts a provider reports, whichever it is: the test provider's Pay and Decline buttons and a
 * Stripe webhook both become these, and one code path applies them.
 */
export type ProviderEvent =
  | { readonly kind: 'checkout.completed'; readonly userId: string; readonly checkoutId: string; readonly providerRef: string | null }
  | { readonly kind: 'checkout.declined'; readonly userId: string; readonly checkoutId: string }
  | {
      readonly kind: 'renewal';
      readonly userId: string;
      readonly subscriptionId: string;
      readonly paymentId: string;
      readonly outcome: 'paid' | 'failed';
    };

/** A checkout id names its user first, so a provider's callback finds the stream it belongs to. */
export const checkoutUserId = (checkoutId: string): string | null => {
  const dot = checkoutId.indexOf('.');
  return dot > 0 && /^[\w.-]{20,100}$/.test(checkoutId) ? checkoutId.slice(0, dot) : null;
};

import type { AppliedPromo, Product } from '@axel/domain';
import type { AppContext } from '../../../context';

/** What checkout asks of a payment provider: a page where the buyer pays this checkout. */
export interface CheckoutRequest {
  readonly purpose?: 'plan';
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

/** A one-off purchase of AXEL tokens: paid once, no subscription. */
export interface TokenCheckoutRequest {
  readonly purpose: 'tokens';
  readonly checkoutId: string;
  readonly userId: string;
  readonly email: string | null;
  /** Minor units (cents). */
  readonly amount: number;
  readonly description: string;
}

/** "Pay now": the renewal a subscription in grace failed to pay, paid on the provider's page. */
export interface RenewalCheckoutRequest {
  readonly purpose: 'renewal';
  readonly checkoutId: string;
  readonly userId: string;
  readonly email: string | null;
  readonly product: Product;
  readonly subscriptionId: string;
  /** The provider's own subscription (Stripe's), whose open invoice is the one to pay. */
  readonly providerRef: string | null;
  /** Overdue amount, minor units. */
  readonly amount: number;
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe';
  createCheckout(request: CheckoutRequest | TokenCheckoutRequest | RenewalCheckoutRequest): Promise<{ checkoutLink: string }>;
}

/**
 * Token checkouts live in the wallet, not in the billing stream: their ids carry this marker after
 * the user id, so a provider's report reaches the wallet's handler instead of billing.
 */
export const TOKEN_CHECKOUT_MARK = 'tokens-';
export const isTokenCheckoutId = (checkoutId: string): boolean => {
  const userId = checkoutUserId(checkoutId);
  return userId !== null && checkoutId.slice(userId.length + 1).startsWith(TOKEN_CHECKOUT_MARK);
};

export interface TokenCheckout {
  readonly userId: string;
  readonly amountCents: number;
  readonly description: string;
  readonly status: 'open' | 'paid' | 'declined';
}

/** What the wallet answers for its checkouts: the provider's pages and reports call these. */
export interface TokenCheckoutHandler {
  find(checkoutId: string): Promise<TokenCheckout | null>;
  completed(checkoutId: string): Promise<{ position: number }>;
  declined(checkoutId: string): Promise<{ position: number }>;
}

/** Where billing finds the wallet's token checkouts: `app.ts` gives it the wallet's. */
export type TokenCheckoutsOf = (ctx: AppContext) => TokenCheckoutHandler;

/**
 * Facts a provider reports, whichever it is: the test provider's Pay and Decline buttons and a
 * Stripe webhook both become these, and one code path applies them.
 */
export type ProviderEvent =
  | { readonly kind: 'checkout.completed'; readonly userId: string; readonly checkoutId: string; readonly providerRef: string | null }
  | { readonly kind: 'checkout.declined'; readonly userId: string; readonly checkoutId: string; readonly expired?: boolean }
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

import { fromPromise } from 'xstate';
import { refreshUser } from '../../session/session';
import { billingApi } from './billing.api';
import type { Product, PromoQuote } from './billing.types';
import type { CheckoutRequest, PaymentResult, PromoQuoteRequest } from './checkout.machine';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the result page waits for the provider's event to reach the account. */
const CONFIRM_ATTEMPTS = 10;
const CONFIRM_INTERVAL_MS = 1000;

export const checkoutActors = (userId: string) => ({
  loadProducts: fromPromise<Product[]>(() => billingApi.products()),
  startCheckout: fromPromise<string, CheckoutRequest>(({ input }) => billingApi.checkout(userId, input)),
  quotePromo: fromPromise<PromoQuote, PromoQuoteRequest>(({ input }) => billingApi.promoQuote(input.code, input.productId)),
  /**
   * A success the provider reports is believed once the account has an active subscription that
   * was not cancelled; the user info is re-read so the new plan shows everywhere at once.
   */
  confirmResult: fromPromise<PaymentResult, { result: PaymentResult }>(async ({ input }) => {
    if (input.result !== 'success') {
      await refreshUser();
      return 'declined';
    }
    for (let attempt = 0; attempt < CONFIRM_ATTEMPTS; attempt += 1) {
      const subscriptions = await billingApi.subscriptions(userId);
      if (subscriptions.some((s) => s.status === 'active')) {
        await refreshUser();
        return 'success';
      }
      await sleep(CONFIRM_INTERVAL_MS);
    }
    await refreshUser();
    return 'declined';
  }),
});

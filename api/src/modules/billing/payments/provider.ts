import type { AppContext } from '../../../context';
import type { PaymentProvider } from './port';
import { stripeClient, StripePaymentProvider } from './stripe-provider';
import { TestPaymentProvider, testPaymentsMode } from './test-provider';

/**
 * The provider the installation pays through, chosen as billing chooses it: Stripe when configured,
 * the test provider where it is allowed, otherwise none (every checkout is refused).
 */
export const paymentProviderFor = (ctx: AppContext): PaymentProvider | null => {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_API_URL: apiUrl } = ctx.config;
  if (secretKey) return new StripePaymentProvider(stripeClient({ secretKey, apiUrl }), { publicUrl: ctx.config.publicUrl });
  return testPaymentsMode(ctx.config) !== 'off' ? new TestPaymentProvider(ctx.config.publicUrl) : null;
};

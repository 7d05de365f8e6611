import { billingEventDefinitions, promoCodeEventDefinitions } from '@axel/domain';
import { billingProjection } from '@axel/projections/billing/billing.projection';
import type { Module } from '../../app';
import { billingAdminRoutes } from './billing.admin.routes';
import { billingRoutes } from './billing.routes';
import { BillingService } from './billing.service';
import type { PaymentProvider } from './payments/port';
import { testCheckoutRoutes, TestPaymentProvider, testPaymentsMode } from './payments/test-provider';
import { promoCodeRoutes } from './promocodes.routes';

/** Plans and billing: catalogue, entitlements, checkout through a payment provider, promo codes. */
export const billingModule: Module = {
  events: [...billingEventDefinitions, ...promoCodeEventDefinitions],
  projections: [billingProjection],
  routes: (ctx) => async (app) => {
    const testMode = testPaymentsMode(ctx.config);
    if (testMode === 'exposed') {
      ctx.log.warn({ host: ctx.config.HOST }, 'TEST_PAYMENTS=on with a HOST other machines can reach: anyone can upgrade a plan for free with the test payment provider');
    }
    // without a provider every checkout is refused with a clear error rather than taken for free
    const provider: PaymentProvider | null = testMode !== 'off' ? new TestPaymentProvider(ctx.config.publicUrl) : null;
    const service = new BillingService(ctx, () => provider);
    await app.register(billingRoutes(ctx, service));
    await app.register(promoCodeRoutes(ctx, service));
    await app.register(billingAdminRoutes(ctx, service));
    if (testMode !== 'off') await app.register(testCheckoutRoutes(ctx, service));
  },
};

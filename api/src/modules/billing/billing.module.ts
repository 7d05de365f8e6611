import { billingEventDefinitions, entitlementsOf, promoCodeEventDefinitions } from '@axel/domain';
import { billingProjection } from '@axel/projections/billing/billing.projection';
import type { AppContext } from '../../context';
import type { Module } from '../../module';
import { billingAdminRoutes } from './billing.admin.routes';
import { billingRoutes } from './billing.routes';
import { BillingService, loadBilling } from './billing.service';
import { assetsOf, pendingProductOf } from './billing.views';
import type { PaymentProvider, TokenCheckoutsOf } from './payments/port';
import { stripeClient, StripePaymentProvider } from './payments/stripe-provider';
import { stripeWebhookRoutes } from './payments/stripe-webhook.routes';
import { promoCodeRoutes } from './promocodes.routes';
import { testCheckoutRoutes, TestPaymentProvider, testPaymentsMode } from './payments/test-provider';
import { renewDueTestSubscriptions } from './payments/test-renewals';

const RENEWAL_CHECK_MS = 60_000;

/** The plan a user has now, as the user info shows it (the accounts are given this). */
export interface UserPlanView {
  readonly entitlements: ReturnType<typeof entitlementsOf>;
  readonly assets: ReturnType<typeof assetsOf>;
  readonly pendingProduct: ReturnType<typeof pendingProductOf>;
  /** The plan in effect is a free trial (a promo's trial days, nothing paid yet): such a person may still join a team. */
  readonly onTrial: boolean;
}

/** The plan in effect now, and a custom plan waiting for payment. */
const planOf = async (ctx: AppContext, userId: string): Promise<UserPlanView> => {
  const state = await loadBilling(ctx, userId);
  const now = ctx.now();
  const entitlements = entitlementsOf({ subscriptions: Object.values(state.subscriptions), now });
  const current = entitlements.plan.subscriptionId ? state.subscriptions[entitlements.plan.subscriptionId] : undefined;
  const onTrial = current !== undefined && (current.promo?.freeTrialDays ?? 0) > 0 && current.paymentsMade === 0;
  return { entitlements, assets: assetsOf(entitlements), pendingProduct: pendingProductOf(state, now), onTrial };
};

/** The billing module as `app.ts` wires it: a module, and the plan of a user. */
export interface BillingModule extends Module {
  planOf(ctx: AppContext, userId: string): Promise<UserPlanView>;
}

/** Plans and billing: catalogue, entitlements, checkout through a payment provider (which also takes the wallet's token checkouts), promo codes. */
export const createBillingModule = (deps: { readonly tokenCheckouts: TokenCheckoutsOf }): BillingModule => {
  let renewalTimer: NodeJS.Timeout | undefined;
  return {
    name: 'billing',
    planOf,
    events: [...billingEventDefinitions, ...promoCodeEventDefinitions],
    projections: [billingProjection],
    routes: (ctx) => async (app) => {
      const testMode = testPaymentsMode(ctx.config);
      if (testMode === 'exposed') {
        ctx.log.warn(
          { host: ctx.config.HOST },
          'TEST_PAYMENTS=on with a HOST other machines can reach: anyone can upgrade a plan for free with the test payment provider',
        );
      }
      const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl } = ctx.config;
      const stripe = secretKey ? stripeClient({ secretKey, apiUrl }) : null;
      if (stripe && !webhookSecret) ctx.log.warn('STRIPE_SECRET_KEY without STRIPE_WEBHOOK_SECRET: Stripe cannot report payments, so no checkout completes');
      // without a provider every checkout is refused with a clear error rather than taken for free
      const provider: PaymentProvider | null = stripe
        ? new StripePaymentProvider(stripe, { publicUrl: ctx.config.publicUrl })
        : testMode !== 'off'
          ? new TestPaymentProvider(ctx.config.publicUrl)
          : null;
      const service = new BillingService(ctx, () => provider);
      if (stripe && webhookSecret) await app.register(stripeWebhookRoutes(ctx, service, stripe, webhookSecret, deps.tokenCheckouts));
      await app.register(billingRoutes(ctx, service));
      await app.register(promoCodeRoutes(ctx, service));
      await app.register(billingAdminRoutes(ctx, service));
      if (testMode !== 'off') await app.register(testCheckoutRoutes(ctx, service, deps.tokenCheckouts));
    },
    async start(ctx, roles) {
      if (!roles.has('worker') || ctx.config.STRIPE_SECRET_KEY || testPaymentsMode(ctx.config) === 'off') return;
      const service = new BillingService(ctx, () => null);
      let running = false;
      renewalTimer = setInterval(() => {
        if (running) return;
        running = true;
        renewDueTestSubscriptions(ctx, service)
          .catch((error: unknown) => ctx.log.error({ err: error }, 'test renewals failed'))
          .finally(() => (running = false));
      }, RENEWAL_CHECK_MS);
      renewalTimer.unref();
    },
    async stop() {
      if (renewalTimer) clearInterval(renewalTimer);
      renewalTimer = undefined;
    },
  };
};

import { DomainError, type ErrorDefinition } from '@axel/domain';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { AppContext } from '../../../context';
import { limitsFor } from '../../../http/rate-limits';
import { loadBilling, type BillingService } from '../billing.service';
import { isTokenCheckoutId, type TokenCheckoutsOf } from './port';
import { stripeEventToProvider } from './stripe-provider';

const signatureInvalid: ErrorDefinition = { code: 'WEBHOOK_SIGNATURE_INVALID', status: 400, message: 'The webhook signature is missing or invalid' };

/**
 * Stripe's webhook. Its body is read as the exact bytes Stripe signed (this plugin's own JSON
 * parser keeps them), and verified with STRIPE_WEBHOOK_SECRET before anything is believed. It
 * needs no session or CSRF header: the signature is the proof.
 */
export const stripeWebhookRoutes =
  (ctx: AppContext, service: BillingService, stripe: Stripe, secret: string, tokenCheckoutsOf: TokenCheckoutsOf) => async (app: FastifyInstance) => {
    const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));

    const findSubscription = async (userId: string, stripeSubscriptionId: string) => {
      const state = await loadBilling(ctx, userId);
      return Object.values(state.subscriptions).find((s) => s.provider === 'stripe' && s.providerRef === stripeSubscriptionId)?.id ?? null;
    };

    app.post(
      '/api/webhooks/stripe',
      {
        schema: {
          tags: ['billing'],
          summary:
            'Stripe webhook (checkout.session.completed/expired/async_payment_succeeded/async_payment_failed, invoice.paid, invoice.payment_failed), signed',
          response: { 200: z.object({ received: z.literal(true), ignored: z.string().optional() }) },
        },
        bodyLimit: 1_048_576,
        config: { signedWebhook: true, ...limit({ perIp: 600 }) },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new DomainError(signatureInvalid);
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(request.body, signature, secret);
        } catch {
          throw new DomainError(signatureInvalid);
        }
        const fact = await stripeEventToProvider(event, findSubscription, ctx.log);
        if (!fact) return { received: true as const };
        try {
          const tokens = fact.kind !== 'renewal' && isTokenCheckoutId(fact.checkoutId) ? tokenCheckoutsOf(ctx) : null;
          const { position } =
            tokens && fact.kind !== 'renewal'
              ? await (fact.kind === 'checkout.completed' ? tokens.completed(fact.checkoutId) : tokens.declined(fact.checkoutId))
              : await service.apply(fact, null);
          if (position) await ctx.caughtUp(position);
        } catch (error) {
          // a fact that cannot apply (an unknown checkout) will not apply on a retry either
          if (!(error instanceof DomainError)) throw error;
          ctx.log.warn({ stripeEvent: event.id, code: error.code }, 'Stripe webhook not applied');
          return { received: true as const, ignored: String(error.code) };
        }
        return { received: true as const };
      },
    );
  };

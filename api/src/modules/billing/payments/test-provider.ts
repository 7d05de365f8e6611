import { BillingErrors, CHECKOUT_LIFETIME_MS, DomainError } from '@axel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../../config';
import type { AppContext } from '../../../context';
import { limitsFor } from '../../../http/rate-limits';
import { POSITION_HEADER } from '../../../http/read-your-writes';
import { requestMeta } from '../../../http/request-meta';
import { assertStaffMay, requireStaff, requireUser } from '../../../http/auth';
import { findUser } from '@axel/projections/users/users.queries';
import { isLoopbackHost } from '../../../http/loopback';
import { loadBilling, type BillingService } from '../billing.service';
import {
  isTokenCheckoutId,
  type CheckoutRequest,
  type TokenCheckoutsOf,
  type PaymentProvider,
  type RenewalCheckoutRequest,
  type TokenCheckoutRequest,
} from './port';

/**
 * Whether the test payment provider may take checkouts: never beside Stripe or with
 * TEST_PAYMENTS=off; `auto` only on a loopback HOST (a laptop); `on` on any HOST, warned at start.
 * A public deployment therefore cannot be upgraded for free by accident.
 */
export const testPaymentsMode = (config: Pick<Config, 'TEST_PAYMENTS' | 'HOST' | 'STRIPE_SECRET_KEY'>): 'off' | 'loopback' | 'exposed' => {
  if (config.TEST_PAYMENTS === 'off') return 'off';
  if (config.TEST_PAYMENTS === 'auto' && config.STRIPE_SECRET_KEY) return 'off';
  if (isLoopbackHost(config.HOST)) return 'loopback';
  return config.TEST_PAYMENTS === 'on' ? 'exposed' : 'off';
};

/** A stand-in for a real payment provider: its own checkout page, where Pay and Decline cost nothing. */
export class TestPaymentProvider implements PaymentProvider {
  readonly kind = 'test' as const;
  constructor(private readonly publicUrl: string) {}

  async createCheckout(request: CheckoutRequest | TokenCheckoutRequest | RenewalCheckoutRequest) {
    return { checkoutLink: `${this.publicUrl}/dev/checkout/${encodeURIComponent(request.checkoutId)}` };
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const usd = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')} USD`;

/** The page's behaviour as a file of its own: the content security policy allows no inline script. */
const CHECKOUT_SCRIPT = `for (const button of document.querySelectorAll('button[data-action]')) {
  button.addEventListener('click', async () => {
    for (const b of document.querySelectorAll('button')) b.disabled = true;
    const res = await fetch('/api/dev/checkout/' + encodeURIComponent(document.body.dataset.session) + '/' + button.dataset.action, {
      method: 'POST', headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin',
    });
    const body = await res.json().catch(() => ({}));
    if (body.redirectTo) location.assign(body.redirectTo);
    else document.getElementById('error').textContent = body.message || 'Something went wrong';
  });
}
`;

export const testCheckoutRoutes = (ctx: AppContext, service: BillingService, tokenCheckoutsOf: TokenCheckoutsOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const tags = ['development'];
  const SessionParams = z.object({ sessionId: z.string().min(1).max(100) });
  const resultUrl = (checkoutId: string, status: 'paid' | 'declined') =>
    `/storages/result?status=${status}&checkoutId=${encodeURIComponent(checkoutId)}&provider=test`;

  app.get('/dev/checkout/checkout.js', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/javascript; charset=utf-8');
    return CHECKOUT_SCRIPT;
  });

  /** A token checkout, answered by the wallet; null for a plan checkout. */
  const tokenCheckout = async (checkoutId: string) => {
    if (!isTokenCheckoutId(checkoutId)) return null;
    const handler = tokenCheckoutsOf(ctx);
    const checkout = await handler.find(checkoutId);
    if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
    return { handler, checkout };
  };

  app.get('/dev/checkout/:sessionId', { schema: { hide: true, params: SessionParams } }, async (request, reply) => {
    const tokens = await tokenCheckout(request.params.sessionId);
    if (tokens) {
      reply.type('text/html; charset=utf-8');
      const open = tokens.checkout.status === 'open';
      return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test payment</title></head><body data-session="${escapeHtml(request.params.sessionId)}">
<p class="banner"><strong>Test payment</strong>: no money moves. This installation has no real payment provider.</p>
<h1>${escapeHtml(tokens.checkout.description)}</h1>
<p data-testid="amount">Amount: <strong>${usd(tokens.checkout.amountCents)}</strong> (test payment)</p>
${open ? '<button data-action="pay" data-testid="pay">Pay</button><button data-action="decline" data-testid="decline">Decline</button>' : `<p>This checkout is ${tokens.checkout.status}.</p>`}
<p id="error" role="alert"></p>
<script src="/dev/checkout/checkout.js"></script>
</body></html>`;
    }
    const { checkout, product } = await service.checkout(request.params.sessionId);
    if (checkout.provider !== 'test') throw new DomainError(BillingErrors.checkoutNotFound);
    reply.type('text/html; charset=utf-8');
    const open = checkout.status === 'open';
    const trial = checkout.promo?.freeTrialDays ? `<p>Free trial: ${checkout.promo.freeTrialDays} days</p>` : '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test payment</title>
<style>body{font-family:sans-serif;max-width:520px;margin:3rem auto;padding:0 1rem}.banner{background:#fff3cd;border:1px solid #e0c36c;padding:.5rem 1rem;border-radius:6px}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:1rem}</style>
</head><body data-session="${escapeHtml(checkout.id)}">
<p class="banner"><strong>Test payment</strong>: no money moves. This installation has no real payment provider.</p>
<h1>${escapeHtml(product.name)}${product.validity ? ` (${product.validity === 'year' ? 'yearly' : 'monthly'})` : ''}</h1>
${checkout.renewsSubscriptionId ? '<p data-testid="overdue">Overdue renewal payment</p>' : ''}
<p data-testid="amount">Amount: <strong>${usd(checkout.amount)}</strong>${checkout.quantity > 1 ? ` for ${checkout.quantity}` : ''} (test payment)</p>
${checkout.promo ? `<p>Promo code: ${escapeHtml(checkout.promo.code)}</p>` : ''}${trial}
${open ? '<button data-action="pay" data-testid="pay">Pay</button><button data-action="decline" data-testid="decline">Decline</button>' : `<p>This checkout is ${checkout.status}.</p>`}
<p id="error" role="alert"></p>
<script src="/dev/checkout/checkout.js"></script>
</body></html>`;
  });

  const RedirectSchema = z.object({ status: z.enum(['paid', 'declined']), redirectTo: z.string(), test: z.literal(true) });
  for (const action of ['pay', 'decline'] as const) {
    app.post(
      `/api/dev/checkout/:sessionId/${action}`,
      {
        schema: {
          tags,
          summary: action === 'pay' ? 'Test payment: pay this checkout' : 'Test payment: decline this checkout',
          params: SessionParams,
          response: { 200: RedirectSchema },
        },
        config: limit({ perIp: 30 }),
      },
      async (request, reply) => {
        const tokens = await tokenCheckout(request.params.sessionId);
        if (tokens) {
          const { position } =
            action === 'pay' ? await tokens.handler.completed(request.params.sessionId) : await tokens.handler.declined(request.params.sessionId);
          if (position) {
            reply.header(POSITION_HEADER, String(position));
            await ctx.caughtUp(position);
          }
          const status = action === 'pay' ? ('paid' as const) : ('declined' as const);
          return {
            status,
            redirectTo: `/wallet/replenish?status=${status}&checkoutId=${encodeURIComponent(request.params.sessionId)}&provider=test`,
            test: true as const,
          };
        }
        const { userId, checkout } = await service.checkout(request.params.sessionId);
        // a real provider's checkout is paid there, never here
        if (checkout.provider !== 'test') throw new DomainError(BillingErrors.checkoutNotFound);
        const checkoutId = request.params.sessionId;
        // a checkout holding a promo code's use lives a day, like a provider's page: paid later, it is
        // closed as expired instead (the code's use was freed for others meanwhile)
        if (action === 'pay' && checkout.promo && checkout.status === 'open' && ctx.now().getTime() >= Date.parse(checkout.at) + CHECKOUT_LIFETIME_MS) {
          await service.apply({ kind: 'checkout.declined', userId, checkoutId, expired: true }, requestMeta(request));
          throw new DomainError(BillingErrors.checkoutExpired);
        }
        const { position } =
          action === 'pay'
            ? await service.apply({ kind: 'checkout.completed', userId, checkoutId, providerRef: null }, requestMeta(request))
            : await service.apply({ kind: 'checkout.declined', userId, checkoutId }, requestMeta(request));
        if (position) {
          reply.header(POSITION_HEADER, String(position));
          await ctx.caughtUp(position);
        }
        const status = action === 'pay' ? ('paid' as const) : ('declined' as const);
        return { status, redirectTo: resultUrl(checkoutId, status), test: true as const };
      },
    );
  }

  // the test provider's stand-in for a bank's answer on a renewal date (Stripe sends invoice events)
  app.post(
    '/api/dev/users/:id/subscriptions/:subscriptionId/renewal',
    {
      schema: {
        tags,
        summary: 'Test payment: the renewal of a test subscription is paid or fails',
        params: z.object({ id: z.string().min(1).max(64), subscriptionId: z.string().min(1).max(64) }),
        body: z.object({ outcome: z.enum(['paid', 'failed']) }),
        response: { 200: z.object({ outcome: z.enum(['paid', 'failed']), test: z.literal(true) }) },
      },
      config: limit({ perIp: 30, perAccount: 30 }),
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      // staff acting on another user's account: the staff rules hold here as on every staff route
      // (an auditor only reads; staff act only on accounts of lower rank)
      if (user.id !== request.params.id) {
        const staff = await requireStaff(ctx, request);
        const target = await findUser(ctx.pool, request.params.id);
        if (!target) throw new DomainError(BillingErrors.subscriptionNotFound);
        assertStaffMay(staff.user, { kind: 'manage', target: { id: target.id, role: target.role } });
      }
      const sub = (await loadBilling(ctx, request.params.id)).subscriptions[request.params.subscriptionId];
      if (sub?.provider !== 'test') throw new DomainError(BillingErrors.subscriptionNotFound);
      const { position } = await service.apply(
        {
          kind: 'renewal',
          userId: request.params.id,
          subscriptionId: request.params.subscriptionId,
          paymentId: `test-${request.id}-${Date.now()}`,
          outcome: request.body.outcome,
        },
        requestMeta(request),
      );
      if (position) {
        reply.header(POSITION_HEADER, String(position));
        await ctx.caughtUp(position);
      }
      return { outcome: request.body.outcome, test: true as const };
    },
  );
};

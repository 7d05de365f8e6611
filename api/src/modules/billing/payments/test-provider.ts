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

/*
 * The stand-in's own look, self-contained (the page loads nothing but its script, and the content
 * security policy allows inline style only): a card on a grey page, a striped "test" band, so no one
 * takes it for a real provider's payment page.
 */
const CHECKOUT_STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:#eef1f5;color:#1d2330;font:400 1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.band{background:repeating-linear-gradient(135deg,#ffe08a 0 14px,#ffd35c 14px 28px);color:#4a3500;text-align:center;font-weight:600;padding:8px 16px;letter-spacing:.02em}
main{max-width:480px;margin:32px auto;padding:0 16px}
.card{background:#fff;border:1px solid #d9dee7;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(16,24,40,.08)}
.provider{margin:0 0 4px;color:#5b6475;font-size:.875rem;text-transform:uppercase;letter-spacing:.06em}
h1{margin:0 0 16px;font-size:1.5rem;font-weight:600;overflow-wrap:anywhere}
.banner{background:#fff8e1;border:1px solid #f0d27a;border-radius:8px;padding:8px 12px;margin:0 0 16px;font-size:.9375rem}
.amount{font-size:1.125rem;margin:0 0 8px}
.overdue{display:inline-block;background:#fdecea;color:#8a1c12;border-radius:16px;padding:2px 10px;font-size:.875rem;margin:0 0 12px}
.detail{margin:0 0 8px;color:#3b4352}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:20px}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 20px;cursor:pointer;border:1px solid transparent}
button[data-action=pay]{background:#1f5fbf;color:#fff}
button[data-action=decline]{background:#fff;color:#1d2330;border-color:#c5ccd8}
button:disabled{opacity:.6;cursor:wait}
.closed{margin:16px 0 0;color:#5b6475}
#error{color:#b42318;margin:12px 0 0}
#error:empty{display:none}
`;

/** The stand-in's checkout page: what is paid, and the two outcomes a test can choose. */
const checkoutPage = (p: { session: string; title: string; amount: string; details: readonly string[]; status: string; overdue?: boolean }) => {
  const open = p.status === 'open';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test payment</title><style>${CHECKOUT_STYLE}</style></head><body data-session="${escapeHtml(p.session)}">
<div class="band" data-testid="test-provider">TEST PAYMENT PROVIDER: a stand-in, no money moves</div>
<main><section class="card">
<p class="provider">Test payment provider</p>
<h1>${escapeHtml(p.title)}</h1>
<p class="banner"><strong>Test payment</strong>: no money moves. This installation has no real payment provider.</p>
${p.overdue ? '<p class="overdue" data-testid="overdue">Overdue renewal payment</p>' : ''}
<p class="amount" data-testid="amount">Amount: ${p.amount} (test payment)</p>
${p.details.map((d) => `<p class="detail">${d}</p>`).join('')}
${open ? '<div class="actions"><button data-action="pay" data-testid="pay">Pay</button><button data-action="decline" data-testid="decline">Decline</button></div>' : `<p class="closed">This checkout is ${escapeHtml(p.status)}.</p>`}
<p id="error" role="alert"></p>
</section></main>
<script src="/dev/checkout/checkout.js"></script>
</body></html>`;
};

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
    reply.type('text/html; charset=utf-8');
    if (tokens) {
      return checkoutPage({
        session: request.params.sessionId,
        title: tokens.checkout.description,
        amount: `<strong>${usd(tokens.checkout.amountCents)}</strong>`,
        details: [],
        status: tokens.checkout.status,
      });
    }
    const { checkout, product } = await service.checkout(request.params.sessionId);
    if (checkout.provider !== 'test') throw new DomainError(BillingErrors.checkoutNotFound);
    return checkoutPage({
      session: checkout.id,
      title: `${product.name}${product.validity ? ` (${product.validity === 'year' ? 'yearly' : 'monthly'})` : ''}`,
      overdue: Boolean(checkout.renewsSubscriptionId),
      amount: `<strong>${usd(checkout.amount)}</strong>${checkout.quantity > 1 ? ` for ${checkout.quantity}` : ''}`,
      details: [
        ...(checkout.promo ? [`Promo code: ${escapeHtml(checkout.promo.code)}`] : []),
        ...(checkout.promo?.freeTrialDays ? [`Free trial: ${checkout.promo.freeTrialDays} days`] : []),
      ],
      status: checkout.status,
    });
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

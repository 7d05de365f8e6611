import Stripe from 'stripe';
import type { Logger } from '../../../logger';
import { BillingErrors, DomainError } from '@axel/domain';
import type { CheckoutRequest, PaymentProvider, ProviderEvent, RenewalCheckoutRequest, TokenCheckoutRequest } from './port';

export interface StripeSettings {
  readonly secretKey: string;
  readonly webhookSecret: string | undefined;
  /** Another API base (stripe-mock, or a test's local server); Stripe's own when unset. */
  readonly apiUrl: string | undefined;
  readonly publicUrl: string;
}

export const stripeClient = (settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>): Stripe => {
  if (!settings.apiUrl) return new Stripe(settings.secretKey, { maxNetworkRetries: 2 });
  const url = new URL(settings.apiUrl);
  return new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
  });
};

/** Months a promo code's price lasts at Stripe: its cycles of this product's length. */
const couponMonths = (cycles: number, validity: 'month' | 'year') => (validity === 'year' ? cycles * 12 : cycles);

/** Stripe Checkout in subscription mode; Stripe's webhooks report the outcome (see `stripeEventToProvider`). */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  constructor(
    private readonly stripe: Stripe,
    private readonly settings: Pick<StripeSettings, 'publicUrl'>,
  ) {}

  async createCheckout(request: CheckoutRequest | TokenCheckoutRequest | RenewalCheckoutRequest) {
    if (request.purpose === 'tokens') return this.createTokenCheckout(request);
    if (request.purpose === 'renewal') return this.openInvoice(request);
    const { product, quantity } = request;
    const validity = product.validity ?? 'month';
    const full = product.price * quantity;
    const { promo } = request;
    let discounts: { coupon: string }[] | undefined;
    if (promo && promo.price < full) {
      // the code's price as a coupon, so renewals after its cycles are charged the full price
      const coupon = await this.stripe.coupons.create({
        amount_off: full - promo.price,
        currency: 'usd',
        ...(promo.cycles === null
          ? { duration: 'forever' as const }
          : promo.cycles === 1 && validity === 'month'
            ? { duration: 'once' as const }
            : { duration: 'repeating' as const, duration_in_months: couponMonths(promo.cycles, validity) }),
        metadata: { checkoutId: request.checkoutId },
      });
      discounts = [{ coupon: coupon.id }];
    }
    const result = `${this.settings.publicUrl}/storages/result?checkoutId=${encodeURIComponent(request.checkoutId)}&provider=stripe`;
    const metadata = { checkoutId: request.checkoutId, userId: request.userId };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: request.checkoutId,
      ...(request.email ? { customer_email: request.email } : {}),
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: full,
            recurring: { interval: validity },
            product_data: { name: product.name, metadata: { productId: String(product.id) } },
          },
        },
      ],
      ...(discounts ? { discounts } : {}),
      metadata,
      subscription_data: { metadata, ...(request.trialDays > 0 ? { trial_period_days: request.trialDays } : {}) },
      success_url: `${result}&status=paid`,
      cancel_url: `${result}&status=declined`,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { checkoutLink: session.url };
  }

  /**
   * An overdue renewal is Stripe's open invoice of the subscription: its hosted page pays it, and
   * Stripe reports `invoice.paid` as for any renewal (a second charge for the same cycle is impossible).
   */
  private async openInvoice(request: RenewalCheckoutRequest) {
    if (!request.providerRef) throw new Error('A Stripe subscription without its Stripe id');
    const subscription = await this.stripe.subscriptions.retrieve(request.providerRef, { expand: ['latest_invoice'] });
    const invoice = subscription.latest_invoice;
    if (!invoice || typeof invoice === 'string' || invoice.status !== 'open' || !invoice.hosted_invoice_url) {
      throw new DomainError(BillingErrors.nothingOverdue);
    }
    return { checkoutLink: invoice.hosted_invoice_url };
  }

  /** Stripe Checkout in payment mode: one charge, reported by the same checkout.session webhooks. */
  private async createTokenCheckout(request: TokenCheckoutRequest) {
    const result = `${this.settings.publicUrl}/wallet/replenish?checkoutId=${encodeURIComponent(request.checkoutId)}&provider=stripe`;
    const metadata = { checkoutId: request.checkoutId, userId: request.userId };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: request.checkoutId,
      ...(request.email ? { customer_email: request.email } : {}),
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: request.amount, product_data: { name: request.description } } }],
      metadata,
      success_url: `${result}&status=paid`,
      cancel_url: `${result}&status=declined`,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { checkoutLink: session.url };
  }
}

type Loose = Record<string, unknown> | null | undefined;
const obj = (v: unknown): Loose => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v ? v : typeof v === 'object' && v && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null;

/**
 * A verified Stripe event as the facts every provider reports. Renewals name Stripe's subscription;
 * `findSubscription` turns it into ours. Events that report nothing for billing answer null.
 */
export const stripeEventToProvider = async (
  event: Stripe.Event,
  findSubscription: (userId: string, stripeSubscriptionId: string) => Promise<string | null>,
  log?: Logger,
): Promise<ProviderEvent | null> => {
  const data = obj(event.data.object);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const metadata = obj(data?.metadata);
      const userId = str(metadata?.userId);
      const checkoutId = str(metadata?.checkoutId) ?? str(data?.client_reference_id);
      if (!userId || !checkoutId) return null;
      // a one-off payment by a delayed method completes unpaid: async_payment_succeeded reports the money later
      if (event.type === 'checkout.session.completed' && data?.mode === 'payment' && data?.payment_status === 'unpaid') return null;
      if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded')
        return { kind: 'checkout.completed', userId, checkoutId, providerRef: str(data?.subscription) };
      return { kind: 'checkout.declined', userId, checkoutId, expired: event.type === 'checkout.session.expired' };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      // the first invoice is the checkout's own payment; renewals are the cycles after it
      if (data?.billing_reason !== 'subscription_cycle') return null;
      const details = obj(obj(data?.parent)?.subscription_details);
      const metadata = obj(details?.metadata) ?? obj(obj(data?.subscription_details)?.metadata);
      const stripeSubscription = str(details?.subscription) ?? str(data?.subscription);
      const userId = str(metadata?.userId);
      const paymentId = str(data?.id);
      if (!userId || !stripeSubscription || !paymentId) return null;
      const subscriptionId = await findSubscription(userId, stripeSubscription);
      if (!subscriptionId) {
        log?.warn({ stripeEvent: event.id }, 'Stripe renewal for a subscription this installation does not know');
        return null;
      }
      // one invoice fails and is later paid (a retry, or "Pay now" on its page): two payments, so the
      // failure gets an id of its own (repeated failures of the invoice are one)
      const paid = event.type === 'invoice.paid';
      return { kind: 'renewal', userId, subscriptionId, paymentId: paid ? paymentId : `${paymentId}:failed`, outcome: paid ? 'paid' : 'failed' };
    }
    default:
      return null;
  }
};

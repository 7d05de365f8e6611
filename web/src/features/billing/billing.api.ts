import { api } from '../../api/client';
import { listOf, pageOf, toGraceInfo, toPayment, toPlanInfo, toProduct, toPromoQuote, toSubscription } from './billing.normalise';
import type { GraceInfo, Page, Payment, PlanInfo, Product, PromoQuote, Subscription } from './billing.types';
import type { CheckoutRequest } from './checkout.machine';

/** Page sizes of the specification (§9): products 100, payment history 50. */
export const PRODUCTS_PER_PAGE = 100;
export const PAYMENTS_PER_PAGE = 50;

const user = (userId: string) => `/users/${encodeURIComponent(userId)}`;

export const billingApi = {
  products: async (): Promise<Product[]> => listOf(await api.get<unknown>('/products/', { perPage: PRODUCTS_PER_PAGE })).map(toProduct),
  /** Starts a checkout at the payment provider: the answer is the page to pay on. */
  checkout: async (userId: string, request: CheckoutRequest): Promise<string> => {
    const body = await api.post<{ checkoutLink?: string }>(`${user(userId)}/products/`, request);
    if (!body?.checkoutLink) throw new Error('No checkout link in the answer');
    return body.checkoutLink;
  },
  subscriptions: async (userId: string, status?: string, productType?: string): Promise<Subscription[]> =>
    listOf(await api.get<unknown>(`${user(userId)}/subscriptions/`, { status, productType })).map(toSubscription),
  /** Seats of the user's plan not taken by members (extra member slots included). */
  freeSeats: async (userId: string): Promise<number> => {
    const body = await api.get<{ freeSeats?: unknown }>(`${user(userId)}/member-role/`);
    return typeof body?.freeSeats === 'number' ? body.freeSeats : 0;
  },
  cancelSubscription: async (userId: string, subscriptionId: string): Promise<void> => {
    await api.post<unknown>(`${user(userId)}/subscriptions/${encodeURIComponent(subscriptionId)}/`, { action: 'cancel' });
  },
  /** "Pay now": the payment provider's page for the renewal a subscription in grace failed to pay. */
  payOverdue: async (userId: string, subscriptionId: string): Promise<string> => {
    const body = await api.post<{ checkoutLink?: string }>(`${user(userId)}/subscriptions/${encodeURIComponent(subscriptionId)}/pay`, {});
    if (!body?.checkoutLink) throw new Error('No checkout link in the answer');
    return body.checkoutLink;
  },
  payments: async (userId: string, page: number): Promise<Page<Payment>> =>
    pageOf(await api.get<unknown>(`${user(userId)}/payments/`, { page, perPage: PAYMENTS_PER_PAGE, sort: '-createdAt' }), toPayment),
  plan: async (userId: string): Promise<PlanInfo> => toPlanInfo(await api.get<unknown>(`${user(userId)}/plan/`)),
  graceInfo: async (userId: string): Promise<GraceInfo | null> => toGraceInfo(await api.get<unknown>(`${user(userId)}/grace-period-info/`)),
  /** What a promo code makes a product cost at checkout, before paying (5007, 5010 or 5015 when it does not apply). */
  promoQuote: async (code: string, productId: number): Promise<PromoQuote> => {
    const quote = toPromoQuote(code, await api.get<unknown>('/promocode-products/', { code, productId }));
    if (!quote) throw new Error('No price in the answer');
    return quote;
  },
};

import { applyPromoCode, BillingErrors, checkoutQuote, DomainError, entitlementsOf, paymentDelayed, productById, PRODUCT_TYPES } from '@axel/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { POSITION_HEADER } from '../../http/read-your-writes';
import { requestMeta } from '../../http/request-meta';
import { requireSelf, requireUser } from '../../http/auth';
import { loadBilling, requireSubscriptionOf, type BillingService } from './billing.service';
import { assetsOf, catalogue, graceItems, planView, toPaymentView, toProductView, toSubscriptionView, userProducts } from './billing.views';

const tags = ['billing'];
const IdParams = z.object({ id: z.string().min(1).max(64) });
const SubscriptionParams = IdParams.extend({ subscriptionId: z.string().min(1).max(64) });
const AnyObject = z.record(z.string(), z.unknown());
export const productIdSchema = z.coerce.number().int().min(1).max(1_000_000);
const promoCodeSchema = z.string().trim().min(1).max(40);
export const customFieldsSchema = z.object({ state: z.string().max(20).optional(), barNumber: z.string().max(20).optional() }).strict();

const withPosition = async (ctx: AppContext, reply: FastifyReply, position: number) => {
  if (!position) return;
  reply.header(POSITION_HEADER, String(position));
  await ctx.caughtUp(position);
};

export const billingRoutes = (ctx: AppContext, service: BillingService) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.get(
    '/api/products/',
    {
      schema: {
        tags,
        summary: 'The product catalogue (plans, extra members), prices in minor units',
        querystring: z.object({
          perPage: z.coerce.number().int().min(1).max(100).default(100),
          page: z.coerce.number().int().min(1).max(1000).default(1),
          type: z.enum(PRODUCT_TYPES).optional(),
        }),
        response: { 200: z.array(AnyObject) },
      },
    },
    async (request) => {
      const { perPage, page, type } = request.query;
      return catalogue()
        .filter((p) => !type || p.type === type)
        .slice((page - 1) * perPage, page * perPage)
        .map(toProductView);
    },
  );

  app.get(
    '/api/users/:id/products/',
    { schema: { tags, summary: "The user's products", params: IdParams, response: { 200: z.array(AnyObject) } } },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      return userProducts(await loadBilling(ctx, request.params.id), ctx.now());
    },
  );

  app.post(
    '/api/users/:id/products/',
    {
      schema: {
        tags,
        summary: "Buy a product: answers the payment provider's checkout link",
        params: IdParams,
        body: z.object({
          productId: productIdSchema,
          promoCode: promoCodeSchema.optional(),
          quantity: z.number().int().min(1).max(100).default(1),
          customFields: customFieldsSchema.default({}),
          /** The specification's clients send `id: 0`. */
          id: z.number().int().min(0).max(1_000_000).optional(),
        }),
        response: { 201: z.object({ checkoutId: z.string(), checkoutLink: z.string(), productId: z.number() }) },
      },
      config: limit({ perIp: 30, perAccount: 20 }),
    },
    async (request, reply) => {
      await requireSelf(ctx, request, request.params.id);
      const b = request.body;
      const fields = Object.fromEntries(Object.entries(b.customFields).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const { checkoutId, checkoutLink, position } = await service.buy(
        request.params.id,
        { productId: b.productId, quantity: b.quantity, promoCode: b.promoCode, customFields: fields },
        requestMeta(request),
      );
      await withPosition(ctx, reply, position);
      return reply.status(201).send({ checkoutId, checkoutLink, productId: b.productId });
    },
  );

  app.get(
    '/api/users/:id/subscriptions/',
    {
      schema: {
        tags,
        summary: "The user's subscriptions (active, canceled, pending; ended ones with status=ended)",
        params: IdParams,
        querystring: z.object({ status: z.enum(['active', 'canceled', 'pending', 'ended']).optional(), productType: z.enum(PRODUCT_TYPES).optional() }),
        response: { 200: z.array(AnyObject) },
      },
    },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      const now = ctx.now();
      const state = await loadBilling(ctx, request.params.id);
      return (
        Object.values(state.subscriptions)
          .map((s) => toSubscriptionView(s, now))
          // ended subscriptions are history: listed only when asked for
          .filter(
            (s) =>
              (request.query.status ? s.status === request.query.status : s.status !== 'ended') &&
              (!request.query.productType || s.productType === request.query.productType),
          )
          .sort((a, b) => b.startDate.localeCompare(a.startDate))
      );
    },
  );

  app.get('/api/users/:id/subscriptions/:subscriptionId/', { schema: { tags, params: SubscriptionParams, response: { 200: AnyObject } } }, async (request) => {
    await requireSelf(ctx, request, request.params.id);
    const state = await loadBilling(ctx, request.params.id);
    const now = ctx.now();
    if (paymentDelayed(Object.values(state.subscriptions), now)) throw new DomainError(BillingErrors.paymentDelay);
    return toSubscriptionView(requireSubscriptionOf(state, request.params.subscriptionId), now);
  });

  app.post(
    '/api/users/:id/subscriptions/:subscriptionId/',
    {
      schema: {
        tags,
        summary: 'Cancel a subscription: the plan is kept until its end date, then Basic',
        params: SubscriptionParams,
        body: z.object({ action: z.literal('cancel') }),
        response: { 200: AnyObject },
      },
      config: limit({ perIp: 30, perAccount: 20 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await service.cancel(user.id, request.params.subscriptionId, { id: user.id, kind: 'user' }, requestMeta(request));
      await withPosition(ctx, reply, result.position);
      return toSubscriptionView(requireSubscriptionOf(result.state, request.params.subscriptionId), ctx.now());
    },
  );

  app.post(
    '/api/users/:id/subscriptions/:subscriptionId/pay',
    {
      schema: {
        tags,
        summary: "Pay the overdue renewal of a subscription in its grace period: answers the payment provider's page for the amount due",
        params: SubscriptionParams,
        body: z.object({}).strict().optional(),
        response: { 201: z.object({ checkoutId: z.string(), checkoutLink: z.string(), amount: z.number(), currency: z.literal('USD') }) },
      },
      config: limit({ perIp: 30, perAccount: 20 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { checkoutId, checkoutLink, amount, position } = await service.payOverdue(user.id, request.params.subscriptionId, requestMeta(request));
      await withPosition(ctx, reply, position);
      return reply.status(201).send({ checkoutId, checkoutLink, amount, currency: 'USD' as const });
    },
  );

  app.get(
    '/api/users/:id/payments/',
    {
      schema: {
        tags,
        summary: 'Payment history, newest first',
        params: IdParams,
        querystring: z.object({
          perPage: z.coerce.number().int().min(1).max(50).default(50),
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          sort: z.enum(['createdAt', '-createdAt', 'amount', '-amount']).default('-createdAt'),
          subscriptionId: z.string().max(64).optional(),
        }),
        response: { 200: z.object({ data: z.array(AnyObject), total: z.number() }) },
      },
    },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      const { perPage, page, sort, subscriptionId } = request.query;
      const field = sort.replace('-', '') as 'createdAt' | 'amount';
      const dir = sort.startsWith('-') ? -1 : 1;
      const payments = (await loadBilling(ctx, request.params.id)).payments
        .filter((p) => !subscriptionId || p.subscriptionId === subscriptionId)
        .map(toPaymentView)
        .sort((a, b) => dir * (field === 'amount' ? a.amount - b.amount : a.createdAt.localeCompare(b.createdAt)) || a.id.localeCompare(b.id));
      return { data: payments.slice((page - 1) * perPage, page * perPage), total: payments.length };
    },
  );

  app.get(
    '/api/users/:id/plan/',
    { schema: { tags, summary: 'The plan in effect, its assets, permissions and flags', params: IdParams, response: { 200: AnyObject } } },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      const state = await loadBilling(ctx, request.params.id);
      const now = ctx.now();
      return { ...planView(state, now), paymentDelay: paymentDelayed(Object.values(state.subscriptions), now) };
    },
  );

  app.get(
    '/api/users/:id/product-assets/',
    {
      schema: {
        tags,
        summary: 'Assets of the plan in effect',
        params: IdParams,
        querystring: z.object({ perPage: z.coerce.number().int().min(1).max(100).optional() }),
        response: { 200: AnyObject },
      },
    },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      const state = await loadBilling(ctx, request.params.id);
      return assetsOf(entitlementsOf({ subscriptions: Object.values(state.subscriptions), now: ctx.now() }));
    },
  );

  app.get(
    '/api/users/:id/grace-period-info/',
    { schema: { tags, summary: 'Grace items within 90 days of their grace end', params: IdParams, response: { 200: z.array(AnyObject) } } },
    async (request) => {
      await requireSelf(ctx, request, request.params.id);
      return graceItems(await loadBilling(ctx, request.params.id), ctx.now());
    },
  );

  app.get(
    '/api/promocode-products/',
    {
      schema: {
        tags,
        summary: 'What a promo code gives, per product (5007 invalid, 5010 no longer active, 5015 quota reached)',
        querystring: z.object({ code: promoCodeSchema, productId: productIdSchema.optional() }),
        response: { 200: z.array(AnyObject) },
      },
      config: limit({ perIp: 60 }),
    },
    async (request) => {
      await requireUser(ctx, request);
      const state = await service.promoState(request.query.code);
      if (state.status === 'none' || state.status === 'deleted') throw new DomainError(BillingErrors.promoInvalid);
      const ids = request.query.productId ? [request.query.productId] : state.terms.productIds;
      return ids.map((id) => {
        const product = productById(id);
        if (!product) throw new DomainError(BillingErrors.promoInvalid);
        // custom fields are asked for at checkout; here only the code's own rules count
        const applied = applyPromoCode(state, product, 1, ctx.now(), Object.fromEntries(state.terms.customFields.map((f) => [f.name, f.maxValue ? '1' : 'x'])));
        // the checkout's own price, by the function that prices the payment itself
        const quote = checkoutQuote(product, 1, applied);
        return {
          productId: product.id,
          productName: product.name,
          price: product.price,
          promoPrice: applied.price,
          dueToday: quote.dueToday,
          cycles: applied.cycles,
          freeTrialDays: applied.freeTrialDays,
          extraQuotaBytes: applied.extraQuotaBytes,
          customFields: state.terms.customFields.map((f) => f.name),
          currency: 'USD',
        };
      });
    },
  );
};

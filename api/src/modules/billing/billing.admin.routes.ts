import { AccountErrors, BillingErrors, DomainError, productById } from '@axel/domain';
import { billingFigures } from '@axel/projections/billing/billing.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { POSITION_HEADER } from '../../http/read-your-writes';
import { requestMeta } from '../../http/request-meta';
import { assertStaffMay, requireStaff } from '../../http/auth';
import { findUser } from '@axel/projections/users/users.queries';
import { loadBilling, type BillingService } from './billing.service';
import { planView, toPaymentView, toSubscriptionView } from './billing.views';
import { productIdSchema } from './billing.routes';

const tags = ['admin'];
const IdParams = z.object({ id: z.string().min(1).max(64) });
const AnyObject = z.record(z.string(), z.unknown());

export const billingAdminRoutes = (ctx: AppContext, service: BillingService) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  const billingOf = async (userId: string) => {
    const state = await loadBilling(ctx, userId);
    const now = ctx.now();
    return {
      plan: planView(state, now),
      subscriptions: Object.values(state.subscriptions)
        .map((s) => toSubscriptionView(s, now))
        .sort((a, b) => b.startDate.localeCompare(a.startDate)),
      payments: state.payments.map(toPaymentView).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    };
  };

  app.get(
    '/api/admin/users/:id/billing',
    { schema: { tags, summary: "A user's plan, subscriptions and payments", params: IdParams, response: { 200: AnyObject } } },
    async (request) => {
      await requireStaff(ctx, request);
      if (!(await findUser(ctx.pool, request.params.id))) throw new DomainError(AccountErrors.userNotFound);
      return billingOf(request.params.id);
    },
  );

  app.post(
    '/api/admin/users/:id/plan',
    {
      schema: {
        tags,
        summary: "Change a user's plan at once, without a payment (staff of higher rank)",
        params: IdParams,
        body: z.object({ productId: productIdSchema }),
        response: { 200: AnyObject },
      },
      config: limit({ perIp: 60 }),
      // staff are checked before the body is: a refused caller learns nothing of the form's rules
      preValidation: async (request: FastifyRequest) => void (await requireStaff(ctx, request)),
    },
    async (request, reply) => {
      const { user: staff } = await requireStaff(ctx, request);
      const target = await findUser(ctx.pool, request.params.id);
      if (!target) throw new DomainError(AccountErrors.userNotFound);
      assertStaffMay(staff, { kind: 'manage', target });
      const result = await service.changePlanByStaff(target.id, request.body.productId, staff.id, requestMeta(request));
      if (result.position) {
        reply.header(POSITION_HEADER, String(result.position));
        await ctx.caughtUp(result.position);
      }
      return billingOf(target.id);
    },
  );

  app.post(
    '/api/admin/users/:id/checkout',
    {
      schema: {
        tags,
        summary: 'Open a checkout of a custom plan (Enterprise, partner) for a user to pay; it shows as their pendingProduct',
        params: IdParams,
        body: z.object({ productId: productIdSchema }),
        response: { 201: z.object({ checkoutId: z.string(), checkoutLink: z.string(), productId: z.number() }) },
      },
      config: limit({ perIp: 60 }),
      preValidation: async (request: FastifyRequest) => void (await requireStaff(ctx, request)),
    },
    async (request, reply) => {
      const { user: staff } = await requireStaff(ctx, request);
      const target = await findUser(ctx.pool, request.params.id);
      if (!target) throw new DomainError(AccountErrors.userNotFound);
      assertStaffMay(staff, { kind: 'manage', target });
      if (productById(request.body.productId)?.type !== 'custom-plan') throw new DomainError(BillingErrors.planChangeNotAllowed);
      const { checkoutId, checkoutLink, position } = await service.buy(
        target.id,
        { productId: request.body.productId, quantity: 1, customFields: {} },
        requestMeta(request),
        { id: staff.id, kind: 'staff' },
      );
      if (position) {
        reply.header(POSITION_HEADER, String(position));
        await ctx.caughtUp(position);
      }
      return reply.status(201).send({ checkoutId, checkoutLink, productId: request.body.productId });
    },
  );

  app.get(
    '/api/admin/billing/dashboard',
    {
      schema: {
        tags,
        summary: 'Revenue by plan, active subscriptions, users in grace',
        response: {
          200: z.object({
            revenueByPlan: z.array(AnyObject),
            activeSubscriptions: z.array(AnyObject),
            usersInGrace: z.number(),
            unpaidUsers: z.number(),
            currency: z.string(),
          }),
        },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      const now = ctx.now();
      const figures = await billingFigures(ctx.pool, now);
      const name = (id: number) => productById(id)?.name ?? String(id);
      return {
        revenueByPlan: figures.revenueByPlan.map((r) => ({
          productId: r.product_id,
          productName: name(r.product_id),
          cycle: productById(r.product_id)?.validity ?? null,
          amount: Number(r.amount),
          payments: r.payments,
        })),
        activeSubscriptions: figures.activeByPlan.map((r) => ({ productId: r.product_id, productName: name(r.product_id), count: r.n })),
        usersInGrace: figures.usersInGrace,
        unpaidUsers: figures.unpaidUsers,
        currency: 'USD',
      };
    },
  );
};

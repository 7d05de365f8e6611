import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireStaff, requireUser } from '../../http/auth';
import type { Replenishments } from './replenish';

export const ReplenishBody = z.object({ amount: z.string().max(40) });
const CheckoutParams = z.object({ checkoutId: z.string().regex(/^[\w.-]{20,100}$/) });
const ReplenishState = z.object({
  checkoutId: z.string(),
  amount: z.string(),
  amountCents: z.number(),
  status: z.enum(['open', 'paid', 'declined']),
  tokens: z.enum(['none', 'waiting', 'sent']),
  txid: z.string().nullable(),
});
const Waiting = z.object({
  checkoutId: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  amount: z.string(),
  amountCents: z.number(),
  paidAt: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});

export const replenishRoutes = (ctx: AppContext, replenishments: Replenishments) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  app.post(
    '/api/wallet/v1/replenish',
    {
      schema: {
        tags: ['wallet'],
        summary: "Buy AXEL: answers the payment provider's checkout link; once paid, the treasury sends the tokens to the primary address",
        body: ReplenishBody,
        response: { 200: z.object({ checkoutLink: z.string(), checkoutId: z.string() }) },
      },
      config: limit({ perIp: 30, perAccount: 10 }),
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return replenishments.start(user.id, request.body.amount);
    },
  );

  app.get(
    '/api/wallet/v1/replenish/:checkoutId',
    {
      schema: {
        tags: ['wallet'],
        summary: 'One of your token checkouts: open, paid or declined, and whether the tokens are sent or waiting for the treasury',
        params: CheckoutParams,
        response: { 200: ReplenishState },
      },
      config: limit({ perAccount: 120 }),
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return replenishments.state(user.id, request.params.checkoutId);
    },
  );

  app.get(
    '/api/wallet/v1/admin/replenishments/waiting',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Staff: paid token checkouts whose tokens the treasury has not sent yet (retried until it can)',
        response: { 200: z.object({ data: z.array(Waiting), total: z.number() }) },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      const data = await replenishments.waiting();
      return { data, total: data.length };
    },
  );
};

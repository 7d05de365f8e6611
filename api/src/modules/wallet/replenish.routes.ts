import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireUser } from '../accounts/auth';
import type { Replenishments } from './replenish';

export const ReplenishBody = z.object({ amount: z.string().max(40) });

export const replenishRoutes = (ctx: AppContext, replenishments: Replenishments) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  app.post(
    '/api/wallet/v1/replenish',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Buy AXEL: answers the payment provider\'s checkout link; once paid, the treasury sends the tokens to the primary address',
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
};

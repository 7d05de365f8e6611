import {
  BillingErrors,
  CUSTOM_FIELD_MAX_LENGTH,
  CUSTOM_FIELD_MAX_VALUE,
  DomainError,
  normalizePromoCode,
  productById,
  PromoCustomFieldSchema,
  usesTaken,
  type PromoTerms,
} from '@axel/domain';
import { findPromoCode, listPromoCodes, PROMO_SORT_COLUMNS, type PromoRow } from '@axel/projections/billing/billing.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { POSITION_HEADER } from '../../http/read-your-writes';
import { contentRange, ListQuerySchema, parseListQuery } from '../admin/list-query';
import { requestMeta } from '../../http/request-meta';
import { requireStaff, type Feature } from '../../http/auth';
import type { BillingService } from './billing.service';
import { catalogue, toProductView } from './billing.views';

const tags = ['admin'];
const AnyObject = z.record(z.string(), z.unknown());
const CodeParams = z.object({ id: z.string().trim().min(1).max(40) });
const codeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,40}$/, 'validation.promoCode');
const dateSchema = z.iso
  .datetime({ offset: true })
  .or(z.iso.date())
  .transform((v) => new Date(v).toISOString());

/** The console's form (§5): required fields, products, price or discount, dates, custom fields, storage not 0. */
const termsInput = z.object({
  title: z.string().trim().min(1).max(200),
  productIds: z.array(z.number().int().min(1).max(1_000_000)).min(1).max(50),
  cycles: z.number().int().min(1).max(1000).nullable().default(null),
  price: z.number().int().min(0).max(100_000_000).nullable().default(null),
  discount: z
    .object({ amount: z.number().int().min(1).max(100_000_000), unit: z.enum(['usd', 'percent']) })
    .nullable()
    .default(null),
  startDate: dateSchema,
  expiryDate: dateSchema,
  numberOfUses: z.number().int().min(1).max(100_000_000).nullable().default(null),
  recurrence: z.enum(['once', 'recurring']).default('once'),
  freeTrialDays: z.number().int().min(0).max(366).default(0),
  extraQuotaBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null),
  customFields: z
    .array(
      PromoCustomFieldSchema.extend({
        maxLength: z.number().int().min(1).max(CUSTOM_FIELD_MAX_LENGTH),
        maxValue: z.number().int().min(1).max(CUSTOM_FIELD_MAX_VALUE).nullable().default(null),
      }),
    )
    .max(2)
    .default([]),
  notes: z.string().max(2000).nullable().default(null),
});
const createInput = termsInput.extend({ code: codeSchema, status: z.enum(['active', 'inactive']).default('active') });

const toPromoView = (r: PromoRow) => ({
  ...r.terms,
  id: r.code,
  code: r.code,
  status: r.status,
  products: r.product_ids.map((id) => ({ id, name: productById(id)?.name ?? null, cycle: productById(id)?.validity ?? null })),
  usedTimes: r.used_times,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export const promoCodeRoutes = (ctx: AppContext, service: BillingService) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  /** Staff and feature are checked before the body is: a refused caller learns nothing of the form's rules. */
  const gate = (feature: Feature) => ({ preValidation: async (request: FastifyRequest) => void (await requireStaff(ctx, request, feature)) });
  const staffCc = (staffId: string, request: Parameters<typeof requestMeta>[0]) => {
    const meta = requestMeta(request);
    return { actorId: staffId, actorKind: 'staff' as const, ip: meta.ip, userAgent: meta.userAgent, client: meta.client, correlationId: meta.correlationId };
  };
  const one = async (code: string) => {
    const row = await findPromoCode(ctx.pool, normalizePromoCode(code));
    if (!row) throw new DomainError(BillingErrors.promoNotFound);
    return toPromoView(row);
  };
  const termsOf = (b: z.infer<typeof termsInput>): PromoTerms => ({ ...b, notes: b.notes ?? null });

  app.get(
    '/api/admin/promocodes/',
    {
      schema: {
        tags,
        summary: 'Promo codes (ra-data-simple-rest: range, sort, filter q/status)',
        querystring: ListQuerySchema,
        response: { 200: z.array(AnyObject) },
      },
    },
    async (request, reply) => {
      await requireStaff(ctx, request);
      const params = parseListQuery(request.query, { sortField: 'createdAt', sortDir: 'desc', perPage: 50 }, Object.keys(PROMO_SORT_COLUMNS));
      const status = params.filter.status === 'active' || params.filter.status === 'inactive' ? params.filter.status : null;
      const { rows, total } = await listPromoCodes(ctx.pool, {
        search: params.search,
        status,
        sortField: params.sortField as keyof typeof PROMO_SORT_COLUMNS,
        sortDir: params.sortDir,
        limit: params.limit,
        offset: params.offset,
      });
      reply.header('content-range', contentRange('promocodes', params.offset, rows.length, total));
      reply.header('x-total-count', String(total));
      return rows.map(toPromoView);
    },
  );

  app.get('/api/admin/promocodes/:id', { schema: { tags, params: CodeParams, response: { 200: AnyObject } } }, async (request) => {
    await requireStaff(ctx, request);
    const view = await one(request.params.id);
    // uses held by checkouts still open, read from the code's own stream (never behind)
    const state = await service.promoState(view.code);
    return { ...view, heldUses: state.status === 'none' ? 0 : usesTaken(state, ctx.now()) - state.usedTimes };
  });

  app.post(
    '/api/admin/promocodes/',
    {
      schema: { tags, summary: 'Create a promo code (admin:promocode:add)', body: createInput, response: { 201: AnyObject } },
      config: limit({ perIp: 60 }),
      ...gate('admin:promocode:add'),
    },
    async (request, reply) => {
      const { user } = await requireStaff(ctx, request, 'admin:promocode:add');
      const b = request.body;
      const result = await service.runPromo(
        b.code,
        { type: 'CreatePromoCode', data: { code: b.code, status: b.status, terms: termsOf(b) } },
        staffCc(user.id, request),
      );
      reply.header(POSITION_HEADER, String(result.position));
      await ctx.caughtUp(result.position);
      return reply.status(201).send(await one(b.code));
    },
  );

  app.put(
    '/api/admin/promocodes/:id',
    {
      schema: {
        tags,
        summary: 'Edit a promo code (admin:promocode:add); the code itself stays',
        params: CodeParams,
        body: termsInput,
        response: { 200: AnyObject },
      },
      config: limit({ perIp: 60 }),
      ...gate('admin:promocode:add'),
    },
    async (request, reply) => {
      const { user } = await requireStaff(ctx, request, 'admin:promocode:add');
      const body = request.body;
      const result = await service.runPromo(request.params.id, { type: 'UpdatePromoCode', data: { terms: termsOf(body) } }, staffCc(user.id, request));
      reply.header(POSITION_HEADER, String(result.position));
      await ctx.caughtUp(result.position);
      return one(request.params.id);
    },
  );

  app.post(
    '/api/admin/promocodes/:id/toggle',
    {
      schema: { tags, summary: 'Switch a promo code between active and inactive (admin:promocode:add)', params: CodeParams, response: { 200: AnyObject } },
      config: limit({ perIp: 60 }),
      ...gate('admin:promocode:add'),
    },
    async (request, reply) => {
      const { user } = await requireStaff(ctx, request, 'admin:promocode:add');
      const state = await service.promoState(request.params.id);
      if (state.status !== 'active' && state.status !== 'inactive') throw new DomainError(BillingErrors.promoNotFound);
      const result = await service.runPromo(
        request.params.id,
        { type: 'SetPromoCodeStatus', data: { status: state.status === 'active' ? 'inactive' : 'active' } },
        staffCc(user.id, request),
      );
      reply.header(POSITION_HEADER, String(result.position));
      await ctx.caughtUp(result.position);
      return one(request.params.id);
    },
  );

  app.delete(
    '/api/admin/promocodes/:id',
    {
      schema: { tags, summary: 'Delete a promo code (admin:promocode:delete)', params: CodeParams, response: { 200: AnyObject } },
      config: limit({ perIp: 60 }),
      ...gate('admin:promocode:delete'),
    },
    async (request, reply) => {
      const { user } = await requireStaff(ctx, request, 'admin:promocode:delete');
      const before = await one(request.params.id);
      const result = await service.runPromo(request.params.id, { type: 'DeletePromoCode', data: {} }, staffCc(user.id, request));
      reply.header(POSITION_HEADER, String(result.position));
      await ctx.caughtUp(result.position);
      return before;
    },
  );

  app.get(
    '/api/admin/promocode-products/',
    {
      schema: {
        tags,
        summary: 'The products a promo code is for (by code); without a code, every product a code can name',
        querystring: z.object({ code: z.string().trim().max(40).optional() }),
        response: { 200: z.array(AnyObject) },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      if (!request.query.code)
        return catalogue()
          .filter((p) => p.price > 0 && p.type !== 'child-plan')
          .map(toProductView);
      const promo = await one(request.query.code);
      return promo.productIds
        .map((id) => productById(id))
        .filter((p) => p !== undefined)
        .map(toProductView);
    },
  );
};

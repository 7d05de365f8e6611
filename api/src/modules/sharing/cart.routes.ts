import { randomUUID } from 'node:crypto';
import {
  cartDecider,
  CartErrors,
  cartStreamName,
  DomainError,
  SHARED_FILE_MAX_BYTES,
  shareCounterDecider,
  shareCounterStreamName,
  sharePeriodOf,
  SharingErrors,
  StorageErrors,
  type CartCommand,
  type CartState,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import { findCart, findCartIdOfShare } from '@axel/projections/carts/carts.queries';
import { filesOfStorage } from '@axel/projections/storage/storage.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireUser } from '../../http/auth';
import { entitlementsOf } from '../billing/billing.service';
import { userActor } from '../../http/request-meta';
import { liveItem, onlineStorageId, ownStorage } from '../files/storage.service';
import {
  AddEntriesBody,
  CartEntryParams,
  CartParams,
  CartSchema,
  CartWithEntriesSchema,
  cartTags as tags,
  CostSchema,
  ShareCartBody,
  ShareCartParams,
} from './cart.schema';
import { accessFiguresOf, loadShare, shareJson, withSharedSize } from './shares.read';
import { createShare } from './sharing.service';

type Cart = Exclude<CartState, { status: 'none' }>;
const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });

/**
 * Upload-and-share: `POST /carts/` opens a cart, the owner uploads files into their online storage
 * as usual and adds them (`POST /carts/{id}/entries`), reads them and what sharing them would count
 * (`/entries`, `/cost/`), then `POST /carts/{id}/share` makes them one share through the shares'
 * own create command. `GET /shares/{id}/cart/` answers the cart a share was made from.
 */
export const cartRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 600 });

  const run = async (cartId: string, command: Omit<CartCommand, 'metadata'>, actor: CommandContext) => {
    const result = await handleCommand(ctx.commands, cartDecider, cartStreamName(cartId), { ...command, metadata: { now: ctx.now() } } as CartCommand, actor);
    if (result.position) await ctx.caughtUp(result.position);
    return result.state as Cart;
  };
  /** The caller's own cart; anyone else's is not found. */
  const ownCart = async (cartId: string, userId: string): Promise<Cart> => {
    const { state } = await loadState(ctx.commands, cartDecider, cartStreamName(cartId));
    if (state.status === 'none' || state.ownerId !== userId) throw new DomainError(CartErrors.notFound);
    return state;
  };
  const entriesOf = async (cart: Cart) => {
    const rows = await filesOfStorage(ctx.pool, cart.storageId, cart.fileIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return cart.fileIds.map((id) => {
      const r = byId.get(id);
      return {
        id,
        name: r?.name ?? null,
        size: r ? Number(r.size) : 0,
        mime: r?.mime ?? null,
        label: 'file' as const,
        state: !r ? ('deleted' as const) : r.in_trash ? ('trashed' as const) : ('ready' as const),
      };
    });
  };
  const cartJson = async (cart: Cart) => {
    const row = await findCart(ctx.pool, cart.id);
    const at = ctx.now().toISOString();
    const iso = (d: Date | string | undefined) => (d === undefined ? at : new Date(d).toISOString());
    return {
      id: cart.id,
      status: cart.status,
      shareId: cart.shareId,
      storageId: cart.storageId,
      filesCount: cart.fileIds.length,
      createdAt: iso(row?.created_at),
      modifiedAt: iso(row?.modified_at),
    };
  };

  app.post(
    '/api/carts/',
    { schema: { tags, summary: 'Open an upload-and-share cart in your online storage', response: { 201: CartSchema, 401: ErrorSchema } }, config: writes },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const actor = userActor(request, user.id);
      const storage = await ownStorage(ctx, user.id, onlineStorageId(user.id), actor);
      const cartId = randomUUID();
      const cart = await run(cartId, { type: 'OpenCart', data: { cartId, ownerId: user.id, storageId: storage.id } }, actor);
      return reply.status(201).send(await cartJson(cart));
    },
  );

  app.get(
    '/api/carts/:id',
    { schema: { tags, summary: 'One of your carts', params: CartParams, response: { 200: CartSchema, 401: ErrorSchema, 404: ErrorSchema } } },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return cartJson(await ownCart(request.params.id, user.id));
    },
  );

  app.get(
    '/api/carts/:id/entries',
    {
      schema: {
        tags,
        summary: "The cart's files, in the order they were added",
        params: CartParams,
        response: { 200: z.object({ data: z.array(CartWithEntriesSchema.shape.entries.element), totalCount: z.number() }), 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const data = await entriesOf(await ownCart(request.params.id, user.id));
      return { data, totalCount: data.length };
    },
  );

  app.post(
    '/api/carts/:id/entries',
    {
      schema: {
        tags,
        summary: 'Add uploaded files of your online storage to the cart',
        params: CartParams,
        body: AddEntriesBody,
        response: {
          200: z.object({ data: z.array(CartWithEntriesSchema.shape.entries.element), totalCount: z.number() }),
          400: ErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
      config: writes,
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const cart = await ownCart(request.params.id, user.id);
      // only live files of the cart's own storage: a folder, a trashed or a foreign file is not found
      for (const fileId of new Set(request.body.fileIds)) await liveItem(ctx, cart.storageId, fileId, 'file');
      const next = await run(cart.id, { type: 'AddCartEntries', data: { fileIds: request.body.fileIds } }, userActor(request, user.id));
      const data = await entriesOf(next);
      return { data, totalCount: data.length };
    },
  );

  app.delete(
    '/api/carts/:id/entries/:fileId',
    {
      schema: {
        tags,
        summary: 'Take a file out of the cart (the file stays in your storage)',
        params: CartEntryParams,
        response: { 204: z.null(), 401: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const cart = await ownCart(request.params.id, user.id);
      await run(cart.id, { type: 'RemoveCartEntry', data: { fileId: request.params.fileId } }, userActor(request, user.id));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/carts/:id/cost/',
    {
      schema: {
        tags,
        summary: 'What sharing the cart would count: files, size, the 10 MiB rule, shares left this month',
        params: CartParams,
        response: { 200: CostSchema, 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const cart = await ownCart(request.params.id, user.id);
      const now = ctx.now();
      const [entries, plan, counter] = await Promise.all([
        entriesOf(cart),
        entitlementsOf(ctx, user.id),
        loadState(ctx.commands, shareCounterDecider, shareCounterStreamName(user.id, sharePeriodOf(now))),
      ]);
      const ready = entries.filter((e) => e.state === 'ready');
      const maxFileSize = plan.permissions.includes('unlimited-shared-file-size') ? null : SHARED_FILE_MAX_BYTES;
      const oversizedFileIds = maxFileSize === null ? [] : ready.filter((e) => e.size > maxFileSize).map((e) => e.id);
      const missingFileIds = entries.filter((e) => e.state !== 'ready').map((e) => e.id);
      const sharesUsed = counter.state.shareIds.length;
      const sharesLimit = plan.secureShareMaxCountPerPeriod;
      const sharesLeft = sharesLimit === null ? null : Math.max(0, sharesLimit - sharesUsed);
      const reasons = [
        ...(entries.length === 0 ? [CartErrors.empty.code] : []),
        ...(missingFileIds.length ? [StorageErrors.itemNotFound.code] : []),
        ...(oversizedFileIds.length ? [SharingErrors.fileTooLarge.code] : []),
        ...(sharesLeft === 0 ? [SharingErrors.limitReached.code] : []),
        ...(cart.status === 'shared' ? [CartErrors.alreadyShared.code] : []),
      ];
      return {
        cost: {
          filesCount: ready.length,
          totalSize: ready.reduce((n, e) => n + e.size, 0),
          largestFileSize: ready.reduce((n, e) => Math.max(n, e.size), 0),
          maxFileSize,
          oversizedFileIds,
          missingFileIds,
          sharesUsed,
          sharesLimit,
          sharesLeft,
          refused: reasons.length > 0,
          reasons,
        },
      };
    },
  );

  app.post(
    '/api/carts/:id/share',
    {
      schema: {
        tags,
        summary: "Make the cart's files one share (fields as POST /shares/); an empty cart is refused",
        params: CartParams,
        body: ShareCartBody,
        response: { 201: z.unknown(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema },
      },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const actor = userActor(request, user.id);
      const cart = await ownCart(request.params.id, user.id);
      // claimed first: two requests sharing one cart cannot both create a share
      const attemptId = randomUUID();
      const claimed = await run(cart.id, { type: 'StartCartShare', data: { attemptId } }, actor);
      let share;
      try {
        share = await createShare(ctx, user, { ...request.body, itemIds: [...claimed.fileIds] }, actor);
      } catch (error) {
        await run(cart.id, { type: 'AbandonCartShare', data: { attemptId } }, actor);
        throw error;
      }
      await run(cart.id, { type: 'FinishCartShare', data: { attemptId, shareId: share.id } }, actor);
      const access = (await accessFiguresOf(ctx, [share.id])).get(share.id);
      return reply.status(201).send(shareJson(ctx, await withSharedSize(ctx, share), { owner: true, access }));
    },
  );

  app.get(
    '/api/shares/:id/cart/',
    {
      schema: {
        tags,
        summary: 'The cart a share of yours was made from, with its files',
        params: ShareCartParams,
        response: { 200: CartWithEntriesSchema, 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const { state: share } = await loadShare(ctx, request.params.id);
      if (share.status === 'none' || share.status === 'deleted' || share.ownerId !== user.id) throw new DomainError(SharingErrors.shareNotFound);
      const cartId = await findCartIdOfShare(ctx.pool, share.id, user.id);
      if (!cartId) throw new DomainError(CartErrors.notFound);
      const cart = await ownCart(cartId, user.id);
      return { ...(await cartJson(cart)), entries: await entriesOf(cart) };
    },
  );
};

import {
  applyPromoCode,
  billingDecider,
  billingStreamName,
  BillingErrors,
  DomainError,
  entitlementsOf as entitlementsFrom,
  productById,
  promoCodeDecider,
  promoCodeStreamName,
  type AppliedPromo,
  type BillingCommand,
  type BillingState,
  type Entitlements,
  type PromoCodeCommand,
  type PromoCodeState,
} from '@axel/domain';
import { handleCommand, loadState, newId, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import { randomToken } from '../../secrets';
import type { RequestMeta } from '../../http/request-meta';
import { findUser } from '@axel/projections/users/users.queries';
import { checkoutUserId, type PaymentProvider, type ProviderEvent } from './payments/port';

/** Checkouts that may race for one promo code's stream at the same moment before any is refused for it. */
const PROMO_STREAM_RETRIES = 100;
/** How a promo code can be spelled: anything else names no code and no stream. */
const PROMO_CODE_SPELLING = /^[A-Za-z0-9_-]{1,40}$/;

export const loadBilling = async (ctx: AppContext, userId: string): Promise<BillingState> =>
  (await loadState(ctx.commands, billingDecider, billingStreamName(userId))).state;

/**
 * What a user may do now, read from their billing stream (never behind). The storage quota and the
 * sharing counters read this.
 */
export const entitlementsOf = async (ctx: AppContext, userId: string): Promise<Entitlements> =>
  entitlementsFrom({ subscriptions: Object.values((await loadBilling(ctx, userId)).subscriptions), now: ctx.now() });

/** Bytes a user stores, from the storage slice's read model (0 where it does not exist yet). */
const usageBytes = async (ctx: AppContext, userId: string): Promise<number> => {
  const { rows } = await ctx.pool.query<{ t: string | null }>(`select to_regclass('storages')::text as t`);
  if (!rows[0]?.t) return 0;
  const used = await ctx.pool.query<{ n: string }>(`select coalesce(sum(size_used), 0)::text as n from storages where owner_id = $1`, [userId]);
  return Number(used.rows[0]?.n ?? 0);
};

/** Members using seats of the user's plan; teams arrive with their own slice (none until then). */
const membersUsed = async (_ctx: AppContext, _userId: string): Promise<number> => 0;

export class BillingService {
  constructor(
    private readonly ctx: AppContext,
    private readonly provider: () => PaymentProvider | null,
  ) {}

  private cc(meta: RequestMeta | null, actor: { id: string | null; kind: CommandContext['actorKind'] }): CommandContext {
    return {
      actorId: actor.id,
      actorKind: actor.kind,
      ip: meta?.ip ?? null,
      userAgent: meta?.userAgent ?? null,
      client: meta?.client ?? null,
      correlationId: meta?.correlationId,
    };
  }

  run(userId: string, command: Omit<BillingCommand, 'metadata'>, cc: CommandContext) {
    return handleCommand(this.ctx.commands, billingDecider, billingStreamName(userId), { ...command, metadata: { now: this.ctx.now() } } as BillingCommand, cc);
  }

  runPromo(code: string, command: Omit<PromoCodeCommand, 'metadata'>, cc: CommandContext) {
    // a popular code's checkouts all queue on its one stream: each lost race retries on the fresh state
    return handleCommand(
      { ...this.ctx.commands, maxRetries: PROMO_STREAM_RETRIES },
      promoCodeDecider,
      promoCodeStreamName(code),
      { ...command, metadata: { now: this.ctx.now() } } as PromoCodeCommand,
      cc,
    );
  }

  async promoState(code: string): Promise<PromoCodeState> {
    if (!PROMO_CODE_SPELLING.test(code.trim())) return { status: 'none' };
    return (await loadState(this.ctx.commands, promoCodeDecider, promoCodeStreamName(code))).state;
  }

  /** Starts a checkout and answers the provider's page for it. */
  async buy(
    userId: string,
    input: { productId: number; quantity: number; promoCode?: string | undefined; customFields: Record<string, string> },
    meta: RequestMeta,
    actor: { id: string; kind: 'user' | 'staff' } = { id: userId, kind: 'user' },
  ): Promise<{ checkoutId: string; checkoutLink: string; position: number }> {
    const provider = this.provider();
    if (!provider) throw new DomainError(BillingErrors.paymentsUnavailable);
    const product = productById(input.productId);
    if (!product) throw new DomainError(BillingErrors.productNotFound);
    const quantity = product.extraMembers ? input.quantity : 1;
    const checkoutId = `${userId}.${randomToken(24)}`;
    const cc = this.cc(meta, actor);
    // a use of the code is held on the code's own stream before the checkout starts: the limit is
    // decided there, so parallel checkouts cannot both take its last use
    let promo: AppliedPromo | null = null;
    if (input.promoCode) {
      if (!PROMO_CODE_SPELLING.test(input.promoCode.trim())) throw new DomainError(BillingErrors.promoInvalid);
      const reserved = await this.runPromo(
        input.promoCode,
        { type: 'ReservePromoCodeUse', data: { userId, checkoutId, productId: product.id, quantity, customFields: input.customFields } },
        cc,
      );
      promo = applyPromoCode(reserved.state, product, quantity, this.ctx.now(), input.customFields, checkoutId);
    }
    let result: Awaited<ReturnType<BillingService['run']>>;
    try {
      result = await this.run(
        userId,
        {
          type: 'StartCheckout',
          data: {
            checkoutId,
            productId: product.id,
            quantity,
            provider: provider.kind,
            promo,
            customFields: promo ? input.customFields : {},
            usageBytes: await usageBytes(this.ctx, userId),
          },
        },
        cc,
      );
    } catch (error) {
      if (promo) await this.runPromo(promo.code, { type: 'ReleasePromoCodeUse', data: { checkoutId, reason: 'failed' } }, cc);
      throw error;
    }
    const started = result.events.find((e) => e.type === 'CheckoutStarted');
    const amount = started?.type === 'CheckoutStarted' ? started.data.amount : product.price;
    const user = await findUser(this.ctx.pool, userId);
    let checkoutLink: string;
    try {
      ({ checkoutLink } = await provider.createCheckout({
        checkoutId,
        userId,
        email: user?.email ?? null,
        product,
        quantity,
        amount,
        trialDays: promo?.freeTrialDays ?? 0,
        promo,
      }));
    } catch (error) {
      // nobody can reach this checkout's page: it is closed, and its hold on the code let go
      await this.run(userId, { type: 'DeclineCheckout', data: { checkoutId } }, cc);
      if (promo) await this.runPromo(promo.code, { type: 'ReleasePromoCodeUse', data: { checkoutId, reason: 'failed' } }, cc);
      if (error instanceof DomainError) throw error;
      this.ctx.log.error({ err: error, provider: provider.kind }, 'payment provider failed to open a checkout');
      throw new DomainError(BillingErrors.providerFailed);
    }
    // kept, so a checkout staff opened for the user is offered to them to pay (`pendingProduct`)
    const linked = await this.run(userId, { type: 'RecordCheckoutLink', data: { checkoutId, checkoutLink } }, this.cc(meta, actor));
    return { checkoutId, checkoutLink, position: Math.max(result.position, linked.position) };
  }

  /** "Pay now": a checkout for the renewal a subscription in grace failed to pay, on its provider's page. */
  async payOverdue(
    userId: string,
    subscriptionId: string,
    meta: RequestMeta,
  ): Promise<{ checkoutId: string; checkoutLink: string; amount: number; position: number }> {
    const provider = this.provider();
    if (!provider) throw new DomainError(BillingErrors.paymentsUnavailable);
    const checkoutId = `${userId}.${randomToken(24)}`;
    const cc = this.cc(meta, { id: userId, kind: 'user' });
    const result = await this.run(userId, { type: 'StartRenewalCheckout', data: { checkoutId, subscriptionId, provider: provider.kind } }, cc);
    const checkout = result.state.checkouts[checkoutId]!;
    const sub = result.state.subscriptions[subscriptionId]!;
    const user = await findUser(this.ctx.pool, userId);
    let checkoutLink: string;
    try {
      ({ checkoutLink } = await provider.createCheckout({
        purpose: 'renewal',
        checkoutId,
        userId,
        email: user?.email ?? null,
        product: productById(checkout.productId)!,
        subscriptionId,
        providerRef: sub.providerRef,
        amount: checkout.amount,
      }));
    } catch (error) {
      await this.run(userId, { type: 'DeclineCheckout', data: { checkoutId } }, cc);
      if (error instanceof DomainError) throw error;
      this.ctx.log.error({ err: error, provider: provider.kind }, 'payment provider failed to open an overdue payment');
      throw new DomainError(BillingErrors.providerFailed);
    }
    const linked = await this.run(userId, { type: 'RecordCheckoutLink', data: { checkoutId, checkoutLink } }, cc);
    return { checkoutId, checkoutLink, amount: checkout.amount, position: Math.max(result.position, linked.position) };
  }

  async cancel(userId: string, subscriptionId: string, by: { id: string; kind: 'user' | 'staff' }, meta: RequestMeta) {
    return this.run(
      userId,
      { type: 'CancelSubscription', data: { subscriptionId, by: by.kind, membersUsed: await membersUsed(this.ctx, userId) } },
      this.cc(meta, by),
    );
  }

  async changePlanByStaff(userId: string, productId: number, staffId: string, meta: RequestMeta) {
    return this.run(userId, { type: 'ChangePlanByStaff', data: { subscriptionId: newId(), productId } }, this.cc(meta, { id: staffId, kind: 'staff' }));
  }

  /** The one path every provider's report takes: the test checkout's buttons and Stripe's webhook alike. */
  async apply(event: ProviderEvent, meta: RequestMeta | null): Promise<{ position: number }> {
    const cc = this.cc(meta, { id: null, kind: 'system' });
    switch (event.kind) {
      case 'checkout.completed': {
        const state = await loadBilling(this.ctx, event.userId);
        const checkout = state.checkouts[event.checkoutId];
        if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
        const result = await this.run(
          event.userId,
          { type: 'CompleteCheckout', data: { checkoutId: event.checkoutId, subscriptionId: newId(), paymentId: newId(), providerRef: event.providerRef } },
          cc,
        );
        let position = result.position;
        if (checkout.promo) {
          const used = await this.runPromo(
            checkout.promo.code,
            { type: 'RecordPromoCodeUse', data: { userId: event.userId, checkoutId: event.checkoutId } },
            cc,
          );
          position = Math.max(position, used.position);
        }
        return { position };
      }
      case 'checkout.declined': {
        // a provider's expired checkout arrives here too (Stripe's checkout.session.expired)
        const state = await loadBilling(this.ctx, event.userId);
        const checkout = state.checkouts[event.checkoutId];
        const result = await this.run(event.userId, { type: 'DeclineCheckout', data: { checkoutId: event.checkoutId } }, cc);
        let position = result.position;
        if (checkout?.promo) {
          const released = await this.runPromo(
            checkout.promo.code,
            { type: 'ReleasePromoCodeUse', data: { checkoutId: event.checkoutId, reason: event.expired ? 'expired' : 'declined' } },
            cc,
          );
          position = Math.max(position, released.position);
        }
        return { position };
      }
      case 'renewal':
        return this.run(
          event.userId,
          { type: 'RecordRenewal', data: { subscriptionId: event.subscriptionId, paymentId: event.paymentId, outcome: event.outcome } },
          cc,
        );
    }
  }

  /** The checkout a provider session id names, with its user (a test checkout's id is its session id). */
  async checkout(checkoutId: string) {
    const userId = checkoutUserId(checkoutId);
    if (!userId) throw new DomainError(BillingErrors.checkoutNotFound);
    const state = await loadBilling(this.ctx, userId);
    const checkout = state.checkouts[checkoutId];
    if (!checkout) throw new DomainError(BillingErrors.checkoutNotFound);
    return { userId, checkout, product: productById(checkout.productId)! };
  }
}

export const requireSubscriptionOf = (state: BillingState, id: string) => {
  const sub = state.subscriptions[id];
  if (!sub) throw new DomainError(BillingErrors.subscriptionNotFound);
  return sub;
};

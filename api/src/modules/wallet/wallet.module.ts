import { autopayEventDefinitions, contactEventDefinitions, ledgerEventDefinitions, programNameEventDefinitions, walletEventDefinitions } from '@axel/domain';
import { DevelopmentChain } from '@axel/platform/chain/index';
import { autopayProjection } from '@axel/projections/wallet/autopay.projection';
import { walletAddressesProjection } from '@axel/projections/wallet/wallet.projection';
import type { DispatchContext } from '@axel/workflows';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import { autopayProcessCommand } from './autopay.payout';
import { buildChain, chainMigrations } from './chain';
import { forgetWalletData } from './forget';
import { WalletService, type WalletOf } from './wallet.service';
import { autopayRoutes } from './autopay.routes';
import { contactsRoutes } from './contacts.routes';
import { explorerRoutes } from './explorer.routes';
import { walletRoutes } from './wallet.routes';
import { paymentProviderFor } from '../billing/payments/provider';
import type { TokenCheckoutHandler } from '../billing/payments/port';
import { Replenishments, replenishMigrations } from './replenish';
import { replenishRoutes } from './replenish.routes';

/**
 * Mines the development chain: a block is due one interval (AXEL_DEV_BLOCK_SECONDS, on the app's
 * clock) after the newer of the tip and the oldest waiting transaction. Checked every second at
 * most, in the worker role only, so one process mines.
 */
const startMiner = (ctx: AppContext, chain: DevelopmentChain) => {
  const blockMs = ctx.config.AXEL_DEV_BLOCK_SECONDS * 1000;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const due = await chain.nextBlockDue(blockMs);
      if (due && due.getTime() <= ctx.now().getTime()) {
        const block = await chain.mine();
        if (block) ctx.log.debug({ height: block.height, transactions: block.txids.length }, 'development chain block mined');
      }
    } catch (error) {
      ctx.log.error({ err: error }, 'development chain mining failed');
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), Math.min(1000, blockMs));
  timer.unref();
  return () => clearInterval(timer);
};

/** Retries the treasury's sends of paid checkouts that wait (a treasury without funds): checked every second, due by the app's clock. */
const startReplenishRetries = (ctx: AppContext, replenishments: Replenishments) => {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await replenishments.retryWaiting();
    } catch (error) {
      ctx.log.error({ err: error }, 'replenishment retries failed');
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 1000);
  timer.unref();
  return () => clearInterval(timer);
};

/** The wallet module as `app.ts` wires it: a module, its wallet, and its process commands. */
export interface WalletModule extends Module {
  /** The wallet of the app (its chain built on first use): anchors and pinning payments are given it. */
  readonly walletOf: WalletOf;
  /** The `autopay` aggregate of process commands: the payout, reminders and expiry. */
  autopayCommand(ctx: AppContext, command: { aggregateId: string; type: string; data: unknown }, dctx: DispatchContext): Promise<{ position: number }>;
  /** The wallet's token checkouts (replenishments), which billing's payment providers answer for. */
  tokenCheckouts(ctx: AppContext): TokenCheckoutHandler;
}

export const createWalletModule = (): WalletModule => {
  let service: Promise<WalletService> | undefined;
  const walletOf: WalletOf = (ctx) => (service ??= buildChain(ctx).then((chain) => new WalletService(ctx, chain)));
  let stopMiner: (() => void) | undefined;
  let stopRetries: (() => void) | undefined;
  let context: AppContext | undefined;
  let replenishments: Replenishments | undefined;
  const replenishmentsOf = (ctx: AppContext) => {
    if (replenishments) return replenishments;
    const provider = paymentProviderFor(ctx);
    return (replenishments = new Replenishments(
      ctx,
      () => walletOf(ctx),
      () => provider,
    ));
  };
  return {
    name: 'wallet',
    walletOf,
    autopayCommand: (ctx, command, dctx) => autopayProcessCommand(ctx, walletOf, command, dctx),
    tokenCheckouts: replenishmentsOf,
    events: [...ledgerEventDefinitions, ...walletEventDefinitions, ...contactEventDefinitions, ...autopayEventDefinitions, ...programNameEventDefinitions],
    projections: [walletAddressesProjection, autopayProjection],
    migrations: [...chainMigrations, ...replenishMigrations],
    routes: (ctx) => {
      context = ctx;
      return async (app) => {
        await app.register(walletRoutes(ctx, () => walletOf(ctx)));
        await app.register(contactsRoutes(ctx, () => walletOf(ctx)));
        await app.register(explorerRoutes(ctx, () => walletOf(ctx)));
        await app.register(autopayRoutes(ctx));
        await app.register(replenishRoutes(ctx, replenishmentsOf(ctx)));
      };
    },
    async start(ctx, roles) {
      context = ctx;
      const { chain } = await walletOf(ctx);
      if (roles.has('worker') && chain instanceof DevelopmentChain) stopMiner = startMiner(ctx, chain);
      if (roles.has('worker')) stopRetries = startReplenishRetries(ctx, replenishmentsOf(ctx));
    },
    // the address book and the send notes: their streams' keys are destroyed
    forget: forgetWalletData,
    async stop() {
      stopMiner?.();
      stopRetries?.();
    },
    async health() {
      if (!context) return { chain: 'not started' };
      const { chain } = await walletOf(context);
      return { chain: chain.kind === 'development' ? 'development chain' : 'json-rpc' };
    },
  };
};

import { secureFetchEventDefinitions } from '@axel/domain';
import type { AuditSigningKey } from '@axel/platform/audit/keys';
import { secureFetchesProjection } from '@axel/projections/secure-fetch/secure-fetches.projection';
import type { DispatchContext } from '@axel/workflows';
import type { AppContext } from '../../context';
import type { Module } from '../../module';
import type { StorageBytesOf } from '../files/storage.bytes';
import type { PaidPinning } from '../ipfs/ipfs.module';
import type { WalletOf } from '../wallet/wallet.service';
import { startStaleClaimSweep } from './secure-fetch.claims';
import { secureFetchMigrations } from './secure-fetch.migrations';
import { secureFetchPaymentRoutes } from './secure-fetch.pay.routes';
import { secureFetchPublicRoutes } from './secure-fetch.public.routes';
import { secureFetchOwnerRoutes } from './secure-fetch.routes';
import { collectUnpaidFiles, forgetSecureFetches } from './secure-fetch.submission';

/** The gate of anonymous tus creations through a link: the files module is built with it. */
export { secureFetchGate } from './secure-fetch.submission';

/** The Secure Fetch module as `app.ts` wires it: a module, and the `secure-fetch` process commands. */
export interface SecureFetchModule extends Module {
  /** Unpaid received files are collected (the process's `CollectUnpaidFiles`). */
  collectUnpaid(ctx: AppContext, fetchId: string, dctx: DispatchContext): Promise<{ position: number }>;
}

/**
 * Secure Fetch: links a third party uses to send files to the owner, received into the owner's
 * online storage through the tus gate, paid through the wallet and pinned with a certificate of
 * authenticity signed with the audit key.
 */
export const createSecureFetchModule = (deps: {
  readonly bytes: StorageBytesOf;
  readonly walletOf: WalletOf;
  readonly receiptKey: (ctx: AppContext) => AuditSigningKey;
  readonly pinning: PaidPinning;
}): SecureFetchModule => {
  let stopSweep: (() => Promise<void>) | undefined;
  return {
    name: 'secure-fetch',
    events: secureFetchEventDefinitions,
    projections: [secureFetchesProjection],
    migrations: secureFetchMigrations,
    personalData: { secure_fetches: ['note'] },
    collectUnpaid: (ctx, fetchId, dctx) => collectUnpaidFiles(ctx, deps.bytes(ctx), fetchId, dctx),
    routes: (ctx) => async (app) => {
      const bytes = deps.bytes(ctx);
      await app.register(secureFetchOwnerRoutes(ctx, bytes));
      await app.register(secureFetchPublicRoutes(ctx, { bytes, receiptKey: () => deps.receiptKey(ctx) }));
      await app.register(secureFetchPaymentRoutes(ctx, deps.walletOf, deps.pinning));
    },
    // the links' notes, file names and metadata: each link stream's key is destroyed
    forget: forgetSecureFetches,
    // claims of submissions whose process stopped before they completed are given back
    async start(ctx, roles) {
      if (roles.has('worker')) stopSweep = startStaleClaimSweep(ctx, deps.bytes(ctx));
    },
    async stop() {
      await stopSweep?.();
    },
  };
};

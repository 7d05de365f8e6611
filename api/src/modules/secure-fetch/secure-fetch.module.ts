import { secureFetchEventDefinitions } from '@axel/domain';
import { secureFetchesProjection } from '@axel/projections/secure-fetch/secure-fetches.projection';
import type { Module } from '../../app';
import { bindSecureFetchGate } from '../files/uploads.secure-fetch-gate';
import { secureFetchMigrations } from './secure-fetch.migrations';
import { secureFetchPaymentRoutes } from './secure-fetch.pay.routes';
import { secureFetchPublicRoutes } from './secure-fetch.public.routes';
import { secureFetchOwnerRoutes } from './secure-fetch.routes';
import { secureFetchGate } from './secure-fetch.submission';

/**
 * Secure Fetch: links a third party uses to send files to the owner, received into the owner's
 * online storage through the tus gate, paid and pinned with a certificate of authenticity.
 */
export const secureFetchModule: Module = {
  events: secureFetchEventDefinitions,
  projections: [secureFetchesProjection],
  migrations: secureFetchMigrations,
  routes: (ctx) => async (app) => {
    bindSecureFetchGate(ctx, secureFetchGate(ctx));
    await app.register(secureFetchOwnerRoutes(ctx));
    await app.register(secureFetchPublicRoutes(ctx));
    await app.register(secureFetchPaymentRoutes(ctx));
  },
};

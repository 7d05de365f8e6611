import { shareCounterEventDefinitions, shareEventDefinitions } from '@axel/domain';
import { sharesProjection } from '@axel/projections';
import type { Module } from '../../module';
import { forgetShares } from './sharing.forget';
import { sharingMigrations } from './sharing.migrations';
import { sharingRoutes } from './sharing.routes';

/**
 * Shares of the owner's online storage: the share aggregate, its monthly counter, the owner's
 * routes and the shares read model. Anonymous access to a share lives beside it (share-access.*),
 * built on `loadShare`/`loadShareByLinkId` and `decideShareAccess`.
 */
export const sharingModule: Module = {
  name: 'sharing',
  events: [...shareEventDefinitions, ...shareCounterEventDefinitions],
  projections: [sharesProjection],
  migrations: sharingMigrations,
  personalData: { shares: ['title', 'recipient_emails'] },
  routes: (ctx) => async (app) => {
    await app.register(sharingRoutes(ctx));
  },
  // the shares' titles, messages, recipients and item names: each share stream's key is destroyed
  forget: forgetShares,
};

import { shareAccessEventDefinitions } from '@axel/domain';
import type { Module } from '../../module';
import type { StorageBytesOf } from '../files/storage.bytes';
import { shareLinkFailureMigrations } from './share-access.failures';
import { forgetShareAccessOf } from './share-access.forget';
import { shareAccessProjection } from './share-access.projection';
import { shareAccessRoutes } from './share-access.routes';

/**
 * Share access: what visitors and recipients do with a share link (open, browse, preview,
 * download, archive) and what its owner sees of it (opened count, delivered on, access log).
 */
export const createShareAccessModule = (deps: { readonly bytes: StorageBytesOf }): Module => ({
  name: 'share-access',
  events: shareAccessEventDefinitions,
  projections: [shareAccessProjection],
  migrations: shareLinkFailureMigrations,
  personalData: { share_access_log: ['recipient_email', 'ip', 'user_agent'], share_access_recipients: ['email'] },
  routes: (ctx) => shareAccessRoutes(ctx, deps.bytes(ctx)),
  // who opened the purged owner's shares: the keys of their e-mails, addresses and user agents
  forget: forgetShareAccessOf,
});

import { shareAccessEventDefinitions } from '@axel/domain';
import type { Module } from '../../app';
import { shareAccessProjection } from './share-access.projection';
import { shareAccessRoutes } from './share-access.routes';

/**
 * Share access: what visitors and recipients do with a share link (open, browse, preview,
 * download, archive) and what its owner sees of it (opened count, delivered on, access log).
 */
export const shareAccessModule: Module = {
  events: shareAccessEventDefinitions,
  projections: [shareAccessProjection],
  routes: shareAccessRoutes,
};

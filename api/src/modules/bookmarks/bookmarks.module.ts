import { bookmarkEventDefinitions } from '@axel/domain';
import { bookmarksProjection } from '@axel/projections/bookmarks/bookmarks.projection';
import type { Module } from '../../app';
import { bookmarksRoutes } from './bookmarks.routes';

/** Bookmarks of shares and the lists they are sorted into (spec §2 files/bookmarks, files/lists). */
export const bookmarksModule: Module = {
  events: bookmarkEventDefinitions,
  projections: [bookmarksProjection],
  routes: bookmarksRoutes,
};

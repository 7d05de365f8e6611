import { bookmarkEventDefinitions } from '@axel/domain';
import { bookmarksProjection } from '@axel/projections/bookmarks/bookmarks.projection';
import type { Module } from '../../module';
import { forgetBookmarks } from './bookmarks.forget';
import { bookmarksRoutes } from './bookmarks.routes';

/** Bookmarks of shares and the lists they are sorted into (spec §2 files/bookmarks, files/lists). */
export const bookmarksModule: Module = {
  name: 'bookmarks',
  events: bookmarkEventDefinitions,
  projections: [bookmarksProjection],
  personalData: { bookmarks: ['description'], bookmark_lists: ['name'] },
  routes: bookmarksRoutes,
  forget: forgetBookmarks,
};

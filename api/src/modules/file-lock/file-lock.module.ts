import { fileLockEventDefinitions } from '@axel/domain';
import { fileLocksProjection } from '@axel/projections/file-lock/file-lock.projection';
import type { Module } from '../../module';
import { fileLockRoutes } from './file-lock.routes';

/**
 * The two-factor lock of files and folders: its stream per storage (locks, mailed codes, grants,
 * openings), the locked items' read model and the lock routes. The storage, download, task and share
 * routes ask `openItems`/`openOwnItems` before serving an item.
 */
export const fileLockModule: Module = {
  name: 'file-lock',
  events: fileLockEventDefinitions,
  projections: [fileLocksProjection],
  routes: fileLockRoutes,
};

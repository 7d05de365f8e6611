import { residencyEventDefinitions } from '@axel/domain';
import type { Module } from '../../module';
import { residencyRoutes } from './residency.routes';

/** The account's data residency region (spec §2 settings: region). */
export const residencyModule: Module = {
  name: 'residency',
  events: residencyEventDefinitions,
  routes: residencyRoutes,
};

import { cartEventDefinitions } from '@axel/domain';
import { cartsProjection } from '@axel/projections/carts/carts.projection';
import type { Module } from '../../module';
import { cartRoutes } from './cart.routes';

/** Upload-and-share: carts of uploaded files that become one share. */
export const cartModule: Module = {
  name: 'carts',
  events: cartEventDefinitions,
  projections: [cartsProjection],
  routes: cartRoutes,
};

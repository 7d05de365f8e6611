import type { Module } from '../../module';
import type { PlanOf } from '../accounts/user-info';
import { ssoRoutes } from './sso.routes';

/** Sign-in with OpenID Connect providers (Google, Microsoft), configured by issuer, client id and secret. */
export const createSsoModule = (deps: { readonly planOf: PlanOf }): Module => ({
  name: 'sso',
  routes: (ctx) => ssoRoutes(ctx, deps.planOf),
});

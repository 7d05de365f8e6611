import { accountEventDefinitions } from '@axel/domain';
import { dbsAccessProjection, usersProjection } from '@axel/projections';
import type { Module } from '../../module';
import { accountsRoutes } from './accounts.routes';
import { adminRoutes } from './admin.routes';
import { UnknownAddressGuards } from './unknown-address-guard';
import type { PlanOf } from './user-info';

/** Accounts: registration, sign-in, two-factor, profile, staff administration. The user info shows the plan `planOf` answers. */
export const createAccountsModule = (deps: { readonly planOf: PlanOf }): Module => ({
  name: 'accounts',
  events: accountEventDefinitions,
  projections: [usersProjection, dbsAccessProjection],
  // erased by the users projection on `AccountPurged`, the purge's own event
  personalData: { users: ['email', 'username', 'profile', 'registration_ip', 'registration_user_agent'] },
  routes: (ctx) => async (app) => {
    // one count of failed sign-ins of unknown addresses for the whole app
    await app.register(accountsRoutes(ctx, deps.planOf, new UnknownAddressGuards()));
    await app.register(adminRoutes(ctx, deps.planOf));
  },
  // every session of the purged account ends
  forget: (ctx, userId) => ctx.sessions.forget(userId),
});

import { accountEventDefinitions } from '@axel/domain';
import { usersProjection } from '@axel/projections';
import type { Module } from '../../module';
import { AccountsService } from './accounts.service';
import { accountsRoutes } from './accounts.routes';
import { adminRoutes } from './admin.routes';
import type { PlanOf } from './user-info';

/** Accounts: registration, sign-in, two-factor, profile, staff administration. The user info shows the plan `planOf` answers. */
export const createAccountsModule = (deps: { readonly planOf: PlanOf }): Module => ({
  name: 'accounts',
  events: accountEventDefinitions,
  projections: [usersProjection],
  // erased by the users projection on `AccountPurged`, the purge's own event
  personalData: { users: ['email', 'username', 'profile', 'registration_ip', 'registration_user_agent'] },
  routes: (ctx) => async (app) => {
    const service = new AccountsService(ctx);
    await app.register(accountsRoutes(ctx, service, deps.planOf));
    await app.register(adminRoutes(ctx, service, deps.planOf));
  },
  // every session of the purged account ends
  forget: (ctx, userId) => ctx.sessions.forget(userId),
});

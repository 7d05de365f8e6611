import { accountEventDefinitions } from '@axel/domain';
import { usersProjection } from '@axel/projections';
import type { Module } from '../../app';
import { AccountsService } from './accounts.service';
import { accountsRoutes } from './accounts.routes';
import { adminRoutes } from './admin.routes';

export const accountsModule: Module = {
  events: accountEventDefinitions,
  projections: [usersProjection],
  routes: (ctx) => async (app) => {
    const service = new AccountsService(ctx);
    await app.register(accountsRoutes(ctx, service));
    await app.register(adminRoutes(ctx, service));
  },
};

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import type { PlanOf } from '../accounts/user-info';
import { disconnectApp, loadIntegrations, dropboxAllowed, type IntegrationPorts } from './integrations.service';
import { AppParams, tags, UserParams } from './integrations.schema';

/** The manage-apps page (spec §2): which apps the server offers, which the user may use and has connected; disconnecting. */
export const appsRoutes = (ctx: AppContext, deps: { readonly ports: IntegrationPorts; readonly planOf: PlanOf }) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.get(
    '/api/users/:id/apps',
    { schema: { tags, summary: "The user's apps: offered, allowed, connected", params: UserParams }, config: limit({ perIp: 300 }) },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const state = await loadIntegrations(ctx, user.id);
      return {
        data: [
          {
            app: 'dropbox' as const,
            configured: Boolean(deps.ports.dropbox),
            allowed: await dropboxAllowed(ctx, deps.planOf, user.id),
            connected: Boolean(state.connections.dropbox),
            region: null,
          },
          {
            app: 'clio' as const,
            configured: Boolean(deps.ports.clio),
            allowed: true,
            connected: Boolean(state.connections.clio),
            region: state.connections.clio?.region ?? null,
          },
        ],
      };
    },
  );

  app.delete(
    '/api/users/:id/apps/:app',
    {
      schema: { tags, summary: 'Disconnect an app: its token is revoked at the provider and forgotten here', params: AppParams },
      config: limit({ perIp: 30, perAccount: 20 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await disconnectApp(ctx, deps.ports, user.id, request.params.app, 'user', userActor(request, user.id));
      return { app: request.params.app, connected: false };
    },
  );
};

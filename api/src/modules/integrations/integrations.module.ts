import { integrationEventDefinitions } from '@axel/domain';
import type { AppContext } from '../../context';
import type { Module } from '../../module';
import type { PlanOf } from '../accounts/user-info';
import type { BytePipeline } from '../files/uploads';
import type { CertificateOf } from './clio/clio.filing';
import { clioRoutes } from './clio/clio.routes';
import { dropboxRoutes } from './dropbox/dropbox.routes';
import { forgetIntegrations } from './integrations.forget';
import { appsRoutes } from './integrations.routes';
import { portsFromConfig, type IntegrationPorts } from './integrations.service';
import { integrationMigrations } from './integrations.store';

/**
 * The apps a user connects (spec §2 files/dropbox, manage-apps, /app/clio; §7): Dropbox and Clio,
 * each behind its port, built from the configuration (a provider without it answers 503).
 */
export const createIntegrationsModule = (deps: {
  readonly planOf: PlanOf;
  readonly bytes: (ctx: AppContext) => BytePipeline;
  readonly certificateOf: CertificateOf;
}): Module => {
  let ports: IntegrationPorts | undefined;
  const portsOf = (ctx: AppContext) => (ports ??= portsFromConfig(ctx));
  return {
    name: 'integrations',
    events: integrationEventDefinitions,
    migrations: integrationMigrations,
    routes: (ctx) => async (app) => {
      const p = portsOf(ctx);
      await app.register(appsRoutes(ctx, { ports: p, planOf: deps.planOf }));
      await app.register(dropboxRoutes(ctx, { ports: p, planOf: deps.planOf, bytes: deps.bytes }));
      await app.register(clioRoutes(ctx, { ports: p, bytes: deps.bytes, certificateOf: deps.certificateOf }));
    },
    forget: (ctx, userId, actor) => forgetIntegrations(portsOf(ctx))(ctx, userId, actor),
  };
};

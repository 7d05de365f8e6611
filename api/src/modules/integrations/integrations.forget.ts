import { integrationsStreamName } from '@axel/domain';
import type { AppContext } from '../../context';
import type { ErasureActor } from '../../module';
import { disconnectApp, loadIntegrations, runIntegrationCommand, type IntegrationPorts } from './integrations.service';
import { dropAccessTokens } from './integrations.store';

/**
 * A purged account's connections are ended and forgotten: each token is revoked at its provider
 * (best effort), the cached access tokens are dropped, and the stream's key is destroyed, so the
 * refresh tokens, Dropbox paths and document names read as erased in the log. Repeating it does nothing more.
 */
export const forgetIntegrations = (ports: IntegrationPorts) => async (ctx: AppContext, userId: string, actor: ErasureActor) => {
  if ((await ctx.store.readStream(integrationsStreamName(userId))).revision < 0) {
    await dropAccessTokens(ctx.pool, userId);
    return;
  }
  const state = await loadIntegrations(ctx, userId);
  for (const app of Object.keys(state.connections) as (keyof typeof state.connections)[]) await disconnectApp(ctx, ports, userId, app, 'user', actor);
  await dropAccessTokens(ctx.pool, userId);
  await runIntegrationCommand(ctx, userId, { type: 'ForgetIntegrations', data: {} }, actor);
};

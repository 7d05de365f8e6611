import { createHash, randomBytes } from 'node:crypto';
import {
  DomainError,
  IntegrationErrors,
  integrationsDecider,
  integrationsStreamName,
  type App,
  type ClioRegion,
  type IntegrationCommand,
  type IntegrationsState,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import type { PlanOf } from '../accounts/user-info';
import { ClioHttp } from './clio/clio.http';
import type { ClioPort } from './clio/clio.port';
import { DropboxHttp } from './dropbox/dropbox.http';
import { DropboxRefusedError, type DropboxPort } from './dropbox/dropbox.port';
import { cachedAccessToken, dropAccessTokens, keepAccessToken, teamForbids } from './integrations.store';

/** The providers' adapters, when the server is configured for them (else each call answers 503). */
export interface IntegrationPorts {
  readonly dropbox?: DropboxPort;
  readonly clio?: ClioPort;
}

export const portsFromConfig = (ctx: AppContext): IntegrationPorts => {
  const c = ctx.config;
  return {
    ...(c.DROPBOX_CLIENT_ID
      ? {
          dropbox: new DropboxHttp({
            clientId: c.DROPBOX_CLIENT_ID,
            ...(c.DROPBOX_CLIENT_SECRET ? { clientSecret: c.DROPBOX_CLIENT_SECRET } : {}),
            authorizeUrl: c.DROPBOX_AUTHORIZE_URL,
            apiUrl: c.DROPBOX_API_URL,
            contentUrl: c.DROPBOX_CONTENT_URL,
            now: ctx.now,
          }),
        }
      : {}),
    ...(c.CLIO_CLIENT_ID && c.CLIO_CLIENT_SECRET
      ? { clio: new ClioHttp({ clientId: c.CLIO_CLIENT_ID, clientSecret: c.CLIO_CLIENT_SECRET, ...(c.CLIO_URL ? { baseUrl: c.CLIO_URL } : {}), now: ctx.now }) }
      : {}),
  };
};

export const configured = <P>(port: P | undefined, app: App): P => {
  if (!port) throw new DomainError(IntegrationErrors.notConfigured, { app });
  return port;
};

export const loadIntegrations = async (ctx: AppContext, userId: string): Promise<IntegrationsState> =>
  (await loadState(ctx.commands, integrationsDecider, integrationsStreamName(userId))).state;

export const runIntegrationCommand = async (ctx: AppContext, userId: string, command: Omit<IntegrationCommand, 'metadata'>, actor: CommandContext) => {
  const result = await handleCommand(
    ctx.commands,
    integrationsDecider,
    integrationsStreamName(userId),
    { ...command, metadata: { now: ctx.now() } } as IntegrationCommand,
    actor,
  );
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};

/** Where the provider sends the browser back: the web app's callback page, which posts the code. */
export const redirectUriOf = (ctx: AppContext, app: App) => `${ctx.config.publicUrl}/app/${app}/auth`;

const STATE_TTL_MS = 15 * 60_000;

interface AuthorizationState {
  readonly u: string;
  readonly a: App;
  readonly e: number;
  /** Dropbox: the PKCE verifier; it travels sealed, so only this server can read it back. */
  readonly v?: string;
  readonly r?: ClioRegion;
}

/** The `state` of an authorization round trip: sealed, bound to the user and the app, short-lived. */
export const sealAuthorizationState = (ctx: AppContext, state: Omit<AuthorizationState, 'e'>): string =>
  ctx.secrets.encrypt(JSON.stringify({ ...state, e: ctx.now().getTime() + STATE_TTL_MS }));

export const openAuthorizationState = (ctx: AppContext, sealed: string, userId: string, app: App): AuthorizationState => {
  let state: AuthorizationState | undefined;
  try {
    state = JSON.parse(ctx.secrets.decrypt(sealed)) as AuthorizationState;
  } catch {
    state = undefined;
  }
  if (!state || state.u !== userId || state.a !== app || state.e < ctx.now().getTime())
    throw new DomainError(IntegrationErrors.authorizationRefused, { reason: 'state' });
  return state;
};

export const pkcePair = () => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Whether the app may show for this user (spec §6): the plan permits `dropbox` and no team forbids it to them. */
export const dropboxAllowed = async (ctx: AppContext, planOf: PlanOf, userId: string): Promise<boolean> =>
  (await planOf(ctx, userId)).entitlements.permissions.includes('dropbox') && !(await teamForbids(ctx.pool, userId, 'dropbox'));

/** Refuses a user the app may not show for; losing it revokes the token (spec §4: a forbidden dropbox action disconnects). */
export const assertDropboxAllowed = async (ctx: AppContext, planOf: PlanOf, ports: IntegrationPorts, userId: string, actor: CommandContext) => {
  if (await dropboxAllowed(ctx, planOf, userId)) return;
  const state = await loadIntegrations(ctx, userId);
  if (state.connections.dropbox) await disconnectApp(ctx, ports, userId, 'dropbox', 'not_allowed', actor);
  throw new DomainError(IntegrationErrors.notAllowed, { app: 'dropbox' });
};

const sealedToken = (ctx: AppContext, accessToken: string) => ctx.secrets.encrypt(accessToken);

/** A Dropbox access token of this user, refreshed (and kept) when the cached one is gone or old. */
export const dropboxAccessToken = async (
  ctx: AppContext,
  ports: IntegrationPorts,
  userId: string,
  actor: CommandContext,
  options: { fresh?: boolean } = {},
): Promise<{ accessToken: string; expiresAt: Date }> => {
  const dropbox = configured(ports.dropbox, 'dropbox');
  const state = await loadIntegrations(ctx, userId);
  const connection = state.connections.dropbox;
  if (!connection) throw new DomainError(IntegrationErrors.notConnected, { app: 'dropbox' });
  const cached = options.fresh ? undefined : await cachedAccessToken(ctx.pool, userId, 'dropbox');
  if (cached && cached.expiresAt.getTime() > ctx.now().getTime()) return { accessToken: ctx.secrets.decrypt(cached.sealed), expiresAt: cached.expiresAt };
  try {
    const fresh = await dropbox.refresh(connection.refreshToken);
    await keepAccessToken(ctx.pool, userId, 'dropbox', sealedToken(ctx, fresh.accessToken), fresh.expiresAt);
    return fresh;
  } catch (error) {
    if (!(error instanceof DropboxRefusedError)) throw new DomainError(IntegrationErrors.providerFailed, { app: 'dropbox' });
    // the user revoked the app at Dropbox: the connection is over
    await dropAccessTokens(ctx.pool, userId, 'dropbox');
    await runIntegrationCommand(ctx, userId, { type: 'DisconnectApp', data: { app: 'dropbox', reason: 'refused' } }, actor);
    throw new DomainError(IntegrationErrors.notConnected, { app: 'dropbox' });
  }
};

/** Runs a Dropbox call with the user's token; a token Dropbox no longer takes is refreshed once and the call repeated. */
export const withDropboxToken = async <T>(
  ctx: AppContext,
  ports: IntegrationPorts,
  userId: string,
  actor: CommandContext,
  call: (accessToken: string) => Promise<T & { status: number }>,
): Promise<T & { status: number }> => {
  const first = await call((await dropboxAccessToken(ctx, ports, userId, actor)).accessToken);
  if (first.status !== 401) return first;
  return call((await dropboxAccessToken(ctx, ports, userId, actor, { fresh: true })).accessToken);
};

/**
 * Ends a connection: the token is revoked at the provider (which ends the refresh token too), then
 * forgotten here. A provider that cannot be reached does not keep the account connected here.
 */
export const disconnectApp = async (
  ctx: AppContext,
  ports: IntegrationPorts,
  userId: string,
  app: App,
  reason: 'user' | 'not_allowed',
  actor: CommandContext,
) => {
  const connection = (await loadIntegrations(ctx, userId)).connections[app];
  if (connection) {
    try {
      if (app === 'dropbox' && ports.dropbox) {
        const { accessToken } = await ports.dropbox.refresh(connection.refreshToken);
        await ports.dropbox.revoke(accessToken);
      }
      if (app === 'clio' && ports.clio) {
        const region = connection.region ?? 'app';
        const { accessToken } = await ports.clio.refresh(region, connection.refreshToken);
        await ports.clio.deauthorize(region, accessToken);
      }
    } catch (error) {
      ctx.log.warn({ err: error, component: 'integrations', app }, 'the token could not be revoked at the provider');
    }
  }
  await dropAccessTokens(ctx.pool, userId, app);
  await runIntegrationCommand(ctx, userId, { type: 'DisconnectApp', data: { app, reason } }, actor);
};

/** A Clio access token of this user and the region it lives in, refreshed when the cached one is gone. */
export const clioAccessToken = async (ctx: AppContext, ports: IntegrationPorts, userId: string, actor: CommandContext) => {
  const clio = configured(ports.clio, 'clio');
  const state = await loadIntegrations(ctx, userId);
  const connection = state.connections.clio;
  if (!connection) throw new DomainError(IntegrationErrors.notConnected, { app: 'clio' });
  const region = connection.region ?? 'app';
  const cached = await cachedAccessToken(ctx.pool, userId, 'clio');
  if (cached && cached.expiresAt.getTime() > ctx.now().getTime()) return { accessToken: ctx.secrets.decrypt(cached.sealed), region, clio };
  try {
    const fresh = await clio.refresh(region, connection.refreshToken);
    await keepAccessToken(ctx.pool, userId, 'clio', sealedToken(ctx, fresh.accessToken), fresh.expiresAt);
    if (fresh.refreshToken && fresh.refreshToken !== connection.refreshToken) {
      await runIntegrationCommand(ctx, userId, { type: 'ConnectApp', data: { ...connection, refreshToken: fresh.refreshToken } }, actor);
    }
    return { accessToken: fresh.accessToken, region, clio };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    await dropAccessTokens(ctx.pool, userId, 'clio');
    if ((error as Error).name === 'ClioRefusedError') {
      await runIntegrationCommand(ctx, userId, { type: 'DisconnectApp', data: { app: 'clio', reason: 'refused' } }, actor);
      throw new DomainError(IntegrationErrors.notConnected, { app: 'clio' });
    }
    throw new DomainError(IntegrationErrors.providerFailed, { app: 'clio' });
  }
};

/** A grant the provider gave: its refresh token into the stream, its access token kept sealed for its lifetime. */
export const recordGrant = async (
  ctx: AppContext,
  userId: string,
  grant: { app: App; accountId: string; region: ClioRegion | null; refreshToken: string; accessToken: string; expiresAt: Date },
  actor: CommandContext,
) => {
  await runIntegrationCommand(
    ctx,
    userId,
    { type: 'ConnectApp', data: { app: grant.app, accountId: grant.accountId, region: grant.region, refreshToken: grant.refreshToken } },
    actor,
  );
  await keepAccessToken(ctx.pool, userId, grant.app, sealedToken(ctx, grant.accessToken), grant.expiresAt);
};

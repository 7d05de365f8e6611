import type { SocialProvider } from '@axel/domain';
import * as oauth from 'oauth4webapi';
import type { Config } from '../../config';
import { isLoopbackHost } from '../../http/loopback';

/** The OpenID Connect providers this product signs in with, by the `{type}` of `POST /sso/{type}`. */
export const OIDC_PROVIDERS = ['google', 'microsoft'] as const satisfies readonly SocialProvider[];
export type OidcProviderType = (typeof OIDC_PROVIDERS)[number];

export interface OidcProviderConfig {
  readonly type: OidcProviderType;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The providers whose issuer URL, client id and secret are all set. */
export const configuredProviders = (config: Config): OidcProviderConfig[] => {
  const candidates: [OidcProviderType, string | undefined, string | undefined, string | undefined][] = [
    ['google', config.OIDC_GOOGLE_ISSUER, config.OIDC_GOOGLE_CLIENT_ID, config.OIDC_GOOGLE_CLIENT_SECRET],
    ['microsoft', config.OIDC_MICROSOFT_ISSUER, config.OIDC_MICROSOFT_CLIENT_ID, config.OIDC_MICROSOFT_CLIENT_SECRET],
  ];
  return candidates.flatMap(([type, issuer, clientId, clientSecret]) => (issuer && clientId && clientSecret ? [{ type, issuer, clientId, clientSecret }] : []));
};

/** What a provider vouched for in its ID token. */
export interface OidcIdentity {
  readonly subject: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
}

/** One sign-in round's secrets, kept by the browser (sealed) between the redirect and the callback. */
export interface OidcRound {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export class OidcError extends Error {}

/**
 * The authorization code flow with PKCE and a nonce against a provider found by discovery
 * (`oauth4webapi`): the ID token's signature, issuer, audience, expiry and nonce are checked by the
 * library. Plain HTTP is accepted only for an issuer on loopback (a provider's stand-in in tests).
 */
export class OidcClient {
  private server: Promise<oauth.AuthorizationServer> | undefined;
  private readonly client: oauth.Client;
  private readonly insecure: boolean;

  constructor(readonly provider: OidcProviderConfig) {
    this.client = { client_id: provider.clientId };
    const url = new URL(provider.issuer);
    this.insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  }

  private options() {
    return { [oauth.allowInsecureRequests]: this.insecure, signal: AbortSignal.timeout(10_000) };
  }

  private authorizationServer(): Promise<oauth.AuthorizationServer> {
    this.server ??= (async () => {
      const issuer = new URL(this.provider.issuer);
      const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...this.options() });
      return oauth.processDiscoveryResponse(issuer, response);
    })().catch((error) => {
      this.server = undefined;
      throw new OidcError(`discovery of ${this.provider.issuer} failed: ${(error as Error).message}`);
    });
    return this.server;
  }

  static newRound = async (): Promise<OidcRound & { codeChallenge: string }> => {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    return {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      codeVerifier,
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    };
  };

  async authorizationUrl(redirectUri: string, round: OidcRound & { codeChallenge: string }): Promise<string> {
    const as = await this.authorizationServer();
    if (!as.authorization_endpoint) throw new OidcError('the provider names no authorization endpoint');
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: round.state,
      nonce: round.nonce,
      code_challenge: round.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.href;
  }

  /** Trades the callback's code for the ID token and answers who the provider says signed in. */
  async identify(redirectUri: string, callback: URLSearchParams, round: OidcRound): Promise<OidcIdentity> {
    const as = await this.authorizationServer();
    try {
      const params = oauth.validateAuthResponse(as, this.client, callback, round.state);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        this.client,
        oauth.ClientSecretPost(this.provider.clientSecret),
        params,
        redirectUri,
        round.codeVerifier,
        this.options(),
      );
      const result = await oauth.processAuthorizationCodeResponse(as, this.client, response, { expectedNonce: round.nonce, requireIdToken: true });
      const claims = oauth.getValidatedIdTokenClaims(result);
      if (!claims) throw new OidcError('no ID token');
      const email = typeof claims.email === 'string' ? claims.email : null;
      return { subject: claims.sub, email, emailVerified: claims.email_verified === true || claims.email_verified === 'true' };
    } catch (error) {
      if (error instanceof OidcError) throw error;
      throw new OidcError((error as Error).message);
    }
  }
}

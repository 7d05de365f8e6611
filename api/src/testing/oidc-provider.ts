import { OAuth2Server } from 'oauth2-mock-server';

export interface OidcPerson {
  sub: string;
  email: string;
  email_verified: boolean;
}

/**
 * A single sign-on provider's stand-in: an OpenID Connect provider on loopback that approves every
 * sign-in at once and signs ID tokens for whoever `person` is at that moment.
 */
export const startOidcProvider = async () => {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let person: OidcPerson = { sub: 'nobody', email: 'nobody@example.com', email_verified: true };
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, person);
  });
  return {
    issuer: server.issuer.url!,
    /** Who the provider signs in from now on. */
    signsIn: (next: OidcPerson) => {
      person = next;
    },
    stop: () => server.stop(),
  };
};

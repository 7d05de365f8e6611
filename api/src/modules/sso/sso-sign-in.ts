import { AccountErrors, CommonErrors, DomainError, normalizeEmail, type Locale } from '@axel/domain';
import { newId } from '@axel/platform';
import type { AppContext } from '../../context';
import type { RequestMeta } from '../../http/request-meta';
import { randomToken, sha256 } from '../../secrets';
import type { DeviceCookie } from '../accounts/device-cookie';
import { linkToken } from '../accounts/use-cases/account-mail';
import {
  commandContext,
  hasAccountState,
  releaseEmail,
  reserveEmail,
  runUser,
  userCommand,
  userIdByEmail,
  userState,
} from '../accounts/use-cases/account-store';
import { checkSecondFactor, finishSignIn } from '../accounts/use-cases/sign-in';
import type { OidcIdentity, OidcProviderType } from './oidc';

export type SsoResult =
  | { kind: 'signed_in'; userId: string; token: string; position: number; device: DeviceCookie }
  | { kind: 'two_factor_required'; method: 'email' | 'totp'; userId: string };

/**
 * An account for an address the provider verified: registered without a password (so a password
 * sign-in answers SOCIAL_ACCOUNT) and confirmed at once, the provider having confirmed the address.
 */
const registerSocialAccount = async (ctx: AppContext, type: OidcProviderType, email: string, locale: Locale, meta: RequestMeta): Promise<string> => {
  const userId = newId();
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  await reserveEmail(ctx, email, userId, cc);
  const { tokenHash } = linkToken(userId);
  try {
    await runUser(
      ctx,
      userId,
      userCommand(ctx, 'RegisterUser', {
        userId,
        email: normalizeEmail(email),
        passwordHash: null,
        socialProvider: type,
        locale,
        termsAccepted: true,
        registrationApp: meta.client,
        userAgent: meta.userAgent,
        ip: meta.ip,
        confirmTokenHash: tokenHash,
      }),
      cc,
    );
  } catch (error) {
    await releaseEmail(ctx, email, userId, cc).catch(() => undefined);
    throw error;
  }
  await runUser(ctx, userId, userCommand(ctx, 'ConfirmEmail', { tokenHash }), commandContext(meta, { id: userId, kind: 'user' }));
  return userId;
};

/**
 * Signs in the account the provider vouched for, creating it when the address is new and the
 * person accepted the terms on the way in. A provider that did not verify the address sends the
 * person to sign-up (spec §8: e-mail not verified). The second factor applies as with a password;
 * `code` is that factor on the second call.
 */
export const ssoSignIn = async (
  ctx: AppContext,
  input: { type: OidcProviderType; userId?: string; identity?: OidcIdentity; code?: string; termsAccepted: boolean; locale: Locale },
  meta: RequestMeta,
  deviceCookie: DeviceCookie | null,
): Promise<SsoResult> => {
  let userId = input.userId ?? null;
  if (!userId) {
    const identity = input.identity;
    if (!identity?.email || !identity.emailVerified) {
      throw new DomainError(AccountErrors.emailNotVerified, { email: identity?.email ?? null, signUp: true });
    }
    userId = await userIdByEmail(ctx, identity.email);
    if (!userId) {
      if (!input.termsAccepted) {
        throw new DomainError(CommonErrors.validation, { fields: { termsAccepted: 'validation.terms' }, email: identity.email, signUp: true });
      }
      userId = await registerSocialAccount(ctx, input.type, identity.email, input.locale, meta);
    }
  }
  const state = await userState(ctx, userId);
  if (!hasAccountState(state) || state.status === 'deleted') throw new DomainError(AccountErrors.wrongCredentials);
  const deviceId = deviceCookie?.userId === userId ? deviceCookie.nonce : null;
  const { twoFactorCodeValid, totpStep, emailCode } = await checkSecondFactor(ctx, state, input.code, true);
  const token = randomToken();
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const result = await runUser(
    ctx,
    userId,
    userCommand(ctx, 'SignInWithProvider', {
      provider: input.type,
      twoFactorCodeValid,
      emailCodeHash: emailCode ? sha256(emailCode) : undefined,
      sessionId: sha256(token),
      ip: meta.ip,
      userAgent: meta.userAgent,
      deviceId,
      totpStep,
    }),
    cc,
  );
  return finishSignIn(ctx, { userId, email: state.email, locale: state.locale, token, deviceId, emailCode, cc, meta }, result);
};

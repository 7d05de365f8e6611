import { AccountErrors, CommonErrors, DomainError, normalizeEmail, signInOutcome, type Locale } from '@axel/domain';
import { newId } from '@axel/platform';
import type { AppContext } from '../../context';
import type { RequestMeta } from '../../http/request-meta';
import { randomCode, randomToken, sha256 } from '../../secrets';
import { newDeviceNonce, type DeviceCookie } from '../accounts/device-cookie';
import { verifyTotp } from '../accounts/totp';
import { linkToken, mailUser } from '../accounts/use-cases/account-mail';
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
  let twoFactorCodeValid: boolean | undefined;
  let totpStep: number | undefined;
  let emailCode: string | undefined;
  if (state.twoFactor.enabled && input.code !== undefined) {
    if (state.twoFactor.method === 'totp') {
      const sealed = state.twoFactor.totpSecretCiphertext;
      const step = sealed ? await verifyTotp(ctx.secrets.decrypt(sealed), input.code, ctx.now()) : null;
      twoFactorCodeValid = step !== null;
      totpStep = step ?? undefined;
    } else {
      twoFactorCodeValid = state.twoFactor.emailCodes.sign_in?.codeHash === sha256(input.code);
    }
  } else if (state.twoFactor.enabled && state.twoFactor.method === 'email') {
    emailCode = randomCode();
  }
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
  const outcome = signInOutcome(result.events);
  if (outcome.kind === 'rejected') throw outcome.error;
  if (outcome.kind === 'two_factor_required') {
    if (outcome.method === 'email' && emailCode) await mailUser(ctx, state.email, 'two-factor-code', state.locale, { code: emailCode }, userId, cc);
    return { ...outcome, userId };
  }
  await ctx.sessions.create(userId, { ip: meta.ip, userAgent: meta.userAgent }, token);
  return { kind: 'signed_in', userId, token, position: result.position, device: { userId, nonce: deviceId ?? newDeviceNonce() } };
};

import { AccountErrors, DomainError, normalizeEmail, signInLockedUntil, signInOutcome } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { randomCode, randomToken, sha256 } from '../../../secrets';
import { newDeviceNonce, type DeviceCookie } from '../device-cookie';
import { burnPasswordCheck, verifyPassword } from '../passwords';
import { verifyTotp } from '../totp';
import type { UnknownAddressGuards } from '../unknown-address-guard';
import { mailUser } from './account-mail';
import { commandContext, hasAccountState, runUser, userCommand, userIdByEmail, userState } from './account-store';

type SignInResult =
  | { kind: 'signed_in'; userId: string; token: string; position: number; device: DeviceCookie }
  | { kind: 'two_factor_required'; method: 'email' | 'totp' };

/**
 * Checks the password (and the two-factor code, or mails one) and opens a session. A browser that
 * signed in to the account before (`deviceCookie`) has its own lockout guard, so strangers locking
 * the account do not lock it out.
 */
export const signIn = async (
  ctx: AppContext,
  unknownAddresses: UnknownAddressGuards,
  input: { email: string; password: string; code?: string },
  meta: RequestMeta,
  deviceCookie: DeviceCookie | null = null,
): Promise<SignInResult> => {
  const userId = await userIdByEmail(ctx, input.email);
  const state = userId ? await userState(ctx, userId) : null;
  if (!userId || !state || !hasAccountState(state) || state.status === 'deleted') return refuseUnknownAddress(ctx, unknownAddresses, input);
  const deviceId = deviceCookie?.userId === userId ? deviceCookie.nonce : null;
  // a locked guard answers before any argon2 work, as an unknown address's does
  const lockedUntil = signInLockedUntil(state, ctx.now(), 'password', deviceId);
  if (lockedUntil !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(lockedUntil).toISOString() });
  const passwordValid = await verifyPassword(state.passwordHash, input.password, deviceId ? 'trusted' : 'normal');
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
  } else if (state.twoFactor.enabled && state.twoFactor.method === 'email' && passwordValid) {
    emailCode = randomCode();
  }
  const token = randomToken();
  const sessionId = sha256(token);
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const result = await runUser(
    ctx,
    userId,
    userCommand(ctx, 'SignIn', {
      passwordValid,
      twoFactorCodeValid,
      emailCodeHash: emailCode ? sha256(emailCode) : undefined,
      sessionId,
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
    if (outcome.method === 'email' && emailCode) {
      await mailUser(ctx, state.email, 'two-factor-code', state.locale, { code: emailCode }, userId, cc);
    }
    return outcome;
  }
  await ctx.sessions.create(userId, { ip: meta.ip, userAgent: meta.userAgent }, token);
  return { kind: 'signed_in', userId, token, position: result.position, device: { userId, nonce: deviceId ?? newDeviceNonce() } };
};

/** An address without an account spends a full check and locks like an account (see UnknownAddressGuards). */
const refuseUnknownAddress = async (ctx: AppContext, unknownAddresses: UnknownAddressGuards, input: { email: string; password: string }): Promise<never> => {
  const key = sha256(normalizeEmail(input.email));
  const lockedUntil = unknownAddresses.lockedUntil(key, ctx.now().getTime());
  if (lockedUntil !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(lockedUntil).toISOString() });
  await burnPasswordCheck(input.password);
  const locks = unknownAddresses.fail(key, ctx.now().getTime());
  if (locks !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(locks).toISOString() });
  throw new DomainError(AccountErrors.wrongCredentials);
};

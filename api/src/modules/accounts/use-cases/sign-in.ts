import { AccountErrors, DomainError, normalizeEmail, signInLockedUntil, signInOutcome, type UserWithAccount } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { randomCode, randomToken, sha256 } from '../../../secrets';
import { newDeviceNonce, type DeviceCookie } from '../device-cookie';
import { burnPasswordCheck, verifyPassword } from '../passwords';
import { verifyTotp } from '../totp';
import type { UnknownAddressGuards } from '../unknown-address-guard';
import { mailUser } from './account-mail';
import { commandContext, hasAccountState, runUser, userCommand, userIdByEmail, userState } from './account-store';

type SignedIn = { kind: 'signed_in'; userId: string; token: string; position: number; device: DeviceCookie };
type SignInResult = SignedIn | { kind: 'two_factor_required'; method: 'email' | 'totp' };

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
  const { twoFactorCodeValid, totpStep, emailCode } = await checkSecondFactor(ctx, state, input.code, passwordValid);
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
  const outcome = await finishSignIn(ctx, { userId, email: state.email, locale: state.locale, token, deviceId, emailCode, cc, meta }, result);
  return outcome.kind === 'two_factor_required' ? { kind: outcome.kind, method: outcome.method } : outcome;
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

/**
 * The second factor of a sign-in, whatever proved the first: the code checked when one came, or a
 * code mailed when the account uses e-mail codes and the first factor held (`mayMail`).
 */
export const checkSecondFactor = async (
  ctx: AppContext,
  state: UserWithAccount,
  code: string | undefined,
  mayMail: boolean,
): Promise<{ twoFactorCodeValid?: boolean; totpStep?: number; emailCode?: string }> => {
  if (!state.twoFactor.enabled) return {};
  if (code === undefined) return state.twoFactor.method === 'email' && mayMail ? { emailCode: randomCode() } : {};
  if (state.twoFactor.method === 'totp') {
    const sealed = state.twoFactor.totpSecretCiphertext;
    const step = sealed ? await verifyTotp(ctx.secrets.decrypt(sealed), code, ctx.now()) : null;
    return { twoFactorCodeValid: step !== null, totpStep: step ?? undefined };
  }
  return { twoFactorCodeValid: state.twoFactor.emailCodes.sign_in?.codeHash === sha256(code) };
};

/**
 * What a sign-in's events decided: refused (thrown), a second factor asked (its code mailed when it
 * goes by e-mail), or a session opened under `token` with the browser's device cookie.
 */
export const finishSignIn = async (
  ctx: AppContext,
  s: {
    userId: string;
    email: string;
    locale: string;
    token: string;
    deviceId: string | null;
    emailCode?: string;
    cc: ReturnType<typeof commandContext>;
    meta: RequestMeta;
  },
  result: { events: Parameters<typeof signInOutcome>[0]; position: number },
): Promise<SignedIn | { kind: 'two_factor_required'; method: 'email' | 'totp'; userId: string }> => {
  const outcome = signInOutcome(result.events);
  if (outcome.kind === 'rejected') throw outcome.error;
  if (outcome.kind === 'two_factor_required') {
    if (outcome.method === 'email' && s.emailCode) await mailUser(ctx, s.email, 'two-factor-code', s.locale, { code: s.emailCode }, s.userId, s.cc);
    return { ...outcome, userId: s.userId };
  }
  await ctx.sessions.create(s.userId, { ip: s.meta.ip, userAgent: s.meta.userAgent }, s.token);
  return {
    kind: 'signed_in',
    userId: s.userId,
    token: s.token,
    position: result.position,
    device: { userId: s.userId, nonce: s.deviceId ?? newDeviceNonce() },
  };
};

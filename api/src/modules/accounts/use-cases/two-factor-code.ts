import { AccountErrors, DomainError, type UserWithAccount } from '@axel/domain';
import type { AppContext } from '../../../context';
import { sha256 } from '../../../secrets';
import { verifyTotp } from '../totp';

/** What a code typed in settings proves, for the decider: valid, expired (a mailed code), and the authenticator step it used. */
export const checkTwoFactorCode = async (ctx: AppContext, state: UserWithAccount, method: 'email' | 'totp', purpose: 'enable' | 'disable', code: string) => {
  const now = ctx.now();
  if (method === 'totp') {
    const sealed = purpose === 'enable' ? state.twoFactor.pendingTotpSecretCiphertext : state.twoFactor.totpSecretCiphertext;
    if (!sealed) return { codeValid: false };
    const step = await verifyTotp(ctx.secrets.decrypt(sealed), code, now);
    return step === null ? { codeValid: false } : { codeValid: true, totpStep: step };
  }
  const pending = state.twoFactor.emailCodes[purpose];
  return {
    codeValid: !!pending && pending.codeHash === sha256(code),
    codeExpired: !!pending && now.getTime() >= pending.expiresAt,
  };
};

/**
 * In settings a wrong code is a form error (400), not a failed authentication: a 401 would sign the
 * browser out.
 */
export const wrongCodeIsBadRequest = (error: unknown): never => {
  if (error instanceof DomainError && error.code === AccountErrors.twoFactorIncorrect.code) {
    throw new DomainError({ ...AccountErrors.twoFactorIncorrect, status: 400 });
  }
  throw error;
};

import { DomainError } from '../shared/errors';
import type { EmailCodePurpose } from './accounts.events';
import { AccountErrors } from './accounts.errors';
import { isExistingUser, type ExistingUser, type PendingToken, type UserState } from './accounts.state';

// What the command groups of the user decider share: the command's time, the account it needs, the checks of mailed links and codes.

export const iso = (epochMs: number): string => new Date(epochMs).toISOString();
export const nowOf = (command: { metadata: { now: Date } }): { ms: number; at: string } => ({
  ms: command.metadata.now.getTime(),
  at: command.metadata.now.toISOString(),
});

/** Commands on an account that is gone or never was. */
export const requireExisting = (state: UserState): ExistingUser => {
  if (isExistingUser(state)) return state;
  if (state.status === 'unregistered') throw new DomainError(AccountErrors.userNotFound);
  throw new DomainError(AccountErrors.alreadyDeleted);
};

/** A link is accepted only with the outstanding token's hash and only before it expires. */
export const checkLink = (pending: PendingToken | null, tokenHash: string, now: number): void => {
  if (pending === null || pending.tokenHash !== tokenHash) throw new DomainError(AccountErrors.linkInvalid);
  if (now >= pending.expiresAt) throw new DomainError(AccountErrors.linkExpired);
};

/**
 * Whether a two-factor code counts. The TOTP check is the API's, but a TOTP code counts only once:
 * its time step must be newer than the last one accepted, or a code seen over a shoulder or in a
 * proxy log would work again within its minute. For e-mail codes the decider also needs an
 * outstanding code for the purpose that has not expired, so a stale code never passes.
 */
export const twoFactorCodeAccepted = (
  user: ExistingUser,
  method: 'email' | 'totp',
  purpose: EmailCodePurpose,
  code: { valid: boolean; expired?: boolean | undefined; totpStep?: number | undefined },
  now: number,
): boolean => {
  if (!code.valid || code.expired === true) return false;
  if (method === 'totp') return isNewTotpStep(user.twoFactor.lastTotpStep, code.totpStep);
  const pending = user.twoFactor.emailCodes[purpose];
  return pending !== undefined && now < pending.expiresAt;
};

/** A TOTP step is fresh when no code was accepted yet, or when it is newer than the last accepted. */
export const isNewTotpStep = (lastAccepted: number | null, step: number | undefined): boolean =>
  lastAccepted === null || (step !== undefined && step > lastAccepted);

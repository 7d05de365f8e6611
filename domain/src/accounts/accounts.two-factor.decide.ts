import { DomainError } from '../shared/errors';
import type { DisableTwoFactor, EnableTwoFactor, IssueEmailCode, RequestTwoFactorReset, ResetTwoFactor, StartTotpEnrolment } from './accounts.commands';
import { checkLink, iso, nowOf, requireExisting, twoFactorCodeAccepted } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { UserEvent } from './accounts.events';
import type { UserState } from './accounts.state';
import { TWO_FACTOR_RESET_TTL_MS, VERIFICATION_CODE_TTL_MS } from './accounts.validation';

export const startTotpEnrolment = (command: StartTotpEnrolment, state: UserState): UserEvent[] => {
  requireExisting(state);
  return [{ type: 'TotpEnrolmentStarted', data: { secretCiphertext: command.data.secretCiphertext, at: nowOf(command).at } }];
};

export const issueEmailCode = (command: IssueEmailCode, state: UserState): UserEvent[] => {
  requireExisting(state);
  const { ms } = nowOf(command);
  return [
    {
      type: 'TwoFactorCodeIssued',
      data: {
        purpose: command.data.purpose,
        codeHash: command.data.codeHash,
        expiresAt: iso(ms + VERIFICATION_CODE_TTL_MS),
      },
    },
  ];
};

export const enableTwoFactor = (command: EnableTwoFactor, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { method, codeValid, codeExpired, totpStep } = command.data;
  const { ms, at } = nowOf(command);
  if (method === 'totp' && user.twoFactor.pendingTotpSecretCiphertext === null) {
    throw new DomainError(AccountErrors.twoFactorNotStarted);
  }
  if (!twoFactorCodeAccepted(user, method, 'enable', { valid: codeValid, expired: codeExpired, totpStep }, ms)) {
    throw new DomainError(AccountErrors.twoFactorIncorrect);
  }
  return [{ type: 'TwoFactorEnabled', data: { method, at, ...(method === 'totp' && totpStep !== undefined ? { totpStep } : {}) } }];
};

export const disableTwoFactor = (command: DisableTwoFactor, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { enabled, method } = user.twoFactor;
  if (!enabled || method === null) return [];
  const { ms, at } = nowOf(command);
  const code = { valid: command.data.codeValid, expired: command.data.codeExpired, totpStep: command.data.totpStep };
  if (!twoFactorCodeAccepted(user, method, 'disable', code, ms)) throw new DomainError(AccountErrors.twoFactorIncorrect);
  return [{ type: 'TwoFactorDisabled', data: { via: 'settings', at } }];
};

export const requestTwoFactorReset = (command: RequestTwoFactorReset, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (!command.data.passwordValid) throw new DomainError(AccountErrors.wrongPassword);
  if (!user.twoFactor.enabled) return [];
  const { ms } = nowOf(command);
  return [
    {
      type: 'TwoFactorResetRequested',
      data: { tokenHash: command.data.tokenHash, expiresAt: iso(ms + TWO_FACTOR_RESET_TTL_MS) },
    },
  ];
};

export const resetTwoFactor = (command: ResetTwoFactor, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { ms, at } = nowOf(command);
  checkLink(user.twoFactor.resetToken, command.data.tokenHash, ms);
  return [{ type: 'TwoFactorDisabled', data: { via: 'reset', at } }];
};

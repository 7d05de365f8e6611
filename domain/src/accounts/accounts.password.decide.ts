import { DomainError } from '../shared/errors';
import type { ChangePassword, RequestPasswordReset, ResetPassword } from './accounts.commands';
import { checkLink, iso, nowOf, requireExisting } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { UserEvent } from './accounts.events';
import type { UserState } from './accounts.state';
import { PASSWORD_RESET_TTL_MS } from './accounts.validation';
import { lockedUntilAt, scopeOfGuardKey } from './sign-in-guard';

export const requestPasswordReset = (command: RequestPasswordReset, state: UserState): UserEvent[] => {
  if (state.status === 'deleted' || state.status === 'purged') return [];
  requireExisting(state);
  const { ms } = nowOf(command);
  return [
    {
      type: 'PasswordResetRequested',
      data: { tokenHash: command.data.tokenHash, expiresAt: iso(ms + PASSWORD_RESET_TTL_MS) },
    },
  ];
};

export const resetPassword = (command: ResetPassword, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { ms, at } = nowOf(command);
  checkLink(user.passwordReset, command.data.tokenHash, ms);
  const events: UserEvent[] = [{ type: 'PasswordChanged', data: { passwordHash: command.data.passwordHash, via: 'reset', at } }];
  // The reset proved control of the mailbox: whoever locked the password step, it opens again.
  // The two-factor step stays locked: a mailbox is not the second factor.
  const passwordGuardsInUse = Object.entries(user.signInGuards).some(
    ([key, guard]) => scopeOfGuardKey(key) === 'password' && (lockedUntilAt(guard, ms) !== null || guard.failures.length > 0),
  );
  if (passwordGuardsInUse) events.push({ type: 'UserUnlocked', data: { via: 'password_reset', at } });
  return events;
};

export const changePassword = (command: ChangePassword, state: UserState): UserEvent[] => {
  requireExisting(state);
  const d = command.data;
  if (!d.currentPasswordValid) throw new DomainError(AccountErrors.wrongPassword);
  if (d.sameAsCurrent) throw new DomainError(AccountErrors.passwordSameAsCurrent);
  return [{ type: 'PasswordChanged', data: { passwordHash: d.newPasswordHash, via: 'settings', at: nowOf(command).at } }];
};

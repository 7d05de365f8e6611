import { CommonErrors, DomainError } from '../shared/errors';
import type { ConfirmEmail, RegisterUser, ResendConfirmation } from './accounts.commands';
import { checkLink, iso, nowOf, requireExisting } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { AuthMethod, UserEvent } from './accounts.events';
import { normalizeEmail } from './accounts.reservations.decide';
import type { UserState } from './accounts.state';
import { EMAIL_CONFIRMATION_TTL_MS } from './accounts.validation';

export const registerUser = (command: RegisterUser, state: UserState): UserEvent[] => {
  if (state.status !== 'unregistered') {
    if (state.status === 'deleted' || state.status === 'purged') throw new DomainError(AccountErrors.alreadyDeleted);
    throw new DomainError(CommonErrors.conflict, undefined, 'This account already exists');
  }
  const d = command.data;
  const { ms, at } = nowOf(command);
  const byStaff = d.createdByStaffId != null;
  if (!d.termsAccepted && !byStaff) {
    throw new DomainError(CommonErrors.validation, { fields: { termsAccepted: 'validation.terms' } });
  }
  const authMethods: AuthMethod[] = [];
  if (d.passwordHash !== null) authMethods.push('password');
  if (d.socialProvider) authMethods.push(d.socialProvider);
  if (authMethods.length === 0) {
    throw new DomainError(CommonErrors.validation, { fields: { password: 'validation.required' } });
  }
  if (!byStaff && !d.confirmTokenHash) {
    throw new Error('RegisterUser needs confirmTokenHash unless staff creates the account');
  }
  const email = normalizeEmail(d.email);
  const events: UserEvent[] = [
    {
      type: 'UserRegistered',
      data: {
        userId: d.userId,
        email,
        passwordHash: d.passwordHash,
        authMethods,
        role: d.role ?? 'user',
        locale: d.locale,
        termsAccepted: d.termsAccepted,
        emailVerified: byStaff,
        registrationApp: d.registrationApp,
        userAgent: d.userAgent,
        ip: d.ip,
        createdByStaffId: d.createdByStaffId ?? null,
        registeredAt: at,
      },
    },
  ];
  if (!byStaff && d.confirmTokenHash) {
    events.push({
      type: 'EmailConfirmationRequested',
      data: { email, tokenHash: d.confirmTokenHash, expiresAt: iso(ms + EMAIL_CONFIRMATION_TTL_MS) },
    });
  }
  return events;
};

export const resendConfirmation = (command: ResendConfirmation, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (user.emailVerified) throw new DomainError(AccountErrors.emailAlreadyConfirmed);
  const { ms } = nowOf(command);
  return [
    {
      type: 'EmailConfirmationRequested',
      data: { email: user.email, tokenHash: command.data.tokenHash, expiresAt: iso(ms + EMAIL_CONFIRMATION_TTL_MS) },
    },
  ];
};

export const confirmEmail = (command: ConfirmEmail, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { ms, at } = nowOf(command);
  checkLink(user.emailConfirmation, command.data.tokenHash, ms);
  return [{ type: 'EmailConfirmed', data: { email: user.email, at } }];
};

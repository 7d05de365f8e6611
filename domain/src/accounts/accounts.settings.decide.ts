import { DomainError } from '../shared/errors';
import type { AcceptTerms, ChangeAccountSettings, ConfirmEmailChange, RequestEmailChange, SetAvatar, UpdateProfile } from './accounts.commands';
import { checkLink, iso, nowOf, requireExisting } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { AccountSettingsChanged, ProfileUpdated, UserEvent } from './accounts.events';
import { normalizeEmail } from './accounts.reservations.decide';
import type { UserState } from './accounts.state';
import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES, EMAIL_CHANGE_TTL_MS, PROFILE_FIELDS, type Profile } from './accounts.validation';

export const requestEmailChange = (command: RequestEmailChange, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const newEmail = normalizeEmail(command.data.newEmail);
  if (newEmail === user.email) throw new DomainError(AccountErrors.emailSameAsCurrent);
  if (!command.data.passwordValid) throw new DomainError(AccountErrors.wrongPassword);
  const { ms } = nowOf(command);
  return [
    {
      type: 'EmailChangeRequested',
      data: { newEmail, tokenHash: command.data.tokenHash, expiresAt: iso(ms + EMAIL_CHANGE_TTL_MS) },
    },
  ];
};

export const confirmEmailChange = (command: ConfirmEmailChange, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const { ms, at } = nowOf(command);
  checkLink(user.emailChange, command.data.tokenHash, ms);
  const newEmail = user.emailChange?.newEmail ?? user.email;
  return [{ type: 'EmailChanged', data: { oldEmail: user.email, newEmail, at } }];
};

export const updateProfile = (command: UpdateProfile, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const changes: ProfileUpdated['data']['changes'] = {};
  for (const field of PROFILE_FIELDS) {
    const value: Profile[keyof Profile] | undefined = command.data[field];
    if (value !== undefined && value !== user.profile[field]) changes[field] = value;
  }
  return Object.keys(changes).length === 0 ? [] : [{ type: 'ProfileUpdated', data: { changes } }];
};

export const changeAccountSettings = (command: ChangeAccountSettings, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const d = command.data;
  const changes: AccountSettingsChanged['data'] = {};
  if (d.username !== undefined && d.username !== user.username) {
    changes.username = d.username;
    changes.previousUsername = user.username;
  }
  if (d.sessionTimeout !== undefined && d.sessionTimeout !== user.sessionTimeout) changes.sessionTimeout = d.sessionTimeout;
  if (d.locale !== undefined && d.locale !== user.locale) changes.locale = d.locale;
  return Object.keys(changes).length === 0 ? [] : [{ type: 'AccountSettingsChanged', data: changes }];
};

export const setAvatar = (command: SetAvatar, state: UserState): UserEvent[] => {
  requireExisting(state);
  const { avatarId, mime, size } = command.data;
  if (size === 0 || !(AVATAR_MIME_TYPES as readonly string[]).includes(mime)) {
    throw new DomainError(AccountErrors.avatarInvalid);
  }
  if (size > AVATAR_MAX_BYTES) throw new DomainError(AccountErrors.avatarTooLarge, { maxBytes: AVATAR_MAX_BYTES });
  return [{ type: 'AvatarChanged', data: { avatarId, mime, size } }];
};

export const acceptTerms = (command: AcceptTerms, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.termsAccepted ? [] : [{ type: 'TermsAccepted', data: { at: nowOf(command).at } }];
};

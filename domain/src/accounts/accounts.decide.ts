import { assertNever, type Decider } from '../shared/decider';
import type { UserCommand } from './accounts.commands';
import { acceptTerms, changeAccountSettings, confirmEmailChange, requestEmailChange, setAvatar, updateProfile } from './accounts.settings.decide';
import { deleteAccount, purgeAccount } from './accounts.deletion.decide';
import type { UserEvent } from './accounts.events';
import { changePassword, requestPasswordReset, resetPassword } from './accounts.password.decide';
import { confirmEmail, registerUser, resendConfirmation } from './accounts.registration.decide';
import { signIn, signInWithProvider } from './accounts.sign-in.decide';
import { activateDbsAccess, blockUser, cancelDbsAccess, changeRole, suspendUser, unblockUser, unsuspendUser } from './accounts.staff.decide';
import { evolveUser, initialUserState, type UserState } from './accounts.state';
import { disableTwoFactor, enableTwoFactor, issueEmailCode, requestTwoFactorReset, resetTwoFactor, startTotpEnrolment } from './accounts.two-factor.decide';

// The user decider's commands, one file per group; the reservations have deciders of their own.
export * from './accounts.registration.decide';
export * from './accounts.sign-in.decide';
export * from './accounts.password.decide';
export * from './accounts.settings.decide';
export * from './accounts.two-factor.decide';
export * from './accounts.staff.decide';
export * from './accounts.deletion.decide';
export * from './accounts.reservations.decide';
export * from './mailed-links';
export { isNewTotpStep } from './accounts.decide.common';

/** Stream of one user: `user-<id>`. */
export const userStreamName = (userId: string): string => `user-${userId}`;

export const decideUser = (command: UserCommand, state: UserState): UserEvent[] => {
  switch (command.type) {
    case 'RegisterUser':
      return registerUser(command, state);
    case 'ResendConfirmation':
      return resendConfirmation(command, state);
    case 'ConfirmEmail':
      return confirmEmail(command, state);
    case 'SignIn':
      return signIn(command, state);
    case 'SignInWithProvider':
      return signInWithProvider(command, state);
    case 'RequestPasswordReset':
      return requestPasswordReset(command, state);
    case 'ResetPassword':
      return resetPassword(command, state);
    case 'ChangePassword':
      return changePassword(command, state);
    case 'RequestEmailChange':
      return requestEmailChange(command, state);
    case 'ConfirmEmailChange':
      return confirmEmailChange(command, state);
    case 'UpdateProfile':
      return updateProfile(command, state);
    case 'ChangeAccountSettings':
      return changeAccountSettings(command, state);
    case 'SetAvatar':
      return setAvatar(command, state);
    case 'AcceptTerms':
      return acceptTerms(command, state);
    case 'StartTotpEnrolment':
      return startTotpEnrolment(command, state);
    case 'IssueEmailCode':
      return issueEmailCode(command, state);
    case 'EnableTwoFactor':
      return enableTwoFactor(command, state);
    case 'DisableTwoFactor':
      return disableTwoFactor(command, state);
    case 'RequestTwoFactorReset':
      return requestTwoFactorReset(command, state);
    case 'ResetTwoFactor':
      return resetTwoFactor(command, state);
    case 'SuspendUser':
      return suspendUser(command, state);
    case 'UnsuspendUser':
      return unsuspendUser(command, state);
    case 'BlockUser':
      return blockUser(command, state);
    case 'UnblockUser':
      return unblockUser(command, state);
    case 'ChangeRole':
      return changeRole(command, state);
    case 'ActivateDbsAccess':
      return activateDbsAccess(command, state);
    case 'CancelDbsAccess':
      return cancelDbsAccess(command, state);
    case 'DeleteAccount':
      return deleteAccount(command, state);
    case 'PurgeAccount':
      return purgeAccount(command, state);
    default:
      return assertNever(command);
  }
};

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};

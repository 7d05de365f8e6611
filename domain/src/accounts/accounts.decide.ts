import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import type {
  AcceptTerms,
  BlockUser,
  ChangeAccountSettings,
  ChangePassword,
  ChangeRole,
  ConfirmEmail,
  ConfirmEmailChange,
  DeleteAccount,
  DisableTwoFactor,
  EmailReservationCommand,
  EnableTwoFactor,
  IssueEmailCode,
  PurgeAccount,
  RegisterUser,
  RequestEmailChange,
  RequestPasswordReset,
  RequestTwoFactorReset,
  ResendConfirmation,
  ResetPassword,
  ResetTwoFactor,
  SetAvatar,
  SignIn,
  StartTotpEnrolment,
  SuspendUser,
  UnblockUser,
  UnsuspendUser,
  UpdateProfile,
  UserCommand,
  UsernameReservationCommand,
} from './accounts.commands';
import { AccountErrors } from './accounts.errors';
import type {
  AccountSettingsChanged,
  AuthMethod,
  EmailCodePurpose,
  EmailReservationEvent,
  ProfileUpdated,
  UserEvent,
  UsernameReservationEvent,
} from './accounts.events';
import {
  evolveEmailReservation,
  evolveUser,
  evolveUsernameReservation,
  initialReservationState,
  initialUserState,
  isBlocked,
  isExistingUser,
  signInLockedUntil,
  type ExistingUser,
  type PendingToken,
  type ReservationState,
  type UserState,
} from './accounts.state';
import { countFailure, guardKey, lockedUntilAt, scopeOfGuardKey, type SignInScope } from './sign-in-guard';
import {
  AVATAR_MAX_BYTES,
  AVATAR_MIME_TYPES,
  EMAIL_CHANGE_TTL_MS,
  EMAIL_CONFIRMATION_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  PROFILE_FIELDS,
  TWO_FACTOR_RESET_TTL_MS,
  VERIFICATION_CODE_TTL_MS,
  type Profile,
} from './accounts.validation';

/** The typed confirmation an account deletion needs. */
export const DELETE_CONFIRMATION = 'YES';

/** Stream of one user: `user-<id>`. */
export const userStreamName = (userId: string): string => `user-${userId}`;
/** The form of an address that uniqueness is decided on; hash this for the reservation stream. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
/**
 * Stream reserving one address: `email-<keyed hash of normalizeEmail(email)>`. Stream names stay in
 * the log for ever, so they never hold a personal value, nor a hash anyone could reverse by guessing.
 */
export const emailReservationStreamName = (emailKeyedHash: string): string => `email-${emailKeyedHash}`;
/** Stream reserving one username: `username-<keyed hash of the username>`. */
export const usernameReservationStreamName = (usernameKeyedHash: string): string => `username-${usernameKeyedHash}`;

const iso = (epochMs: number): string => new Date(epochMs).toISOString();
const nowOf = (command: { metadata: { now: Date } }): { ms: number; at: string } => ({
  ms: command.metadata.now.getTime(),
  at: command.metadata.now.toISOString(),
});

/** Commands on an account that is gone or never was. */
const requireExisting = (state: UserState): ExistingUser => {
  if (isExistingUser(state)) return state;
  if (state.status === 'unregistered') throw new DomainError(AccountErrors.userNotFound);
  throw new DomainError(AccountErrors.alreadyDeleted);
};

/** A link is accepted only with the outstanding token's hash and only before it expires. */
const checkLink = (pending: PendingToken | null, tokenHash: string, now: number): void => {
  if (pending === null || pending.tokenHash !== tokenHash) throw new DomainError(AccountErrors.linkInvalid);
  if (now >= pending.expiresAt) throw new DomainError(AccountErrors.linkExpired);
};

export type MailedLink = 'password-reset' | 'two-factor-reset' | 'email-change' | 'email-confirmation';

/**
 * Whether a mailed link can still be used, without using it: throws the error the link's own
 * command would (LINK_INVALID, LINK_EXPIRED, or the account's absence), so a page can say so
 * before the user types anything.
 */
export const checkMailedLink = (state: UserState, link: MailedLink, tokenHash: string, now: Date): void => {
  const user = requireExisting(state);
  const pending =
    link === 'password-reset'
      ? user.passwordReset
      : link === 'two-factor-reset'
        ? user.twoFactor.resetToken
        : link === 'email-change'
          ? user.emailChange
          : user.emailConfirmation;
  checkLink(pending, tokenHash, now.getTime());
};

/**
 * Whether a two-factor code counts. The TOTP check is the API's, but a TOTP code counts only once:
 * its time step must be newer than the last one accepted, or a code seen over a shoulder or in a
 * proxy log would work again within its minute. For e-mail codes the decider also needs an
 * outstanding code for the purpose that has not expired, so a stale code never passes.
 */
const twoFactorCodeAccepted = (
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

// ---- one function per command -----------------------------------------------------------------

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

/** The failure counts against its own guard: its scope, and the trusted device if there is one. */
const failSignIn = (user: ExistingUser, command: SignIn, reason: SignInScope): UserEvent[] => {
  const { ms, at } = nowOf(command);
  const deviceId = command.data.deviceId ?? null;
  const counted = countFailure(user.signInGuards[guardKey(reason, deviceId)], ms);
  const failedAttempts = counted.failedAttempts;
  const device = deviceId === null ? {} : { deviceId };
  const events: UserEvent[] = [
    { type: 'SignInFailed', data: { reason, failedAttempts, ip: command.data.ip, userAgent: command.data.userAgent, at, ...device } },
  ];
  if (counted.lockedUntil !== null) {
    events.push({ type: 'UserLocked', data: { until: iso(counted.lockedUntil), failedAttempts, at, scope: reason, ...device } });
  }
  return events;
};

const refuseWhileLocked = (user: ExistingUser, scope: SignInScope, command: SignIn): void => {
  const until = signInLockedUntil(user, command.metadata.now, scope, command.data.deviceId ?? null);
  if (until !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: iso(until) });
};

/**
 * A wrong password or code is recorded rather than thrown, so that it counts toward the lockout;
 * `signInOutcome` turns the resulting events into the answer. Each browser is judged by its own
 * guards: a trusted device (`deviceId`) by its own, every other browser by the shared ones.
 */
export const signIn = (command: SignIn, state: UserState): UserEvent[] => {
  if (!isExistingUser(state)) throw new DomainError(AccountErrors.wrongCredentials);
  const user = state;
  const d = command.data;
  const { ms, at } = nowOf(command);
  if (user.passwordHash === null) throw new DomainError(AccountErrors.socialAccount);
  refuseWhileLocked(user, 'password', command);
  if (!d.passwordValid) return failSignIn(user, command, 'password');
  if (!user.emailVerified) throw new DomainError(AccountErrors.emailNotVerified);
  if (user.status === 'suspended') throw new DomainError(AccountErrors.userSuspended);
  if (isBlocked(user, command.metadata.now)) {
    const until = user.block?.until ?? null;
    throw new DomainError(AccountErrors.userBlocked, { blockedUntil: until === null ? null : iso(until) });
  }
  const { enabled, method } = user.twoFactor;
  if (enabled && method !== null) {
    // only someone who knows the password learns that the code step is locked
    refuseWhileLocked(user, 'two_factor', command);
    if (d.twoFactorCodeValid === undefined) {
      if (method === 'totp') {
        return [{ type: 'TwoFactorChallengeIssued', data: { method, codeHash: null, expiresAt: null, at } }];
      }
      if (!d.emailCodeHash) throw new Error('SignIn needs emailCodeHash to challenge the e-mail method');
      return [
        {
          type: 'TwoFactorChallengeIssued',
          data: { method, codeHash: d.emailCodeHash, expiresAt: iso(ms + VERIFICATION_CODE_TTL_MS), at },
        },
      ];
    }
    if (!twoFactorCodeAccepted(user, method, 'sign_in', { valid: d.twoFactorCodeValid, totpStep: d.totpStep }, ms)) {
      return failSignIn(user, command, 'two_factor');
    }
  }
  const usedTotp = enabled && method === 'totp' && d.totpStep !== undefined;
  return [
    {
      type: 'SignInSucceeded',
      data: {
        sessionId: d.sessionId,
        ip: d.ip,
        userAgent: d.userAgent,
        at,
        ...(d.deviceId ? { deviceId: d.deviceId } : {}),
        ...(usedTotp ? { totpStep: d.totpStep } : {}),
      },
    },
  ];
};

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

export const suspendUser = (command: SuspendUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (user.status === 'suspended') return [];
  return [{ type: 'UserSuspended', data: { reason: command.data.reason ?? null, at: nowOf(command).at } }];
};

export const unsuspendUser = (command: UnsuspendUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.status === 'suspended' ? [{ type: 'UserUnsuspended', data: { at: nowOf(command).at } }] : [];
};

export const blockUser = (command: BlockUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const until = command.data.until === null ? null : command.data.until.getTime();
  if (user.block !== null && user.block.until === until) return [];
  return [{ type: 'UserBlocked', data: { until: until === null ? null : iso(until), at: nowOf(command).at } }];
};

export const unblockUser = (command: UnblockUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.block === null ? [] : [{ type: 'UserUnblocked', data: { at: nowOf(command).at } }];
};

export const changeRole = (command: ChangeRole, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (user.role === command.data.role) return [];
  return [{ type: 'RoleChanged', data: { from: user.role, to: command.data.role, at: nowOf(command).at } }];
};

export const deleteAccount = (command: DeleteAccount, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const d = command.data;
  if (d.by === 'user') {
    if (d.confirmation !== DELETE_CONFIRMATION) throw new DomainError(AccountErrors.confirmationRequired);
    if (!d.passwordValid) throw new DomainError(AccountErrors.wrongPassword);
  }
  const deleterId = d.by === 'staff' ? d.staffId : user.id;
  return [{ type: 'AccountDeleted', data: { by: d.by, deleterId, email: user.email, at: nowOf(command).at } }];
};

export const purgeAccount = (command: PurgeAccount, state: UserState): UserEvent[] => {
  if (state.status === 'purged') return [];
  if (state.status === 'unregistered') throw new DomainError(AccountErrors.userNotFound);
  if (state.status !== 'deleted') {
    throw new DomainError(CommonErrors.conflict, undefined, 'Only a deleted account can be purged');
  }
  return [{ type: 'AccountPurged', data: { at: nowOf(command).at } }];
};

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

// ---- what the API answers to a sign-in ----------------------------------------------------------

export type SignInOutcome =
  | { readonly kind: 'signed_in'; readonly sessionId: string }
  | { readonly kind: 'two_factor_required'; readonly method: 'email' | 'totp' }
  /** The attempt was recorded; answer with `error` (WRONG_CREDENTIALS, TWO_FACTOR_INCORRECT, USER_LOCKED). */
  | { readonly kind: 'rejected'; readonly error: DomainError };

/** Reads the answer to a sign-in from the events `signIn` returned. */
export const signInOutcome = (events: readonly UserEvent[]): SignInOutcome => {
  const locked = events.find((e) => e.type === 'UserLocked');
  if (locked) return { kind: 'rejected', error: new DomainError(AccountErrors.userLocked, { lockedUntil: locked.data.until }) };
  for (const event of events) {
    switch (event.type) {
      case 'SignInFailed':
        return {
          kind: 'rejected',
          error: new DomainError(event.data.reason === 'password' ? AccountErrors.wrongCredentials : AccountErrors.twoFactorIncorrect),
        };
      case 'TwoFactorChallengeIssued':
        return { kind: 'two_factor_required', method: event.data.method };
      case 'SignInSucceeded':
        return { kind: 'signed_in', sessionId: event.data.sessionId };
      default:
        break;
    }
  }
  throw new Error('These events are not the result of a sign-in');
};

/** True when the account exists and has been deleted (or purged): the retention process acts on these. */
export const isDeleted = (state: UserState): boolean => state.status === 'deleted' || state.status === 'purged';

// ---- reservations ---------------------------------------------------------------------------

/**
 * How long a reservation is protected even when its holder has no account yet: a sign-up (or an
 * e-mail change) reserves the address first and records the account right after, so a younger
 * reservation may simply be one still in flight.
 */
export const ABANDONED_RESERVATION_AFTER_MS = 2 * 60_000;

/**
 * A reservation left behind by a crash between the reservation and the account's own event would
 * block its address for ever. The next sign-up takes it over instead, here in the reservation
 * stream: the release of the abandoned holder and the new reservation are one append at the
 * stream's expected revision, so of two racing sign-ups only one can win; the other reloads, sees
 * a fresh reservation by someone else and gets EMAIL_EXISTS.
 */
const abandoned = (state: Extract<ReservationState, { status: 'held' }>, abandonedHolderId: string | undefined, now: Date): boolean =>
  abandonedHolderId === state.userId && (state.since == null || now.getTime() - state.since >= ABANDONED_RESERVATION_AFTER_MS);

export const decideEmailReservation = (command: EmailReservationCommand, state: ReservationState): EmailReservationEvent[] => {
  const { userId } = command.data;
  switch (command.type) {
    case 'ReserveEmail': {
      const reserved: EmailReservationEvent = { type: 'EmailReserved', data: { userId, at: command.metadata.now.toISOString() } };
      if (state.status === 'held') {
        if (state.userId === userId) return [];
        if (!abandoned(state, command.data.abandonedHolderId, command.metadata.now)) throw new DomainError(AccountErrors.emailExists);
        return [{ type: 'EmailReleased', data: { userId: state.userId } }, reserved];
      }
      return [reserved];
    }
    case 'ReleaseEmail':
      return state.status === 'held' && state.userId === userId ? [{ type: 'EmailReleased', data: { userId } }] : [];
    default:
      return assertNever(command);
  }
};

export const decideUsernameReservation = (command: UsernameReservationCommand, state: ReservationState): UsernameReservationEvent[] => {
  const { userId } = command.data;
  switch (command.type) {
    case 'ReserveUsername':
      if (state.status === 'held') {
        if (state.userId === userId) return [];
        throw new DomainError(AccountErrors.usernameTaken);
      }
      return [{ type: 'UsernameReserved', data: { userId } }];
    case 'ReleaseUsername':
      return state.status === 'held' && state.userId === userId ? [{ type: 'UsernameReleased', data: { userId } }] : [];
    default:
      return assertNever(command);
  }
};

export const emailReservationDecider: Decider<EmailReservationCommand, EmailReservationEvent, ReservationState> = {
  decide: decideEmailReservation,
  evolve: evolveEmailReservation,
  initialState: initialReservationState,
};

export const usernameReservationDecider: Decider<UsernameReservationCommand, UsernameReservationEvent, ReservationState> = {
  decide: decideUsernameReservation,
  evolve: evolveUsernameReservation,
  initialState: initialReservationState,
};

import type { EmailReservationEvent, AuthMethod, EmailCodePurpose, UserEvent, UsernameReservationEvent } from './accounts.events';
import {
  DEFAULT_SESSION_TIMEOUT,
  PROFILE_FIELDS,
  type Locale,
  type Profile,
  type Role,
  type SessionTimeout,
  type TwoFactorMethod,
} from './accounts.validation';
import { countFailure, guardKey, lockedUntilAt, pruneGuards, scopeOfGuardKey, type SignInGuard, type SignInScope } from './sign-in-guard';

/** The statuses of the specification; `suspended` is set and lifted by staff. */
export type UserStatus = 'abandoned' | 'unpaid' | 'active' | 'suspended' | 'inactive';
export type UnsuspendedStatus = Exclude<UserStatus, 'suspended'>;

/** A mailed link or code, kept only as a hash; times are epoch milliseconds. */
export interface PendingToken {
  readonly tokenHash: string;
  readonly expiresAt: number;
}
export interface PendingEmailChange extends PendingToken {
  readonly newEmail: string;
}
export interface PendingCode {
  readonly codeHash: string;
  readonly expiresAt: number;
}

export interface TwoFactorState {
  readonly enabled: boolean;
  readonly method: TwoFactorMethod | null;
  readonly totpSecretCiphertext: string | null;
  /** A TOTP secret shown to the user but not yet confirmed with a code. */
  readonly pendingTotpSecretCiphertext: string | null;
  readonly emailCodes: Readonly<Partial<Record<EmailCodePurpose, PendingCode>>>;
  readonly resetToken: PendingToken | null;
  /** The TOTP time step of the last code accepted: a code of that step or an older one is a replay. */
  readonly lastTotpStep: number | null;
}

export interface Avatar {
  readonly avatarId: string;
  readonly mime: string;
  readonly size: number;
}

export interface UserAccount {
  readonly id: string;
  /** The one active e-mail address. A requested change lives in `emailChange` until confirmed. */
  readonly email: string;
  readonly emailVerified: boolean;
  readonly passwordHash: string | null;
  readonly authMethods: readonly AuthMethod[];
  readonly role: Role;
  readonly locale: Locale;
  readonly termsAccepted: boolean;
  readonly username: string | null;
  readonly sessionTimeout: SessionTimeout;
  readonly profile: Profile;
  readonly avatar: Avatar | null;
  readonly registeredAt: number;
  readonly createdByStaffId: string | null;
  readonly emailConfirmation: PendingToken | null;
  readonly passwordReset: PendingToken | null;
  readonly emailChange: PendingEmailChange | null;
  readonly twoFactor: TwoFactorState;
  /** Lockout counters by `guardKey(scope, device)`; idle ones are dropped. */
  readonly signInGuards: Readonly<Record<string, SignInGuard>>;
  /** null: not blocked; `{ until: null }`: blocked until lifted. */
  readonly block: { readonly until: number | null } | null;
  readonly lastSignInAt: number | null;
  /** The database-as-a-service offer (`hasDbsAccess`), set by staff. */
  readonly dbsAccess: boolean;
}

export type UnregisteredUser = { readonly status: 'unregistered' };
export type LiveUser = UserAccount & { readonly status: UnsuspendedStatus };
export type SuspendedUser = UserAccount & {
  readonly status: 'suspended';
  readonly statusBeforeSuspension: UnsuspendedStatus;
  readonly suspensionReason: string | null;
};
export type DeletedUser = UserAccount & {
  readonly status: 'deleted';
  readonly deletedAt: number;
  readonly deletedBy: 'user' | 'staff' | 'non_payment';
  readonly deleterId: string;
};
/** What is left once personal data was removed. */
export type PurgedUser = {
  readonly status: 'purged';
  readonly id: string;
  readonly deletedAt: number;
  readonly purgedAt: number;
};

export type UserState = UnregisteredUser | LiveUser | SuspendedUser | DeletedUser | PurgedUser;
/** A registered account that was not deleted: the one commands act on. */
export type ExistingUser = LiveUser | SuspendedUser;
export type UserWithAccount = ExistingUser | DeletedUser;

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export const hasAccount = (state: UserState): state is UserWithAccount => state.status !== 'unregistered' && state.status !== 'purged';

export const isExistingUser = (state: UserState): state is ExistingUser => hasAccount(state) && state.status !== 'deleted';

/** The account's one active e-mail address, or null when there is no live account. */
export const activeEmail = (state: UserState): string | null => (isExistingUser(state) ? state.email : null);

/** The end of the running lock of one guard (untrusted browsers when `deviceId` is null), else null. */
export const signInLockedUntil = (state: UserState, now: Date, scope: SignInScope = 'password', deviceId: string | null = null): number | null =>
  hasAccount(state) ? lockedUntilAt(state.signInGuards[guardKey(scope, deviceId)], now.getTime()) : null;

/** Whether sign-in with a password is locked for browsers that hold no device cookie of the account. */
export const isLocked = (state: UserState, now: Date, deviceId: string | null = null): boolean => signInLockedUntil(state, now, 'password', deviceId) !== null;

export const isBlocked = (state: UserState, now: Date): boolean =>
  hasAccount(state) && state.block !== null && (state.block.until === null || state.block.until > now.getTime());

/** The outstanding e-mail code for a purpose, for the API to compare the submitted code against. */
export const pendingEmailCode = (state: UserState, purpose: EmailCodePurpose): PendingCode | null =>
  (hasAccount(state) && state.twoFactor.emailCodes[purpose]) || null;

export const emptyProfile = (): Profile => Object.fromEntries(PROFILE_FIELDS.map((field) => [field, null])) as unknown as Profile;

const emptyTwoFactor: TwoFactorState = {
  enabled: false,
  method: null,
  totpSecretCiphertext: null,
  pendingTotpSecretCiphertext: null,
  emailCodes: {},
  resetToken: null,
  lastTotpStep: null,
};

const ms = (iso: string): number => Date.parse(iso);

const withoutCode = (codes: TwoFactorState['emailCodes'], purpose: EmailCodePurpose): TwoFactorState['emailCodes'] => {
  const { [purpose]: _removed, ...rest } = codes;
  return rest;
};

/** Applies a change to an account that still exists (live, suspended or deleted). */
const patch = (state: UserState, change: (user: UserWithAccount) => Partial<UserAccount>): UserState =>
  hasAccount(state) ? { ...state, ...change(state) } : state;

const patchTwoFactor = (state: UserState, change: (twoFactor: TwoFactorState) => Partial<TwoFactorState>): UserState =>
  patch(state, (user) => ({ twoFactor: { ...user.twoFactor, ...change(user.twoFactor) } }));

export const evolveUser = (state: UserState, event: UserEvent): UserState => {
  switch (event.type) {
    case 'UserRegistered': {
      if (state.status !== 'unregistered') return state;
      const d = event.data;
      return {
        status: d.emailVerified ? 'active' : 'inactive',
        id: d.userId,
        email: d.email,
        emailVerified: d.emailVerified,
        passwordHash: d.passwordHash,
        authMethods: d.authMethods,
        role: d.role,
        locale: d.locale,
        termsAccepted: d.termsAccepted,
        username: null,
        sessionTimeout: DEFAULT_SESSION_TIMEOUT,
        profile: emptyProfile(),
        avatar: null,
        registeredAt: ms(d.registeredAt),
        createdByStaffId: d.createdByStaffId,
        emailConfirmation: null,
        passwordReset: null,
        emailChange: null,
        twoFactor: emptyTwoFactor,
        signInGuards: {},
        block: null,
        lastSignInAt: null,
        dbsAccess: false,
      };
    }
    case 'EmailConfirmationRequested':
      return patch(state, () => ({
        emailConfirmation: { tokenHash: event.data.tokenHash, expiresAt: ms(event.data.expiresAt) },
      }));
    case 'EmailConfirmed':
      return markVerified(state);
    case 'SignInFailed': {
      const at = ms(event.data.at);
      const key = guardKey(event.data.reason, event.data.deviceId);
      return patch(state, (user) => ({
        signInGuards: { ...pruneGuards(user.signInGuards, at), [key]: countFailure(user.signInGuards[key], at).guard },
      }));
    }
    case 'UserLocked': {
      const key = guardKey(event.data.scope ?? 'password', event.data.deviceId);
      return patch(state, (user) => ({
        signInGuards: { ...pruneGuards(user.signInGuards, ms(event.data.at)), [key]: { failures: [], lockedUntil: ms(event.data.until) } },
      }));
    }
    case 'UserUnlocked':
      return patch(state, (user) => ({
        signInGuards: Object.fromEntries(Object.entries(user.signInGuards).filter(([key]) => scopeOfGuardKey(key) !== 'password')),
      }));
    case 'TwoFactorChallengeIssued': {
      const { codeHash, expiresAt } = event.data;
      if (codeHash === null || expiresAt === null) return state;
      return patchTwoFactor(state, (tf) => ({
        emailCodes: { ...tf.emailCodes, sign_in: { codeHash, expiresAt: ms(expiresAt) } },
      }));
    }
    case 'SignInSucceeded': {
      // a success ends the run of failures of the browser it came from, and of no other
      const device = event.data.deviceId ?? null;
      const signedIn = patch(state, (user) => ({
        signInGuards: withoutFailures(user.signInGuards, [guardKey('password', device), guardKey('two_factor', device)]),
        lastSignInAt: ms(event.data.at),
      }));
      const { totpStep } = event.data;
      return patchTwoFactor(signedIn, (tf) => ({
        emailCodes: withoutCode(tf.emailCodes, 'sign_in'),
        lastTotpStep: totpStep ?? tf.lastTotpStep,
      }));
    }
    case 'PasswordResetRequested':
      return patch(state, () => ({
        passwordReset: { tokenHash: event.data.tokenHash, expiresAt: ms(event.data.expiresAt) },
      }));
    case 'PasswordChanged':
      return patch(state, (user) => ({
        passwordHash: event.data.passwordHash,
        authMethods: user.authMethods.includes('password') ? user.authMethods : ['password', ...user.authMethods],
        // A new password makes every outstanding reset link useless.
        passwordReset: null,
      }));
    case 'EmailChangeRequested':
      return patch(state, () => ({
        emailChange: {
          newEmail: event.data.newEmail,
          tokenHash: event.data.tokenHash,
          expiresAt: ms(event.data.expiresAt),
        },
      }));
    case 'EmailChanged':
      // Confirming the link proves the new address, so it is verified from now on.
      return markVerified(patch(state, () => ({ email: event.data.newEmail, emailChange: null })));
    case 'ProfileUpdated':
      return patch(state, (user) => ({ profile: { ...user.profile, ...event.data.changes } }));
    case 'AccountSettingsChanged': {
      const { username, sessionTimeout, locale } = event.data;
      return patch(state, (user) => ({
        username: username ?? user.username,
        sessionTimeout: sessionTimeout ?? user.sessionTimeout,
        locale: locale ?? user.locale,
      }));
    }
    case 'AvatarChanged':
      return patch(state, () => ({ avatar: { ...event.data } }));
    case 'TermsAccepted':
      return patch(state, () => ({ termsAccepted: true }));
    case 'TotpEnrolmentStarted':
      return patchTwoFactor(state, () => ({ pendingTotpSecretCiphertext: event.data.secretCiphertext }));
    case 'TwoFactorCodeIssued':
      return patchTwoFactor(state, (tf) => ({
        emailCodes: {
          ...tf.emailCodes,
          [event.data.purpose]: { codeHash: event.data.codeHash, expiresAt: ms(event.data.expiresAt) },
        },
      }));
    case 'TwoFactorEnabled':
      return patchTwoFactor(state, (tf) => ({
        enabled: true,
        method: event.data.method,
        totpSecretCiphertext: event.data.method === 'totp' ? tf.pendingTotpSecretCiphertext : null,
        pendingTotpSecretCiphertext: null,
        emailCodes: {},
        resetToken: null,
        lastTotpStep: event.data.totpStep ?? null,
      }));
    case 'TwoFactorDisabled':
      return patchTwoFactor(state, () => emptyTwoFactor);
    case 'TwoFactorResetRequested':
      return patchTwoFactor(state, () => ({
        resetToken: { tokenHash: event.data.tokenHash, expiresAt: ms(event.data.expiresAt) },
      }));
    case 'UserSuspended':
      if (state.status === 'unregistered' || state.status === 'purged' || state.status === 'deleted') return state;
      if (state.status === 'suspended') return state;
      return { ...state, status: 'suspended', statusBeforeSuspension: state.status, suspensionReason: event.data.reason };
    case 'UserUnsuspended': {
      if (state.status !== 'suspended') return state;
      const { statusBeforeSuspension, suspensionReason: _reason, ...account } = state;
      return { ...account, status: statusBeforeSuspension };
    }
    case 'UserBlocked':
      return patch(state, () => ({ block: { until: event.data.until === null ? null : ms(event.data.until) } }));
    case 'UserUnblocked':
      return patch(state, () => ({ block: null }));
    case 'RoleChanged':
      return patch(state, () => ({ role: event.data.to }));
    case 'DbsAccessActivated':
      return patch(state, () => ({ dbsAccess: true }));
    case 'DbsAccessCancelled':
      return patch(state, () => ({ dbsAccess: false }));
    case 'AccountDeleted': {
      if (!isExistingUser(state)) return state;
      const account = accountOf(state);
      return {
        ...account,
        status: 'deleted',
        deletedAt: ms(event.data.at),
        deletedBy: event.data.by,
        deleterId: event.data.deleterId,
      };
    }
    case 'AccountPurged':
      if (state.status !== 'deleted') return state;
      return { status: 'purged', id: state.id, deletedAt: state.deletedAt, purgedAt: ms(event.data.at) };
    default:
      return state;
  }
};

const withoutFailures = (guards: Readonly<Record<string, SignInGuard>>, keys: readonly string[]): Readonly<Record<string, SignInGuard>> => {
  const next = { ...guards };
  for (const key of keys) {
    const guard = next[key];
    if (!guard) continue;
    if (guard.lockedUntil === null) delete next[key];
    else next[key] = { failures: [], lockedUntil: guard.lockedUntil };
  }
  return next;
};

/** The account fields alone, without what the status variant adds. */
const accountOf = (state: ExistingUser): UserAccount => {
  if (state.status === 'suspended') {
    const { status: _s, statusBeforeSuspension: _b, suspensionReason: _r, ...account } = state;
    return account;
  }
  const { status: _s, ...account } = state;
  return account;
};

/** A verified address activates an account that was waiting for it, even behind a suspension. */
const markVerified = (state: UserState): UserState => {
  if (!hasAccount(state)) return state;
  const verified = { ...state, emailVerified: true, emailConfirmation: null };
  if (verified.status === 'inactive' && !state.emailVerified) return { ...verified, status: 'active' };
  if (verified.status === 'suspended' && verified.statusBeforeSuspension === 'inactive' && !state.emailVerified) {
    return { ...verified, statusBeforeSuspension: 'active' };
  }
  return verified;
};

// ---- reservations ---------------------------------------------------------------------------

export type ReservationState =
  | { readonly status: 'free' }
  /** `since`: epoch ms of the reservation, null when it predates the time being recorded. */
  | { readonly status: 'held'; readonly userId: string; readonly since?: number | null };

export const initialReservationState = (): ReservationState => ({ status: 'free' });

export const evolveEmailReservation = (state: ReservationState, event: EmailReservationEvent): ReservationState => {
  switch (event.type) {
    case 'EmailReserved':
      return { status: 'held', userId: event.data.userId, since: event.data.at ? Date.parse(event.data.at) : null };
    case 'EmailReleased':
      return { status: 'free' };
    default:
      return state;
  }
};

export const evolveUsernameReservation = (state: ReservationState, event: UsernameReservationEvent): ReservationState => {
  switch (event.type) {
    case 'UsernameReserved':
      return { status: 'held', userId: event.data.userId };
    case 'UsernameReleased':
      return { status: 'free' };
    default:
      return state;
  }
};

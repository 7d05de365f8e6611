import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventDefinition, type EventOf } from '../shared/events';
import { LOCALES, PROFILE_FIELDS, ROLES, SESSION_TIMEOUTS, TWO_FACTOR_METHODS, type Profile } from './accounts.validation';

/** Ways an account can sign in: a password, or a social provider. */
export const SOCIAL_PROVIDERS = ['google', 'apple', 'facebook', 'microsoft'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
export const AUTH_METHODS = ['password', ...SOCIAL_PROVIDERS] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const EMAIL_CODE_PURPOSES = ['enable', 'disable', 'sign_in'] as const;
export type EmailCodePurpose = (typeof EMAIL_CODE_PURPOSES)[number];

const timestamp = z.iso.datetime();
const hash = z.string().min(1);
const roleSchema = z.enum(ROLES);
const localeSchema = z.enum(LOCALES);
const sessionTimeoutSchema = z.literal(SESSION_TIMEOUTS);
const twoFactorMethodSchema = z.enum(TWO_FACTOR_METHODS);

/*
 * Stored event schemas are deliberately lenient about form rules (those belong to the API's input
 * schemas): data that was valid when it was written must still decode after a rule tightens.
 */
const profileChangesSchema = z.partialRecord(z.enum(PROFILE_FIELDS as [keyof Profile, ...(keyof Profile)[]]), z.string().nullable());

// ---- user-<id> ------------------------------------------------------------------------------

export const UserRegistered = defineEvent(
  'UserRegistered',
  z.object({
    userId: z.string().min(1),
    email: z.string().min(1),
    /** null for accounts that only sign in through a social provider. */
    passwordHash: hash.nullable(),
    authMethods: z.array(z.enum(AUTH_METHODS)).min(1),
    role: roleSchema,
    locale: localeSchema,
    termsAccepted: z.boolean(),
    emailVerified: z.boolean(),
    registrationApp: z.string().nullable(),
    userAgent: z.string().nullable(),
    ip: z.string().nullable(),
    createdByStaffId: z.string().nullable(),
    registeredAt: timestamp,
  }),
  { personal: ['email', 'passwordHash', 'userAgent', 'ip'] },
);
export type UserRegistered = EventOf<typeof UserRegistered>;

export const EmailConfirmationRequested = defineEvent(
  'EmailConfirmationRequested',
  z.object({ email: z.string().min(1), tokenHash: hash, expiresAt: timestamp }),
  { personal: ['email'] },
);
export type EmailConfirmationRequested = EventOf<typeof EmailConfirmationRequested>;

export const EmailConfirmed = defineEvent('EmailConfirmed', z.object({ email: z.string().min(1), at: timestamp }), { personal: ['email'] });
export type EmailConfirmed = EventOf<typeof EmailConfirmed>;

export const SignInFailed = defineEvent(
  'SignInFailed',
  z.object({
    reason: z.enum(['password', 'two_factor']),
    /** Failed attempts in a row within the lockout window, this one included. */
    failedAttempts: z.number().int().positive(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    at: timestamp,
    /** The trusted device (device cookie) the attempt came from; absent or null: an untrusted browser. */
    deviceId: z.string().min(1).nullable().optional(),
  }),
  { personal: ['ip', 'userAgent', 'deviceId'] },
);
export type SignInFailed = EventOf<typeof SignInFailed>;

export const UserLocked = defineEvent(
  'UserLocked',
  z.object({
    until: timestamp,
    failedAttempts: z.number().int().positive(),
    at: timestamp,
    /** Which failures locked: wrong passwords (the default) or wrong two-factor codes. */
    scope: z.enum(['password', 'two_factor']).optional(),
    /** Set when only this trusted device is locked; absent or null: untrusted browsers are. */
    deviceId: z.string().min(1).nullable().optional(),
  }),
  { personal: ['deviceId'] },
);
export type UserLocked = EventOf<typeof UserLocked>;

/** A completed password reset proved control of the mailbox: the password locks are lifted. */
export const UserUnlocked = defineEvent('UserUnlocked', z.object({ via: z.enum(['password_reset']), at: timestamp }));
export type UserUnlocked = EventOf<typeof UserUnlocked>;

export const TwoFactorChallengeIssued = defineEvent(
  'TwoFactorChallengeIssued',
  z.object({
    method: twoFactorMethodSchema,
    /** Set for the e-mail method: the hash of the code just mailed, and when it stops working. */
    codeHash: hash.nullable(),
    expiresAt: timestamp.nullable(),
    at: timestamp,
  }),
);
export type TwoFactorChallengeIssued = EventOf<typeof TwoFactorChallengeIssued>;

export const SignInSucceeded = defineEvent(
  'SignInSucceeded',
  z.object({
    sessionId: z.string().min(1),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    at: timestamp,
    /** The trusted device (device cookie) that signed in, if the browser held one. */
    deviceId: z.string().min(1).nullable().optional(),
    /** The TOTP time step of the code accepted, so the same code is never accepted again. */
    totpStep: z.number().int().nonnegative().optional(),
  }),
  { personal: ['ip', 'userAgent', 'deviceId'] },
);
export type SignInSucceeded = EventOf<typeof SignInSucceeded>;

export const PasswordResetRequested = defineEvent('PasswordResetRequested', z.object({ tokenHash: hash, expiresAt: timestamp }));
export type PasswordResetRequested = EventOf<typeof PasswordResetRequested>;

export const PasswordChanged = defineEvent('PasswordChanged', z.object({ passwordHash: hash, via: z.enum(['reset', 'settings']), at: timestamp }), {
  personal: ['passwordHash'],
});
export type PasswordChanged = EventOf<typeof PasswordChanged>;

export const EmailChangeRequested = defineEvent('EmailChangeRequested', z.object({ newEmail: z.string().min(1), tokenHash: hash, expiresAt: timestamp }), {
  personal: ['newEmail'],
});
export type EmailChangeRequested = EventOf<typeof EmailChangeRequested>;

export const EmailChanged = defineEvent('EmailChanged', z.object({ oldEmail: z.string().min(1), newEmail: z.string().min(1), at: timestamp }), {
  personal: ['oldEmail', 'newEmail'],
});
export type EmailChanged = EventOf<typeof EmailChanged>;

export const ProfileUpdated = defineEvent('ProfileUpdated', z.object({ changes: profileChangesSchema }), { personal: ['changes'] });
export type ProfileUpdated = EventOf<typeof ProfileUpdated>;

export const AccountSettingsChanged = defineEvent(
  'AccountSettingsChanged',
  z.object({
    username: z.string().min(1).optional(),
    /** The username given up by this change, so its reservation can be released. */
    previousUsername: z.string().nullable().optional(),
    sessionTimeout: sessionTimeoutSchema.optional(),
    locale: localeSchema.optional(),
  }),
  { personal: ['username', 'previousUsername'] },
);
export type AccountSettingsChanged = EventOf<typeof AccountSettingsChanged>;

export const AvatarChanged = defineEvent(
  'AvatarChanged',
  z.object({ avatarId: z.string().min(1), mime: z.string().min(1), size: z.number().int().nonnegative() }),
);
export type AvatarChanged = EventOf<typeof AvatarChanged>;

export const TermsAccepted = defineEvent('TermsAccepted', z.object({ at: timestamp }));
export type TermsAccepted = EventOf<typeof TermsAccepted>;

export const TotpEnrolmentStarted = defineEvent('TotpEnrolmentStarted', z.object({ secretCiphertext: z.string().min(1), at: timestamp }), {
  personal: ['secretCiphertext'],
});
export type TotpEnrolmentStarted = EventOf<typeof TotpEnrolmentStarted>;

export const TwoFactorCodeIssued = defineEvent('TwoFactorCodeIssued', z.object({ purpose: z.enum(EMAIL_CODE_PURPOSES), codeHash: hash, expiresAt: timestamp }));
export type TwoFactorCodeIssued = EventOf<typeof TwoFactorCodeIssued>;

export const TwoFactorEnabled = defineEvent(
  'TwoFactorEnabled',
  z.object({
    method: twoFactorMethodSchema,
    at: timestamp,
    /** The TOTP time step of the confirming code: a later code must be of a newer step. */
    totpStep: z.number().int().nonnegative().optional(),
  }),
);
export type TwoFactorEnabled = EventOf<typeof TwoFactorEnabled>;

export const TwoFactorDisabled = defineEvent('TwoFactorDisabled', z.object({ via: z.enum(['settings', 'reset']), at: timestamp }));
export type TwoFactorDisabled = EventOf<typeof TwoFactorDisabled>;

export const TwoFactorResetRequested = defineEvent('TwoFactorResetRequested', z.object({ tokenHash: hash, expiresAt: timestamp }));
export type TwoFactorResetRequested = EventOf<typeof TwoFactorResetRequested>;

export const UserSuspended = defineEvent('UserSuspended', z.object({ reason: z.string().nullable(), at: timestamp }), { personal: ['reason'] });
export type UserSuspended = EventOf<typeof UserSuspended>;

export const UserUnsuspended = defineEvent('UserUnsuspended', z.object({ at: timestamp }));
export type UserUnsuspended = EventOf<typeof UserUnsuspended>;

export const UserBlocked = defineEvent('UserBlocked', z.object({ until: timestamp.nullable(), at: timestamp }));
export type UserBlocked = EventOf<typeof UserBlocked>;

export const UserUnblocked = defineEvent('UserUnblocked', z.object({ at: timestamp }));
export type UserUnblocked = EventOf<typeof UserUnblocked>;

/** Staff gave the account the database-as-a-service offer (`ddbaas`), or took it back. */
export const DbsAccessActivated = defineEvent('DbsAccessActivated', z.object({ at: timestamp }));
export type DbsAccessActivated = EventOf<typeof DbsAccessActivated>;

export const DbsAccessCancelled = defineEvent('DbsAccessCancelled', z.object({ at: timestamp }));
export type DbsAccessCancelled = EventOf<typeof DbsAccessCancelled>;

export const RoleChanged = defineEvent('RoleChanged', z.object({ from: roleSchema, to: roleSchema, at: timestamp }));
export type RoleChanged = EventOf<typeof RoleChanged>;

export const AccountDeleted = defineEvent(
  'AccountDeleted',
  z.object({
    by: z.enum(['user', 'staff', 'non_payment']),
    deleterId: z.string().min(1),
    email: z.string().min(1),
    at: timestamp,
  }),
  { personal: ['email'] },
);
export type AccountDeleted = EventOf<typeof AccountDeleted>;

/** The account's personal data is forgotten: its key is destroyed, its personal fields read as erased. */
export const AccountPurged = defineEvent('AccountPurged', z.object({ at: timestamp }), { erases: erasesOwnStream });
export type AccountPurged = EventOf<typeof AccountPurged>;

export type UserEvent =
  | UserRegistered
  | EmailConfirmationRequested
  | EmailConfirmed
  | SignInFailed
  | UserLocked
  | UserUnlocked
  | TwoFactorChallengeIssued
  | SignInSucceeded
  | PasswordResetRequested
  | PasswordChanged
  | EmailChangeRequested
  | EmailChanged
  | ProfileUpdated
  | AccountSettingsChanged
  | AvatarChanged
  | TermsAccepted
  | TotpEnrolmentStarted
  | TwoFactorCodeIssued
  | TwoFactorEnabled
  | TwoFactorDisabled
  | TwoFactorResetRequested
  | UserSuspended
  | UserUnsuspended
  | UserBlocked
  | UserUnblocked
  | DbsAccessActivated
  | DbsAccessCancelled
  | RoleChanged
  | AccountDeleted
  | AccountPurged;

export const userEventDefinitions = [
  UserRegistered,
  EmailConfirmationRequested,
  EmailConfirmed,
  SignInFailed,
  UserLocked,
  UserUnlocked,
  TwoFactorChallengeIssued,
  SignInSucceeded,
  PasswordResetRequested,
  PasswordChanged,
  EmailChangeRequested,
  EmailChanged,
  ProfileUpdated,
  AccountSettingsChanged,
  AvatarChanged,
  TermsAccepted,
  TotpEnrolmentStarted,
  TwoFactorCodeIssued,
  TwoFactorEnabled,
  TwoFactorDisabled,
  TwoFactorResetRequested,
  UserSuspended,
  UserUnsuspended,
  UserBlocked,
  UserUnblocked,
  DbsAccessActivated,
  DbsAccessCancelled,
  RoleChanged,
  AccountDeleted,
  AccountPurged,
] as const satisfies readonly EventDefinition[];

// ---- email-<sha256> and username-<name>: uniqueness reservations ---------------------------

const reservation = z.object({ userId: z.string().min(1) });

/**
 * `at` is when the address was reserved (absent on reservations recorded before it was kept); a
 * reservation whose holder never became an account can be taken over once it is old enough.
 */
export const EmailReserved = defineEvent('EmailReserved', reservation.extend({ at: z.iso.datetime().optional() }));
export type EmailReserved = EventOf<typeof EmailReserved>;
export const EmailReleased = defineEvent('EmailReleased', reservation);
export type EmailReleased = EventOf<typeof EmailReleased>;
export type EmailReservationEvent = EmailReserved | EmailReleased;

export const UsernameReserved = defineEvent('UsernameReserved', reservation);
export type UsernameReserved = EventOf<typeof UsernameReserved>;
export const UsernameReleased = defineEvent('UsernameReleased', reservation);
export type UsernameReleased = EventOf<typeof UsernameReleased>;
export type UsernameReservationEvent = UsernameReserved | UsernameReleased;

export const reservationEventDefinitions = [EmailReserved, EmailReleased, UsernameReserved, UsernameReleased] as const satisfies readonly EventDefinition[];

/** Every event of the accounts context, for `EventRegistry.register(...accountEventDefinitions)`. */
export const accountEventDefinitions: readonly EventDefinition[] = [...userEventDefinitions, ...reservationEventDefinitions];

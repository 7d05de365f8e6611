import { z } from 'zod';
import type { Command } from '../shared/decider';
import { EMAIL_CODE_PURPOSES, SOCIAL_PROVIDERS } from './accounts.events';
import { LOCALES, ROLES, SESSION_TIMEOUTS, TWO_FACTOR_METHODS, profileSchema } from './accounts.validation';

/*
 * Commands carry facts the API established outside the pure core: password hashes, hashes of
 * random tokens and codes, and the results of argon2/TOTP checks. Expiry times are not passed in:
 * the decider derives them from `metadata.now` and the context's TTL constants.
 */

interface CommandDefinition<T extends string, S extends z.ZodType> {
  readonly type: T;
  readonly data: S;
}
const defineCommand = <T extends string, S extends z.ZodType>(type: T, data: S): CommandDefinition<T, S> => ({
  type,
  data,
});
type CommandOf<D extends CommandDefinition<string, z.ZodType>> = Command<D['type'], z.infer<D['data']>>;

const hash = z.string().min(1);
const nullableText = z.string().nullable();

// ---- user-<id> ------------------------------------------------------------------------------

export const RegisterUser = defineCommand(
  'RegisterUser',
  z.object({
    userId: z.string().min(1),
    email: z.string().min(1),
    /** null when the account signs in only through `socialProvider`. */
    passwordHash: hash.nullable(),
    socialProvider: z.enum(SOCIAL_PROVIDERS).nullable().optional(),
    locale: z.enum(LOCALES),
    /** Must be true, except for accounts created by staff (they accept on first sign-in). */
    termsAccepted: z.boolean(),
    registrationApp: nullableText,
    userAgent: nullableText,
    ip: nullableText,
    role: z.enum(ROLES).optional(),
    createdByStaffId: z.string().min(1).nullable().optional(),
    /** Required unless staff creates the account (staff-created accounts start confirmed). */
    confirmTokenHash: hash.nullable().optional(),
  }),
);
export type RegisterUser = CommandOf<typeof RegisterUser>;

export const ResendConfirmation = defineCommand('ResendConfirmation', z.object({ tokenHash: hash }));
export type ResendConfirmation = CommandOf<typeof ResendConfirmation>;

export const ConfirmEmail = defineCommand('ConfirmEmail', z.object({ tokenHash: hash }));
export type ConfirmEmail = CommandOf<typeof ConfirmEmail>;

export const SignIn = defineCommand(
  'SignIn',
  z.object({
    passwordValid: z.boolean(),
    /** Absent when the form carried no code; otherwise whether the API found the code right. */
    twoFactorCodeValid: z.boolean().optional(),
    /** Hash of a freshly generated e-mail code: used when a challenge for the e-mail method is due. */
    emailCodeHash: hash.optional(),
    sessionId: z.string().min(1),
    ip: nullableText,
    userAgent: nullableText,
    /** The nonce of a device cookie the API verified as this account's; absent: an untrusted browser. */
    deviceId: z.string().min(1).nullable().optional(),
    /** The TOTP time step the API matched the code to, when it found a TOTP code right. */
    totpStep: z.number().int().nonnegative().optional(),
  }),
);
export type SignIn = CommandOf<typeof SignIn>;

/**
 * A sign-in an OpenID Connect provider vouched for: the API checked the provider's ID token (and
 * that the provider verified the address); the second factor still applies, as with a password.
 */
export const SignInWithProvider = defineCommand(
  'SignInWithProvider',
  z.object({
    provider: z.enum(SOCIAL_PROVIDERS),
    twoFactorCodeValid: z.boolean().optional(),
    emailCodeHash: hash.optional(),
    sessionId: z.string().min(1),
    ip: nullableText,
    userAgent: nullableText,
    deviceId: z.string().min(1).nullable().optional(),
    totpStep: z.number().int().nonnegative().optional(),
  }),
);
export type SignInWithProvider = CommandOf<typeof SignInWithProvider>;

export const RequestPasswordReset = defineCommand('RequestPasswordReset', z.object({ tokenHash: hash }));
export type RequestPasswordReset = CommandOf<typeof RequestPasswordReset>;

export const ResetPassword = defineCommand('ResetPassword', z.object({ tokenHash: hash, passwordHash: hash }));
export type ResetPassword = CommandOf<typeof ResetPassword>;

export const ChangePassword = defineCommand(
  'ChangePassword',
  z.object({ currentPasswordValid: z.boolean(), newPasswordHash: hash, sameAsCurrent: z.boolean() }),
);
export type ChangePassword = CommandOf<typeof ChangePassword>;

export const RequestEmailChange = defineCommand('RequestEmailChange', z.object({ newEmail: z.string().min(1), passwordValid: z.boolean(), tokenHash: hash }));
export type RequestEmailChange = CommandOf<typeof RequestEmailChange>;

export const ConfirmEmailChange = defineCommand('ConfirmEmailChange', z.object({ tokenHash: hash }));
export type ConfirmEmailChange = CommandOf<typeof ConfirmEmailChange>;

export const UpdateProfile = defineCommand('UpdateProfile', profileSchema.partial());
export type UpdateProfile = CommandOf<typeof UpdateProfile>;

export const ChangeAccountSettings = defineCommand(
  'ChangeAccountSettings',
  z.object({
    username: z.string().min(1).optional(),
    sessionTimeout: z.literal(SESSION_TIMEOUTS).optional(),
    locale: z.enum(LOCALES).optional(),
  }),
);
export type ChangeAccountSettings = CommandOf<typeof ChangeAccountSettings>;

export const SetAvatar = defineCommand('SetAvatar', z.object({ avatarId: z.string().min(1), mime: z.string(), size: z.number().int().nonnegative() }));
export type SetAvatar = CommandOf<typeof SetAvatar>;

export const AcceptTerms = defineCommand('AcceptTerms', z.object({}));
export type AcceptTerms = CommandOf<typeof AcceptTerms>;

export const StartTotpEnrolment = defineCommand('StartTotpEnrolment', z.object({ secretCiphertext: z.string().min(1) }));
export type StartTotpEnrolment = CommandOf<typeof StartTotpEnrolment>;

export const IssueEmailCode = defineCommand('IssueEmailCode', z.object({ codeHash: hash, purpose: z.enum(EMAIL_CODE_PURPOSES) }));
export type IssueEmailCode = CommandOf<typeof IssueEmailCode>;

export const EnableTwoFactor = defineCommand(
  'EnableTwoFactor',
  z.object({
    method: z.enum(TWO_FACTOR_METHODS),
    codeValid: z.boolean(),
    codeExpired: z.boolean().optional(),
    totpStep: z.number().int().nonnegative().optional(),
  }),
);
export type EnableTwoFactor = CommandOf<typeof EnableTwoFactor>;

export const DisableTwoFactor = defineCommand(
  'DisableTwoFactor',
  z.object({ codeValid: z.boolean(), codeExpired: z.boolean().optional(), totpStep: z.number().int().nonnegative().optional() }),
);
export type DisableTwoFactor = CommandOf<typeof DisableTwoFactor>;

export const RequestTwoFactorReset = defineCommand('RequestTwoFactorReset', z.object({ tokenHash: hash, passwordValid: z.boolean() }));
export type RequestTwoFactorReset = CommandOf<typeof RequestTwoFactorReset>;

export const ResetTwoFactor = defineCommand('ResetTwoFactor', z.object({ tokenHash: hash }));
export type ResetTwoFactor = CommandOf<typeof ResetTwoFactor>;

export const SuspendUser = defineCommand('SuspendUser', z.object({ reason: nullableText.optional() }));
export type SuspendUser = CommandOf<typeof SuspendUser>;

export const UnsuspendUser = defineCommand('UnsuspendUser', z.object({}));
export type UnsuspendUser = CommandOf<typeof UnsuspendUser>;

export const ActivateDbsAccess = defineCommand('ActivateDbsAccess', z.object({}));
export type ActivateDbsAccess = CommandOf<typeof ActivateDbsAccess>;

export const CancelDbsAccess = defineCommand('CancelDbsAccess', z.object({}));
export type CancelDbsAccess = CommandOf<typeof CancelDbsAccess>;

export const BlockUser = defineCommand('BlockUser', z.object({ until: z.date().nullable() }));
export type BlockUser = CommandOf<typeof BlockUser>;

export const UnblockUser = defineCommand('UnblockUser', z.object({}));
export type UnblockUser = CommandOf<typeof UnblockUser>;

export const ChangeRole = defineCommand('ChangeRole', z.object({ role: z.enum(ROLES) }));
export type ChangeRole = CommandOf<typeof ChangeRole>;

export const DeleteAccount = defineCommand(
  'DeleteAccount',
  z.discriminatedUnion('by', [
    z.object({ by: z.literal('user'), confirmation: z.string(), passwordValid: z.boolean() }),
    z.object({ by: z.literal('staff'), staffId: z.string().min(1) }),
    // the grace period after a failed renewal ran out without a payment
    z.object({ by: z.literal('non_payment') }),
  ]),
);
export type DeleteAccount = CommandOf<typeof DeleteAccount>;

export const PurgeAccount = defineCommand('PurgeAccount', z.object({}));
export type PurgeAccount = CommandOf<typeof PurgeAccount>;

export type UserCommand =
  | RegisterUser
  | ResendConfirmation
  | ConfirmEmail
  | SignIn
  | SignInWithProvider
  | RequestPasswordReset
  | ResetPassword
  | ChangePassword
  | RequestEmailChange
  | ConfirmEmailChange
  | UpdateProfile
  | ChangeAccountSettings
  | SetAvatar
  | AcceptTerms
  | StartTotpEnrolment
  | IssueEmailCode
  | EnableTwoFactor
  | DisableTwoFactor
  | RequestTwoFactorReset
  | ResetTwoFactor
  | SuspendUser
  | UnsuspendUser
  | BlockUser
  | UnblockUser
  | ChangeRole
  | ActivateDbsAccess
  | CancelDbsAccess
  | DeleteAccount
  | PurgeAccount;

// ---- email-<sha256> and username-<name> ------------------------------------------------------

const owner = z.object({ userId: z.string().min(1) });

/**
 * `abandonedHolderId`: the API found that this user holds the address without an account using it
 * (a sign-up or e-mail change that crashed between its two appends). The fact names its holder, so
 * it cannot be applied to a reservation that changed hands since it was established.
 */
export const ReserveEmail = defineCommand('ReserveEmail', owner.extend({ abandonedHolderId: z.string().min(1).optional() }));
export type ReserveEmail = CommandOf<typeof ReserveEmail>;
export const ReleaseEmail = defineCommand('ReleaseEmail', owner);
export type ReleaseEmail = CommandOf<typeof ReleaseEmail>;
export type EmailReservationCommand = ReserveEmail | ReleaseEmail;

export const ReserveUsername = defineCommand('ReserveUsername', owner);
export type ReserveUsername = CommandOf<typeof ReserveUsername>;
export const ReleaseUsername = defineCommand('ReleaseUsername', owner);
export type ReleaseUsername = CommandOf<typeof ReleaseUsername>;
export type UsernameReservationCommand = ReserveUsername | ReleaseUsername;

import { z } from 'zod';

/**
 * Form rules of the specification, shared by the API (authoritative) and the web forms (mirror).
 * Every message is an i18n key under `validation.*`; the API sends the key in
 * `data.fields[field]` and the web app translates it.
 */
export const LOCALES = ['en_us', 'es_mx', 'pt_br', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];

/** Inactivity options: 15 min, 30 min, 1 h, 4 h, 1 day, 30 days (seconds). */
export const SESSION_TIMEOUTS = [900, 1800, 3600, 14400, 86400, 2592000] as const;
export type SessionTimeout = (typeof SESSION_TIMEOUTS)[number];
export const DEFAULT_SESSION_TIMEOUT: SessionTimeout = 1800;

export const PASSWORD_MIN_LENGTH = 8;
/** The specification sets no upper bound; this one keeps password hashing cheap to ask for. */
export const PASSWORD_MAX_LENGTH = 128;
export const AVATAR_MAX_BYTES = 3 * 1024 * 1024;
export const VERIFICATION_CODE_TTL_MS = 10 * 60 * 1000;
export const TWO_FACTOR_METHODS = ['email', 'totp'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];
export const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
/** How long each mailed link stays valid. */
export const EMAIL_CONFIRMATION_TTL_MS = 24 * HOUR_MS;
export const EMAIL_CHANGE_TTL_MS = 24 * HOUR_MS;
export const PASSWORD_RESET_TTL_MS = HOUR_MS;
export const TWO_FACTOR_RESET_TTL_MS = HOUR_MS;
/** This many failed sign-ins in a row, all within the window, lock the account for the lock time. */
export const MAX_FAILED_SIGN_INS = 5;
export const FAILED_SIGN_IN_WINDOW_MS = 15 * MINUTE_MS;
export const SIGN_IN_LOCK_MS = 15 * MINUTE_MS;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const emailSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(254, 'validation.email')
  .regex(EMAIL_RE, 'validation.email')
  .transform((v) => v.toLowerCase());

/** 8 or more characters mixing letters, numbers and symbols; no spaces. */
export const passwordSchema = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(PASSWORD_MIN_LENGTH, 'validation.passwordLength')
  .max(PASSWORD_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => !/\s/.test(v), 'validation.passwordSpaces')
  .refine((v) => /\p{L}/u.test(v) && /\d/.test(v) && /[^\p{L}\d\s]/u.test(v), 'validation.passwordMix');

/** A password given to be checked (sign-in, confirmations): any text, within the same cap. */
export const passwordInputSchema = z.string({ error: 'validation.required' }).min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong');

export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(64, 'validation.usernameLength')
  .regex(/^[a-z0-9.]+$/, 'validation.username');

const PHONE_RE = /^\+?[0-9][0-9 ()-]{5,19}$/;
const WEBSITE_RE = /^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?(\/[^\s]*)?$/i;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'validation.tooLong')
    .nullish()
    .transform((v) => (v ? v : null));

export const phoneSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || PHONE_RE.test(v), 'validation.phone');

export const websiteSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || WEBSITE_RE.test(v), 'validation.website');

export const optionalEmailSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null))
  .refine((v) => v === null || EMAIL_RE.test(v), 'validation.email');

export const profileSchema = z.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  website: websiteSchema,
  twitter: optionalText(100),
  discord: optionalText(100),
  telegram: optionalText(100),
  contactEmail: optionalEmailSchema,
  phone: phoneSchema,
  city: optionalText(100),
  addressLine1: optionalText(200),
  addressLine2: optionalText(200),
  state: optionalText(100),
  zip: optionalText(20),
  company: optionalText(200),
  businessPhone: phoneSchema,
  vatNumber: optionalText(40),
});
export type Profile = z.infer<typeof profileSchema>;
export const PROFILE_FIELDS = Object.keys(profileSchema.shape) as (keyof Profile)[];

const passwordsMatch = (v: { password: string; passwordConfirmation: string }) => v.password === v.passwordConfirmation;
const mismatch = { message: 'validation.passwordConfirmation', path: ['passwordConfirmation'] };

export const signUpSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    passwordConfirmation: z.string(),
    termsAccepted: z.literal(true, { error: 'validation.terms' }),
    locale: z.enum(LOCALES).optional(),
  })
  .refine(passwordsMatch, mismatch);

export const signInSchema = z.object({
  email: emailSchema,
  password: passwordInputSchema,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'validation.code')
    .optional(),
});

export const passwordResetSchema = z.object({ password: passwordSchema, passwordConfirmation: z.string() }).refine(passwordsMatch, mismatch);

export const changePasswordSchema = z
  .object({
    currentPassword: passwordInputSchema,
    password: passwordSchema,
    passwordConfirmation: z.string(),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: 'validation.passwordConfirmation',
    path: ['passwordConfirmation'],
  })
  .refine((v) => v.password !== v.currentPassword, {
    message: 'validation.passwordSameAsCurrent',
    path: ['password'],
  });

export const changeEmailSchema = z
  .object({ newEmail: emailSchema, newEmailConfirmation: emailSchema, password: passwordInputSchema })
  .refine((v) => v.newEmail === v.newEmailConfirmation, {
    message: 'validation.emailConfirmation',
    path: ['newEmailConfirmation'],
  });

export const accountSettingsSchema = z.object({
  username: usernameSchema.optional(),
  sessionTimeout: z
    .number()
    .refine((v): v is SessionTimeout => (SESSION_TIMEOUTS as readonly number[]).includes(v), 'validation.sessionTimeout')
    .optional(),
  locale: z.enum(LOCALES, { error: 'validation.locale' }).optional(),
});

export const verificationCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'validation.code');

export const deleteAccountSchema = z.object({
  confirmation: z.string(),
  password: passwordInputSchema,
});

export const ROLES = ['user', 'admin', 'super_admin', 'financial_admin', 'auditor'] as const;
export type Role = (typeof ROLES)[number];
/** `auditor` is staff that reads (activity, users, processes, the audit chain) and changes nothing. */
export const STAFF_ROLES: readonly Role[] = ['admin', 'super_admin', 'financial_admin', 'auditor'];

export const adminCreateUserSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    passwordConfirmation: z.string(),
    role: z.enum(ROLES, { error: 'validation.required' }),
  })
  .refine(passwordsMatch, mismatch);

/** The i18n keys above, with their English text (the web app's en_us catalogue starts here). */
export const validationMessages = {
  'validation.required': 'This field is required',
  'validation.email': 'Enter a valid e-mail address',
  'validation.emailConfirmation': 'The e-mail addresses do not match',
  'validation.passwordLength': 'The password must be at least 8 characters',
  'validation.passwordSpaces': 'The password must not contain spaces',
  'validation.passwordMix': 'The password must mix letters, numbers and symbols',
  'validation.passwordConfirmation': 'The passwords do not match',
  'validation.passwordSameAsCurrent': 'The new password must differ from the current one',
  'validation.username': 'Use lowercase letters, digits and dots only',
  'validation.usernameLength': 'The username is too long',
  'validation.phone': 'Enter a valid phone number',
  'validation.website': 'Enter a valid website address',
  'validation.tooLong': 'This text is too long',
  'validation.terms': 'You must accept the terms to sign up',
  'validation.code': 'Enter the 6-digit code',
  'validation.sessionTimeout': 'Choose one of the offered timeouts',
  'validation.locale': 'Choose one of the offered languages',
} as const;
export type ValidationMessageKey = keyof typeof validationMessages;

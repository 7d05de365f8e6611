import { emailSchema, PASSWORD_MIN_LENGTH } from '@axel/domain/accounts/accounts.validation';
import { containsProfanity, FORBIDDEN_NAME_CHARACTERS } from '@axel/domain/storage/storage.names';
import { z } from 'zod';
import { validate, type Validation } from '../../forms/zodErrors';
import type { ShareEdit, ShareInput, ShareKind } from './sharing.types';

/** Up to 10 addresses per share (specification sections 5 and 9). */
export const MAX_RECIPIENTS = 10;
export const TITLE_MAX_LENGTH = 255;
export const TEXT_MAX_LENGTH = 2000;
export const SHARE_PASSWORD_MAX_LENGTH = 128;

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u{FE0F}|\u{20E3}/u;
const hasForbiddenCharacters = (text: string) => FORBIDDEN_NAME_CHARACTERS.some((c) => text.includes(c));

/** What the share dialog holds: text as typed, the expiry as the date input gives it (YYYY-MM-DD or ''). */
export interface ShareFormValues {
  kind: ShareKind;
  title: string;
  description: string;
  expiresOn: string;
  downloadable: boolean;
  password: string;
  requireLogin: boolean;
  esign: boolean;
  recipients: string;
  message: string;
}

export const emptyShareForm = (title = ''): ShareFormValues => ({
  kind: 'public',
  title,
  description: '',
  expiresOn: '',
  downloadable: true,
  password: '',
  requireLogin: false,
  esign: false,
  recipients: '',
  message: '',
});

/** Archive names over 50 characters are shortened to their first 5, '...', their last 5 (specification section 9). */
export const ARCHIVE_NAME_MAX = 50;
export const shortArchiveName = (name: string): string => {
  const chars = [...name];
  return chars.length > ARCHIVE_NAME_MAX ? `${chars.slice(0, 5).join('')}...${chars.slice(-5).join('')}` : name;
};

/** Addresses separated by space, comma or semicolon (as invites are typed). */
export const splitAddresses = (raw: string): string[] =>
  raw
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** The expiry date as an instant: the end of that day where the owner is; null when none was given. */
export const expiryInstant = (expiresOn: string): Date | null => {
  if (!expiresOn) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(expiresOn);
  if (!m) return new Date(Number.NaN);
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
};

/** The date input's value for an instant (the owner's own calendar day). */
export const expiryDateOf = (iso: string | null | undefined): string => {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

const titleSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(TITLE_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => !EMOJI.test(v), 'sharing.validation.titleEmoji')
  .refine((v) => !containsProfanity(v), 'sharing.validation.profanity');

/** Notes (description, message) must not contain the forbidden characters of names. */
const noteSchema = z
  .string()
  .trim()
  .max(TEXT_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => !hasForbiddenCharacters(v), 'sharing.validation.forbiddenCharacters');

const passwordSchema = z
  .string()
  .max(SHARE_PASSWORD_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => v.length === 0 || v.length >= PASSWORD_MIN_LENGTH, 'validation.passwordLength')
  .refine((v) => !/\s/.test(v), 'validation.passwordSpaces');

const expirySchema = (now: Date) =>
  z.string().refine((v) => {
    const at = expiryInstant(v);
    return at === null || (!Number.isNaN(at.getTime()) && at.getTime() > now.getTime());
  }, 'sharing.validation.expiryPast');

/** The first problem of a recipients list, as a message key, or null. */
export const recipientsProblem = (addresses: readonly string[], ownEmail: string): string | null => {
  if (addresses.length === 0) return 'sharing.validation.recipientsRequired';
  if (addresses.length > MAX_RECIPIENTS) return 'sharing.validation.tooManyRecipients';
  const seen = new Set<string>();
  const own = ownEmail.trim().toLowerCase();
  for (const address of addresses) {
    const parsed = emailSchema.safeParse(address);
    if (!parsed.success) return 'sharing.validation.recipientEmail';
    if (parsed.data === own) return 'sharing.validation.ownEmail';
    if (seen.has(parsed.data)) return 'sharing.validation.duplicateRecipient';
    seen.add(parsed.data);
  }
  return null;
};

/**
 * The §5 share rules: a title; notes without the forbidden characters; an expiry in the future;
 * a private share has 1 to 10 recipients (valid, not the sender's own, no duplicates), a message
 * and a password.
 */
export const shareFormSchema = (ownEmail: string, now: Date) =>
  z
    .object({
      kind: z.enum(['public', 'private']),
      title: titleSchema,
      description: noteSchema,
      expiresOn: expirySchema(now),
      downloadable: z.boolean(),
      password: passwordSchema,
      requireLogin: z.boolean(),
      esign: z.boolean(),
      recipients: z.string(),
      message: noteSchema,
    })
    .superRefine((v, ctx) => {
      if (v.kind !== 'private') return;
      const problem = recipientsProblem(splitAddresses(v.recipients), ownEmail);
      if (problem) ctx.addIssue({ code: 'custom', path: ['recipients'], message: problem });
      if (!v.message) ctx.addIssue({ code: 'custom', path: ['message'], message: 'sharing.validation.messageRequired' });
      if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'sharing.validation.passwordRequired' });
    })
    .transform((v): Omit<ShareInput, 'itemIds'> => {
      const expiry = expiryInstant(v.expiresOn);
      const input: Omit<ShareInput, 'itemIds'> = {
        title: v.title,
        expiresAt: expiry ? expiry.toISOString() : null,
        downloadable: v.downloadable,
        requireLogin: v.requireLogin,
        esign: v.esign,
      };
      if (v.description) input.description = v.description;
      if (v.password) input.password = v.password;
      if (v.kind === 'private') {
        input.recipients = [...new Set(splitAddresses(v.recipients).map((a) => a.toLowerCase()))];
        input.message = v.message;
      }
      return input;
    });

export const validateShareForm = (values: ShareFormValues, ownEmail: string, now = new Date()): Validation<Omit<ShareInput, 'itemIds'>> =>
  validate(shareFormSchema(ownEmail, now), values);

/** The edit dialog: the same rules for what can change; an empty password keeps the current one. */
export interface ShareEditValues {
  title: string;
  description: string;
  expiresOn: string;
  downloadable: boolean;
  requireLogin: boolean;
  password: string;
  removePassword: boolean;
}

export const shareEditSchema = (now: Date, privateShare: boolean) =>
  z
    .object({
      title: titleSchema,
      description: noteSchema,
      expiresOn: expirySchema(now),
      downloadable: z.boolean(),
      requireLogin: z.boolean(),
      password: passwordSchema,
      removePassword: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (privateShare && v.removePassword) ctx.addIssue({ code: 'custom', path: ['password'], message: 'sharing.validation.passwordRequired' });
    })
    .transform((v): ShareEdit => {
      const expiry = expiryInstant(v.expiresOn);
      const edit: ShareEdit = {
        title: v.title,
        description: v.description,
        expiresAt: expiry ? expiry.toISOString() : null,
        downloadable: v.downloadable,
        requireLogin: v.requireLogin,
      };
      if (v.removePassword) edit.password = null;
      else if (v.password) edit.password = v.password;
      return edit;
    });

export const validateShareEdit = (values: ShareEditValues, privateShare: boolean, now = new Date()): Validation<ShareEdit> =>
  validate(shareEditSchema(now, privateShare), values);

/** The password a visitor types into a share's password dialog: anything but empty. */
export const validateAccessForm = (
  values: { password: string; email: string },
  needs: { password: boolean; email: boolean },
): Validation<{ password?: string; email?: string }> =>
  validate(
    z
      .object({
        password: needs.password ? z.string().min(1, 'validation.required') : z.string(),
        email: needs.email ? emailSchema : z.string(),
      })
      .transform((v) => ({ ...(needs.password ? { password: v.password } : {}), ...(needs.email ? { email: v.email } : {}) })),
    values,
  );

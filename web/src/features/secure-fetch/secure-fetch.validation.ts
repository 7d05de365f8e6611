import { emailSchema, websiteSchema } from '@axel/domain/accounts/accounts.validation';
import { containsProfanity, FORBIDDEN_NAME_CHARACTERS } from '@axel/domain/storage/storage.names';
import { z } from 'zod';
import { validate } from '../../forms/zodErrors';
import { NOTE_MAX_LENGTH } from '@axel/domain/secure-fetch/secure-fetch.decide';
import { COPYRIGHT_TYPES, HASH_CHOICES } from '@axel/domain/secure-fetch/secure-fetch.events';

/** The five copyright types of spec §3 by the ids the API takes (1 No Copyright ... 5 Open Copyright); labels are translated. */
export const COPYRIGHT_TYPE_IDS = Object.keys(COPYRIGHT_TYPES).map(Number) as Array<keyof typeof COPYRIGHT_TYPES>;
export { HASH_CHOICES, NOTE_MAX_LENGTH };
const TEXT_MAX_LENGTH = 255;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** Spec §5: a Secure Fetch note is required and must not contain the forbidden characters. */
export const noteSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'secureFetch.validation.noteRequired')
  .max(NOTE_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => !FORBIDDEN_NAME_CHARACTERS.some((c) => v.includes(c)), 'secureFetch.validation.noteCharacters')
  .refine((v) => !containsProfanity(v), 'secureFetch.validation.profanity');

export interface CreateValues {
  note: string;
  /** `YYYY-MM-DDTHH:mm` from a datetime-local field, or '' for no expiry. */
  expiresAt: string;
  includeMetadata: boolean;
  certificate: boolean;
  hashChoice: string[];
}

/** The create dialog's rules; `now` decides whether a chosen expiry is already past. */
export const createSchema = (now: Date) =>
  z
    .object({
      note: noteSchema,
      expiresAt: z
        .string()
        .trim()
        .transform((v) => (v ? new Date(v) : null))
        .refine((d) => d === null || !Number.isNaN(d.getTime()), 'validation.invalid')
        .refine((d) => d === null || Number.isNaN(d.getTime()) || d.getTime() > now.getTime(), 'secureFetch.validation.expiryPast')
        .transform((d) => (d ? d.toISOString() : null)),
      includeMetadata: z.boolean(),
      certificate: z.boolean(),
      hashChoice: z.array(z.enum(HASH_CHOICES)),
    })
    .refine((v) => !v.certificate || v.hashChoice.length > 0, { path: ['hashChoice'], message: 'secureFetch.validation.hashChoice' });

export const validateCreate = (values: CreateValues, now = new Date()) => validate(createSchema(now), values);

/** ISBN-10 or ISBN-13, hyphens and spaces allowed, check digit verified. */
export const isIsbn = (value: string): boolean => {
  const digits = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((s, ch, i) => s + (ch === 'X' ? 10 : Number(ch)) * (10 - i), 0);
    return sum % 11 === 0;
  }
  if (/^\d{13}$/.test(digits)) {
    const sum = [...digits].reduce((s, ch, i) => s + Number(ch) * (i % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0;
  }
  return false;
};

const optionalText = z
  .string()
  .trim()
  .max(TEXT_MAX_LENGTH, 'validation.tooLong')
  .refine((v) => !EMOJI.test(v), 'secureFetch.validation.emoji')
  .refine((v) => !containsProfanity(v), 'secureFetch.validation.profanity');

/** Keywords separated by commas: no empty one, no duplicate (spec §8 "duplicate keyword"), no profanity. */
const keywordsSchema = optionalText.superRefine((value, ctx) => {
  if (!value) return;
  const words = value.split(',').map((w) => w.trim().toLowerCase());
  if (words.some((w) => !w)) ctx.addIssue({ code: 'custom', message: 'secureFetch.validation.emptyKeyword' });
  else if (new Set(words).size !== words.length) ctx.addIssue({ code: 'custom', message: 'secureFetch.validation.duplicateKeyword' });
});

export interface MetadataValues {
  contactEmail: string;
  copyrightTypeId: string;
  isbn: string;
  keywords: string;
  publisher: string;
  website: string;
  author: string;
}

export const EMPTY_METADATA: MetadataValues = { contactEmail: '', copyrightTypeId: '', isbn: '', keywords: '', publisher: '', website: '', author: '' };

/** The metadata a link may ask the sender for (spec §3 Share metadata); empty optional fields are left out. */
export const metadataSchema = z.object({
  contactEmail: emailSchema,
  copyrightTypeId: z
    .string()
    .transform(Number)
    .refine((v) => (COPYRIGHT_TYPE_IDS as number[]).includes(v), 'secureFetch.validation.copyrightType'),
  isbn: z
    .string()
    .trim()
    .refine((v) => !v || isIsbn(v), 'secureFetch.validation.isbn'),
  keywords: keywordsSchema,
  publisher: optionalText,
  website: websiteSchema,
  author: optionalText,
});
export type Metadata = z.output<typeof metadataSchema>;

/** The metadata as sent: fields left empty are not sent. */
export const validateMetadata = (values: MetadataValues) => {
  const result = validate(metadataSchema, values);
  if (!result.ok) return result;
  const value = Object.fromEntries(Object.entries(result.value).filter(([, v]) => v !== null && v !== '')) as Partial<Metadata> &
    Pick<Metadata, 'contactEmail' | 'copyrightTypeId'>;
  return { ok: true as const, value };
};

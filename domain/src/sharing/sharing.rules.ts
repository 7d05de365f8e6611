import { DomainError } from '../shared/errors';
import { containsProfanity, FORBIDDEN_NAME_CHARACTERS } from '../storage/storage.names';
import { SharingErrors } from './sharing.errors';

/** Spec §9: up to 10 addresses per share. */
export const MAX_SHARE_RECIPIENTS = 10;
/** Spec §6 and §9: each shared file at most 10 MiB without the unlimited-shared-file-size permission. */
export const SHARED_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Items picked for one share (the page size of the file views). */
export const MAX_SHARE_ITEMS = 500;
export const SHARE_TITLE_MAX_LENGTH = 255;
export const SHARE_NOTE_MAX_LENGTH = 2000;
export const SHARE_PASSWORD_MIN_LENGTH = 8;
export const SHARE_PASSWORD_MAX_LENGTH = 128;
/** Reminders to the owner, in days before a share expires. */
export const SHARE_EXPIRY_REMINDER_DAYS = [7, 3, 1] as const;

const EMOJI = /\p{Extended_Pictographic}/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const normalizeShareEmail = (email: string): string => email.trim().toLowerCase();

/** A title: required, no emoji, no profanity (spec §5). */
export const checkShareTitle = (title: string): string => {
  const trimmed = title.trim();
  if (!trimmed || trimmed.length > SHARE_TITLE_MAX_LENGTH || EMOJI.test(trimmed)) throw new DomainError(SharingErrors.invalidTitle);
  if (containsProfanity(trimmed)) throw new DomainError(SharingErrors.profanity);
  return trimmed;
};

/** A description or message is a note: none of the forbidden name characters (spec §5); blank reads as none. */
export const checkShareNote = (note: string | null | undefined): string | null => {
  const trimmed = note?.trim() ?? '';
  if (!trimmed) return null;
  if (trimmed.length > SHARE_NOTE_MAX_LENGTH || FORBIDDEN_NAME_CHARACTERS.some((c) => trimmed.includes(c))) {
    throw new DomainError(SharingErrors.invalidNote);
  }
  if (containsProfanity(trimmed)) throw new DomainError(SharingErrors.profanity);
  return trimmed;
};

/** Checked before hashing: the domain only ever sees the hash. */
export const checkSharePassword = (password: string): string => {
  if (password.length < SHARE_PASSWORD_MIN_LENGTH || password.length > SHARE_PASSWORD_MAX_LENGTH || /\s/.test(password)) {
    throw new DomainError(SharingErrors.invalidPassword);
  }
  return password;
};

/** Private share recipients: 1 to 10 valid addresses, not the sender's own, no duplicates (spec §5). */
export const checkRecipients = (recipients: readonly string[], senderEmail: string): string[] => {
  if (recipients.length > MAX_SHARE_RECIPIENTS) throw new DomainError(SharingErrors.tooManyRecipients, { max: MAX_SHARE_RECIPIENTS });
  const sender = normalizeShareEmail(senderEmail);
  const seen = new Set<string>();
  for (const raw of recipients) {
    const email = normalizeShareEmail(raw);
    if (!EMAIL.test(email) || email.length > 254) throw new DomainError(SharingErrors.invalidRecipient, { email: raw });
    if (email === sender) throw new DomainError(SharingErrors.ownEmailRecipient);
    if (seen.has(email)) throw new DomainError(SharingErrors.duplicateRecipient, { email });
    seen.add(email);
  }
  return [...seen];
};

/** The UTC month a share is counted in: `YYYY-MM`. */
export const sharePeriodOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The first instant of the UTC month of `at`. */
export const startOfSharePeriod = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

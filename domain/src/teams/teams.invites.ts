import { DomainError } from '../shared/errors';
import { TeamErrors } from './teams.errors';

/** Spec §5: up to 10 addresses per invite. */
export const MAX_INVITE_EMAILS = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * The addresses of an invite as typed: split by spaces, commas or semicolons, lower-cased, each
 * once; at most 10, and one invalid address refuses them all, naming the invalid ones (spec §5).
 */
export const parseInviteEmails = (text: string): string[] => {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const invalid = parts.filter((p) => p.length > MAX_EMAIL_LENGTH || !EMAIL.test(p));
  if (parts.length === 0 || invalid.length) throw new DomainError(TeamErrors.invalidEmails, { invalid });
  const emails = [...new Set(parts)];
  if (emails.length > MAX_INVITE_EMAILS) throw new DomainError(TeamErrors.tooManyEmails, { max: MAX_INVITE_EMAILS });
  return emails;
};

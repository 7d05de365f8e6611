import { defineErrors, DomainError, CommonErrors } from '../shared/errors';

/** A support message's attachment: at most 15 MB (spec rules-calls-errors.md §5, §9). */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 15_728_640;
/** Longest subject and message a support or contact mail carries. */
export const SUPPORT_SUBJECT_MAX = 255;
export const SUPPORT_TEXT_MAX = 20_000;

/** Support and contact messages (spec §5: subject and message required; attachment 15 MB; §6: contacting an admin). */
export const SupportErrors = defineErrors({
  attachmentTooLarge: { code: 'ATTACHMENT_TOO_LARGE', status: 413, message: 'The attachment is larger than 15 MB' },
  receiverNotYourAdmin: {
    code: 'RECEIVER_NOT_YOUR_ADMIN',
    status: 403,
    message: 'You can write only to the owner of your team or group',
  },
});

export interface SupportMessage {
  readonly subject: string;
  readonly text: string;
  readonly attachmentBytes?: number | null;
}

/**
 * The rules of a support or contact message, as the spec states them: subject and message
 * required (blank counts as missing), neither longer than its cap, an attachment at most 15 MB.
 * Answers the message trimmed, or throws the first rule broken.
 */
export const checkSupportMessage = (m: SupportMessage): { subject: string; text: string } => {
  const subject = m.subject.trim();
  const text = m.text.trim();
  const fields: Record<string, string> = {};
  if (!subject) fields.subject = 'validation.required';
  else if (subject.length > SUPPORT_SUBJECT_MAX) fields.subject = 'validation.too_long';
  if (!text) fields.text = 'validation.required';
  else if (text.length > SUPPORT_TEXT_MAX) fields.text = 'validation.too_long';
  if (Object.keys(fields).length) throw new DomainError(CommonErrors.validation, { fields });
  if ((m.attachmentBytes ?? 0) > SUPPORT_ATTACHMENT_MAX_BYTES) {
    throw new DomainError(SupportErrors.attachmentTooLarge, { maxBytes: SUPPORT_ATTACHMENT_MAX_BYTES });
  }
  return { subject, text };
};

import { SUPPORT_ATTACHMENT_MAX_BYTES, SUPPORT_SUBJECT_MAX, SUPPORT_TEXT_MAX } from '@axel/domain/support/support';
import { z } from 'zod';

export { SUPPORT_ATTACHMENT_MAX_BYTES };

/** The texts of the support form; the same rules as the server's (spec §5: subject and message required). */
export const supportTextSchema = z.object({
  subject: z.string().trim().min(1, 'support.validation.subjectRequired').max(SUPPORT_SUBJECT_MAX, 'validation.tooLong'),
  text: z.string().trim().min(1, 'support.validation.textRequired').max(SUPPORT_TEXT_MAX, 'validation.tooLong'),
});

export const supportFormSchema = supportTextSchema.extend({
  email: z.union([z.literal(''), z.string().trim().email('validation.email').max(254, 'validation.tooLong')]),
});

/** The attachments' total size against the 15 MB limit, checked before anything is sent. */
export const attachmentsTooLarge = (files: readonly { size: number }[]): boolean =>
  files.reduce((total, f) => total + f.size, 0) > SUPPORT_ATTACHMENT_MAX_BYTES;

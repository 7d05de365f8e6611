import { SUPPORT_SUBJECT_MAX, SUPPORT_TEXT_MAX } from '@axel/domain';
import { z } from 'zod';

export const IdParams = z.object({ id: z.string().min(1).max(64) });
export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });
export const QueuedSchema = z.object({ mailId: z.string() });

/** The text fields of the contact-support form (multipart, or JSON without an attachment). */
export const SupportFields = z.object({
  email: z
    .string()
    .trim()
    .max(254)
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  subject: z
    .string()
    .max(SUPPORT_SUBJECT_MAX * 4)
    .default(''),
  text: z
    .string()
    .max(SUPPORT_TEXT_MAX * 4)
    .default(''),
});

export const ContactBody = z.object({
  receiverId: z.string().min(1).max(64),
  subject: z.string().max(SUPPORT_SUBJECT_MAX * 4),
  text: z.string().max(SUPPORT_TEXT_MAX * 4),
});

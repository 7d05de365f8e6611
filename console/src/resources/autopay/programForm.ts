import { z } from 'zod';

/** The §5 auto-pay rules for a program: name required, 1 to 255 characters; description required. */
export const programSchema = z.object({
  name: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(255, 'resources.auto-pay.validation.nameLength'),
  description: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(2000, 'validation.tooLong'),
});

/** A payee row: user e-mail required and valid, amount a positive AXEL amount of at most 8 decimals. */
export const payeeSchema = z.object({
  email: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, 'validation.email'),
  amount: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .regex(/^(0|[1-9]\d{0,15})(\.\d{1,8})?$/, 'resources.auto-pay.validation.amount')
    .refine((v) => /[1-9]/.test(v), 'resources.auto-pay.validation.amount'),
  address: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[A-Za-z0-9]{34}$/.test(v), 'resources.auto-pay.validation.address'),
  payerName: z.string().trim().max(255, 'validation.tooLong'),
  payeeName: z.string().trim().max(255, 'validation.tooLong'),
  transactionType: z.string().trim().max(100, 'validation.tooLong'),
  accountNotes: z.string().trim().max(1000, 'validation.tooLong'),
});

/** Reads the chosen file as text; a missing file is the §5 "a CSV file must be chosen". */
export const csvFileProblem = (file: { name: string; size: number } | null | undefined): string | null => {
  if (!file) return 'resources.auto-pay.import.noFile';
  if (file.size === 0) return 'resources.auto-pay.import.emptyFile';
  if (!/\.csv$/i.test(file.name)) return 'resources.auto-pay.import.notCsv';
  return null;
};

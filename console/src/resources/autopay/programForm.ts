import { z } from 'zod';

/** The §5 auto-pay rules for a program: name required, 1 to 255 characters; description required. */
export const programSchema = z.object({
  name: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(255, 'resources.auto-pay.validation.nameLength'),
  description: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(2000, 'validation.tooLong'),
});

/** Reads the chosen file as text; a missing file is the §5 "a CSV file must be chosen". */
export const csvFileProblem = (file: { name: string; size: number } | null | undefined): string | null => {
  if (!file) return 'resources.auto-pay.import.noFile';
  if (file.size === 0) return 'resources.auto-pay.import.emptyFile';
  if (!/\.csv$/i.test(file.name)) return 'resources.auto-pay.import.notCsv';
  return null;
};

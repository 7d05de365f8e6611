import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/** `{ field: messageKey }` from a failed zod parse: the first message of each field, like the API sends. */
export const zodFieldErrors = (error: z.ZodError): FieldErrors => {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
};

export type Validation<T> = { ok: true; value: T } | { ok: false; fieldErrors: FieldErrors };

export const validate = <S extends z.ZodType>(schema: S, input: unknown): Validation<z.output<S>> => {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, fieldErrors: zodFieldErrors(result.error) };
};

import { fieldErrorsOf, toApiError, type NormalisedError } from '../api/errors';
import type { FieldErrors } from './zodErrors';

/**
 * Splits a server error into what goes next to the fields and what goes above the form.
 * `data.fields` (VALIDATION_FAILED) always goes to the fields; `codeFields` puts other codes
 * next to one field (EMAIL_EXISTS next to the e-mail, WRONG_PASSWORD next to the password...),
 * as the translated key `errors.<CODE>`.
 */
export const splitServerError = (raw: unknown, codeFields: Record<string, string> = {}): { error: NormalisedError | null; fieldErrors: FieldErrors } => {
  const error = toApiError(raw).toJSON();
  const fields = fieldErrorsOf(error);
  const field = codeFields[error.code];
  if (field) fields[field] = `errors.${error.code}`;
  if (Object.keys(fields).length > 0) return { error: null, fieldErrors: fields };
  return { error, fieldErrors: {} };
};

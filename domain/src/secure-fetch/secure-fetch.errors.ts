import { defineErrors } from '../shared/errors';

/** The Secure Fetch part of the error catalogue (spec §8: missing, invalid, used or over its size limit). */
export const SecureFetchErrors = defineErrors({
  missing: { code: 'SECURE_FETCH_MISSING', status: 404, message: 'This Secure Fetch link does not exist' },
  invalid: { code: 'SECURE_FETCH_INVALID', status: 410, message: 'This Secure Fetch link is no longer valid' },
  used: { code: 'SECURE_FETCH_USED', status: 410, message: 'This Secure Fetch link has already been used' },
  tooLarge: { code: 'SECURE_FETCH_TOO_LARGE', status: 413, message: 'This file is over the Secure Fetch size limit' },
  busy: { code: 'SECURE_FETCH_BUSY', status: 429, message: 'Too many files are being sent on this link at once: finish or cancel one first' },
  notFound: { code: 'SECURE_FETCH_NOT_FOUND', status: 404, message: 'Secure Fetch not found' },
  noteRequired: { code: 'NOTE_REQUIRED', status: 400, message: 'A note is required' },
  invalidNote: { code: 'INVALID_NOTE', status: 400, message: 'Notes must not contain * \\ / < > ? " | :' },
  invalidExpiry: { code: 'INVALID_EXPIRY', status: 400, message: 'The expiry date must be in the future' },
  noFiles: { code: 'SECURE_FETCH_NO_FILES', status: 400, message: 'Choose at least one file to send' },
  limitReached: { code: 'SECURE_FETCH_LIMIT_REACHED', status: 403, message: 'You have used all {{limit}} Secure Fetches of your plan this month' },
  nothingToPay: { code: 'SECURE_FETCH_NOTHING_TO_PAY', status: 409, message: 'No files have arrived on this link yet' },
  collected: { code: 'SECURE_FETCH_COLLECTED', status: 410, message: 'The unpaid files were deleted 2 hours after they arrived' },
  certificateNotAvailable: { code: 'CERTIFICATE_NOT_AVAILABLE', status: 404, message: 'No certificate for this Secure Fetch yet' },
  invalidRelpath: { code: 'INVALID_NAME', status: 400, message: 'This name is not allowed' },
  itemNotFound: { code: 'ITEM_NOT_FOUND', status: 404, message: 'Item not found or already deleted' },
});

import { toApiError, type NormalisedError } from './errors';

/** The spec's answers for a mailed link that can no longer be used (expired, used, unknown). */
export const LINK_ERROR_CODES: ReadonlySet<string> = new Set(['LINK_EXPIRED', 'LINK_INVALID']);

/** A call that sends a mailed link's token together with other input failed because of the link. */
export const isUnusableLinkError = (error: unknown) => LINK_ERROR_CODES.has(toApiError(error).code);

/**
 * A call whose only input is the link's token was refused because of the link. A garbled token
 * can also fail the request's validation ("Some fields are invalid"), which for such a call means
 * the same thing as an invalid link; nothing else the user typed can be at fault.
 */
export const isRejectedLinkToken = (error: unknown) => {
  const { code } = toApiError(error);
  return LINK_ERROR_CODES.has(code) || code === 'VALIDATION_FAILED';
};

/** The refusal as the user should read it: a garbled token is reported as an invalid link. */
export const asLinkError = (raw: unknown): NormalisedError => {
  const error = toApiError(raw).toJSON();
  return LINK_ERROR_CODES.has(error.code) ? error : { code: 'LINK_INVALID', message: 'This link is invalid or was already used', data: null };
};

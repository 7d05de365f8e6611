import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { asLinkError, isRejectedLinkToken, isUnusableLinkError } from './links';

const error = (code: string, status = 400) => new ApiError(code, code, null, status);

describe('mailed link errors', () => {
  it('a call with more input than the token blames the link only for the link codes', () => {
    expect(isUnusableLinkError(error('LINK_INVALID'))).toBe(true);
    expect(isUnusableLinkError(error('LINK_EXPIRED'))).toBe(true);
    expect(isUnusableLinkError(error('VALIDATION_FAILED'))).toBe(false);
    expect(isUnusableLinkError(error('NETWORK_ERROR', 0))).toBe(false);
  });

  it('a call whose only input is the token blames the link for a validation failure too, never for other failures', () => {
    expect(isRejectedLinkToken(error('LINK_INVALID'))).toBe(true);
    expect(isRejectedLinkToken(error('LINK_EXPIRED'))).toBe(true);
    expect(isRejectedLinkToken(error('VALIDATION_FAILED'))).toBe(true);
    for (const code of ['NETWORK_ERROR', 'RATE_LIMITED', 'EMAIL_EXISTS', 'HTTP_500']) expect(isRejectedLinkToken(error(code)), code).toBe(false);
  });

  it('reports a garbled token as an invalid link, keeps the link codes as they are', () => {
    expect(asLinkError(error('VALIDATION_FAILED')).code).toBe('LINK_INVALID');
    expect(asLinkError(error('LINK_EXPIRED')).code).toBe('LINK_EXPIRED');
  });
});

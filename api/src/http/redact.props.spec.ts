import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loggableUrl, looksLikeToken, redactText, redactUrl } from './redact';

const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 80 });
const prefixes = [
  '/reset-password/',
  '/email-confirmation/',
  '/change-email-confirmations/',
  '/api/password-resets/',
  '/api/two-factor-resets/',
  '/api/change-email-confirmations/',
];

describe('URL redaction', () => {
  it('removes whatever follows a one-time link route, whatever its shape', () => {
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), base64url, fc.constantFrom('', '?from=mail', '#x', '/extra'), (prefix, token, tail) => {
        const expected = `${prefix}[redacted]${tail === '/extra' ? '/[redacted]' : tail === '#x' ? '' : tail}`;
        expect(redactUrl(`${prefix}${token}${tail}`)).toBe(expected);
        expect(redactUrl(`http://host:8080${prefix}${token}${tail}`)).toBe(`http://host:8080${expected}`);
      }),
    );
  });

  it('removes secret query values and long random values anywhere', () => {
    fc.assert(
      fc.property(base64url, fc.constantFrom('token', 'code', 'password', 'TOKEN'), (value, key) => {
        expect(redactUrl(`/reset2fa/?${key}=${value}&lang=nl`)).not.toContain(`=${value}&`);
        expect(loggableUrl(`/api/x?${key}=${value}`, '/api/x')).toBe(`/api/x?${key}=[redacted]`);
      }),
    );
    fc.assert(
      fc.property(fc.uuid(), fc.base64String({ minLength: 24 }), (id, random) => {
        const token = `${id}.${random.replace(/[+/=]/g, 'x')}1a`;
        expect(redactUrl(`/anything/${token}?q=${token}`)).not.toContain(token);
        expect(redactText(`Reply was already sent in the "/somewhere/${token}" route`)).not.toContain(token);
      }),
    );
  });

  it("removes an archive task's id, which with a share's access names its zip", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.constantFrom('archiveTaskId', 'taskId', 'downloadId'), (id, key) => {
        const logged = loggableUrl(`/api/urls/share-archive-download/?shareId=AbCdEfGhIjKlMnOpQrStUv&${key}=${id}`, '/api/urls/share-archive-download/');
        expect(logged).not.toContain(id);
        expect(logged).toBe(`/api/urls/share-archive-download/?shareId=AbCdEfGhIjKlMnOpQrStUv&${key}=[redacted]`);
        expect(redactUrl(`/api/urls/storage-archive-download/?${key}=${id}`)).not.toContain(id);
      }),
    );
  });

  it('keeps what is not secret: route patterns, ids, words and hashed asset names', () => {
    expect(loggableUrl('/api/password-resets/abc.def', '/api/password-resets/:token')).toBe('/api/password-resets/:token');
    expect(redactUrl('/api/users/0193a2b4-1c2d-7e8f-9a0b-1c2d3e4f5a6b/profile?page=2')).toBe('/api/users/0193a2b4-1c2d-7e8f-9a0b-1c2d3e4f5a6b/profile?page=2');
    expect(redactUrl('/assets/vendor-react-Dq8x1ZaB.js')).toBe('/assets/vendor-react-Dq8x1ZaB.js');
    expect(redactUrl('/api/email-confirmations/resend')).toBe('/api/email-confirmations/resend');
    expect(looksLikeToken('at accounts.service.ts:253:12')).toBe(false);
  });
});

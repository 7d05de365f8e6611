import { describe, expect, it } from 'vitest';
import { EMPTY_METADATA, isIsbn, validateCreate, validateMetadata, type CreateValues } from './secure-fetch.validation';

const NOW = new Date('2026-05-01T12:00:00Z');
const base: CreateValues = {
  note: 'Please send the signed contract',
  expiresAt: '',
  includeMetadata: false,
  certificate: true,
  hashChoice: ['md5', 'sha1', 'sha3-512'],
};

describe('Secure Fetch create rules (spec §5)', () => {
  it('requires a note, refuses the forbidden characters and profanity', () => {
    expect(validateCreate({ ...base, note: '   ' }, NOW)).toEqual({ ok: false, fieldErrors: { note: 'secureFetch.validation.noteRequired' } });
    for (const c of ['*', '\\', '/', '<', '>', '?', '"', '|', ':']) {
      expect(validateCreate({ ...base, note: `contract ${c} v2` }, NOW)).toEqual({ ok: false, fieldErrors: { note: 'secureFetch.validation.noteCharacters' } });
    }
    expect(validateCreate({ ...base, note: 'send the shit' }, NOW)).toEqual({ ok: false, fieldErrors: { note: 'secureFetch.validation.profanity' } });
    expect(validateCreate({ ...base, note: 'x'.repeat(1001) }, NOW)).toEqual({ ok: false, fieldErrors: { note: 'validation.tooLong' } });
  });

  it('takes no expiry or a future one, refuses a past one', () => {
    const none = validateCreate(base, NOW);
    expect(none.ok && none.value.expiresAt).toBeNull();
    const future = validateCreate({ ...base, expiresAt: '2026-05-02T09:30' }, NOW);
    expect(future.ok && new Date(future.value.expiresAt!).getTime()).toBe(new Date('2026-05-02T09:30').getTime());
    expect(validateCreate({ ...base, expiresAt: '2026-04-30T09:30' }, NOW)).toEqual({
      ok: false,
      fieldErrors: { expiresAt: 'secureFetch.validation.expiryPast' },
    });
  });

  it('a certificate shows at least one hash; without a certificate none is needed', () => {
    expect(validateCreate({ ...base, hashChoice: [] }, NOW)).toEqual({ ok: false, fieldErrors: { hashChoice: 'secureFetch.validation.hashChoice' } });
    expect(validateCreate({ ...base, certificate: false, hashChoice: [] }, NOW).ok).toBe(true);
    expect(validateCreate({ ...base, hashChoice: ['sha256'] }, NOW).ok).toBe(false);
  });
});

describe('Secure Fetch metadata rules', () => {
  const good = { ...EMPTY_METADATA, contactEmail: 'Ana@Example.org', copyrightTypeId: '3' };

  it('needs a contact e-mail and one of the five copyright types; sends only filled fields', () => {
    expect(validateMetadata(EMPTY_METADATA)).toEqual({
      ok: false,
      fieldErrors: { contactEmail: 'validation.required', copyrightTypeId: 'secureFetch.validation.copyrightType' },
    });
    expect(validateMetadata({ ...good, copyrightTypeId: '6' })).toEqual({
      ok: false,
      fieldErrors: { copyrightTypeId: 'secureFetch.validation.copyrightType' },
    });
    expect(validateMetadata({ ...good, contactEmail: 'ana@' })).toEqual({ ok: false, fieldErrors: { contactEmail: 'validation.email' } });
    expect(validateMetadata(good)).toEqual({ ok: true, value: { contactEmail: 'ana@example.org', copyrightTypeId: 3 } });
    expect(validateMetadata({ ...good, author: ' Ana Lima ', isbn: '978-0-306-40615-7', keywords: 'law, contract', website: 'example.org' })).toEqual({
      ok: true,
      value: {
        contactEmail: 'ana@example.org',
        copyrightTypeId: 3,
        author: 'Ana Lima',
        isbn: '978-0-306-40615-7',
        keywords: 'law, contract',
        website: 'example.org',
      },
    });
  });

  it('refuses a bad ISBN, a duplicate or empty keyword, a bad website, emoji and profanity', () => {
    expect(validateMetadata({ ...good, isbn: '978-0-306-40615-8' })).toEqual({ ok: false, fieldErrors: { isbn: 'secureFetch.validation.isbn' } });
    expect(validateMetadata({ ...good, keywords: 'law, Law' })).toEqual({ ok: false, fieldErrors: { keywords: 'secureFetch.validation.duplicateKeyword' } });
    expect(validateMetadata({ ...good, keywords: 'law,,contract' })).toEqual({ ok: false, fieldErrors: { keywords: 'secureFetch.validation.emptyKeyword' } });
    expect(validateMetadata({ ...good, website: 'not a site' })).toEqual({ ok: false, fieldErrors: { website: 'validation.website' } });
    expect(validateMetadata({ ...good, author: 'Ana 😀' })).toEqual({ ok: false, fieldErrors: { author: 'secureFetch.validation.emoji' } });
    expect(validateMetadata({ ...good, publisher: 'merda press' })).toEqual({ ok: false, fieldErrors: { publisher: 'secureFetch.validation.profanity' } });
  });

  it('checks ISBN-10 and ISBN-13 check digits', () => {
    expect(isIsbn('0-306-40615-2')).toBe(true);
    expect(isIsbn('0-8044-2957-X')).toBe(true);
    expect(isIsbn('0-306-40615-3')).toBe(false);
    expect(isIsbn('9780306406157')).toBe(true);
    expect(isIsbn('978030640615')).toBe(false);
  });
});

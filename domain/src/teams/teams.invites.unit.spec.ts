import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { MAX_INVITE_EMAILS, parseInviteEmails } from './teams.invites';

describe('invite addresses', () => {
  it('splits by spaces, commas and semicolons, once each, lower-cased', () => {
    expect(parseInviteEmails(' Ann@Example.org, bob@example.org;carl@example.org  dora@example.org,ann@example.org ')).toEqual([
      'ann@example.org',
      'bob@example.org',
      'carl@example.org',
      'dora@example.org',
    ]);
  });
  it('refuses them all when one is invalid, naming it', () => {
    expect(() => parseInviteEmails('ann@example.org, not-an-address')).toThrowError(
      expect.objectContaining({ code: 'INVALID_EMAILS', data: { invalid: ['not-an-address'] } }),
    );
    expect(() => parseInviteEmails(' ,; ')).toThrowError(expect.objectContaining({ code: 'INVALID_EMAILS' }));
  });
  it('takes at most ten different addresses', () => {
    const ten = Array.from({ length: MAX_INVITE_EMAILS }, (_, i) => `p${i}@example.org`);
    expect(parseInviteEmails(ten.join(' '))).toHaveLength(10);
    expect(() => parseInviteEmails([...ten, 'p10@example.org'].join(';'))).toThrowError(expect.objectContaining({ code: 'TOO_MANY_EMAILS' }));
  });
  it('whatever separators join valid addresses, the same addresses come back', () => {
    const address = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.stringMatching(/^[a-z]{1,8}$/)).map(([u, d]) => `${u}@${d}.org`);
    fc.assert(
      fc.property(
        fc.uniqueArray(address, { minLength: 1, maxLength: MAX_INVITE_EMAILS }),
        fc.array(fc.constantFrom(' ', ',', ';', ', ', ' ; ', '\n')),
        (emails, seps) => {
          const text = emails.map((e, i) => `${i ? (seps[i % Math.max(seps.length, 1)] ?? ' ') : ''}${e.toUpperCase()}`).join('');
          let parsed: string[] = [];
          try {
            parsed = parseInviteEmails(text);
          } catch (e) {
            if (e instanceof DomainError) throw new Error(`refused ${JSON.stringify(text)}: ${e.code}`);
            throw e;
          }
          expect(parsed).toEqual(emails);
        },
      ),
    );
  });
});

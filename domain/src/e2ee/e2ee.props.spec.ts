import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSPHRASE_MIN_LENGTH, passphraseProblems } from './e2ee.rules';

/* Spec §5 passphrase rules, for any text typed. */

describe('the passphrase rules', () => {
  it('accepts exactly: 8 or more characters, a hint that does not hold it, the same confirmation, a change from the current one', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.option(fc.string({ maxLength: 20 })),
        (passphrase, hint, confirmation, current) => {
          const problems = passphraseProblems({ passphrase, hint, confirmation, ...(current === null ? {} : { current }) });
          const valid =
            [...passphrase].length >= PASSPHRASE_MIN_LENGTH &&
            hint.trim() !== '' &&
            !hint.trim().includes(passphrase) &&
            confirmation === passphrase &&
            (current === null || current !== passphrase);
          expect(problems.length === 0).toBe(valid);
        },
      ),
    );
  });

  it('is case sensitive: a confirmation differing only in case does not match, a change of case is a change', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: PASSPHRASE_MIN_LENGTH, maxLength: 30 }).filter((s) => s.toUpperCase() !== s),
        (passphrase) => {
          const upper = passphrase.toUpperCase();
          expect(passphraseProblems({ passphrase, confirmation: upper, hint: 'a hint' })).toContain('mismatch');
          expect(passphraseProblems({ passphrase: upper, confirmation: upper, hint: '-', current: passphrase })).not.toContain('sameAsCurrent');
        },
      ),
    );
  });
});

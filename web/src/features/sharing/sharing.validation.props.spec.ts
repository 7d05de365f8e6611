import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ARCHIVE_NAME_MAX, MAX_RECIPIENTS, recipientsProblem, shortArchiveName } from './sharing.validation';

const OWN = 'owner@example.com';
const local = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/);
const address = fc.tuple(local, fc.constantFrom('example.com', 'mail.example.org', 'x.io')).map(([l, d]) => `${l}@${d}`);
const others = fc.uniqueArray(
  address.filter((a) => a !== OWN),
  { minLength: 1, maxLength: MAX_RECIPIENTS },
);

describe('private share recipients (spec §5)', () => {
  test.prop([others])('1 to 10 distinct valid addresses that are not the sender are accepted', (list) => {
    expect(recipientsProblem(list, OWN)).toBeNull();
  });

  test.prop([others, fc.nat(), fc.boolean()])('the sender own address is refused wherever it stands and however it is cased', (list, at, upper) => {
    const withOwn = [...list.slice(0, MAX_RECIPIENTS - 1)];
    withOwn.splice(at % (withOwn.length + 1), 0, upper ? OWN.toUpperCase() : OWN);
    expect(recipientsProblem(withOwn, OWN)).toBe('sharing.validation.ownEmail');
  });

  test.prop([others, fc.nat(), fc.nat()])('an address given twice (in any case) is refused', (list, from, to) => {
    const short = list.slice(0, MAX_RECIPIENTS - 1);
    const twice = [...short];
    twice.splice(to % (twice.length + 1), 0, short[from % short.length]!.toUpperCase());
    expect(recipientsProblem(twice, OWN)).toBe('sharing.validation.duplicateRecipient');
  });

  test.prop([
    fc.uniqueArray(
      address.filter((a) => a !== OWN),
      { minLength: MAX_RECIPIENTS + 1, maxLength: 30 },
    ),
  ])('more than 10 are refused', (list) => {
    expect(recipientsProblem(list, OWN)).toBe('sharing.validation.tooManyRecipients');
  });
});

describe('archive names (spec §9)', () => {
  test.prop([fc.string({ maxLength: 200, unit: 'grapheme-composite' })])(
    'at most 50 characters kept as they are; longer ones are first 5 + ... + last 5',
    (name) => {
      const chars = [...name];
      const short = shortArchiveName(name);
      if (chars.length <= ARCHIVE_NAME_MAX) expect(short).toBe(name);
      else expect(short).toBe(`${chars.slice(0, 5).join('')}...${chars.slice(-5).join('')}`);
      expect([...short].length).toBeLessThanOrEqual(ARCHIVE_NAME_MAX);
    },
  );
});

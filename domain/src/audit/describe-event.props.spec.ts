import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { allEventDefinitions } from '../shared/all-event-definitions';
import { ACTIVITY_LOCALES, describeEvent } from './describe-event';

const types = allEventDefinitions().map((d) => d.type);

/** Invariant: whatever a stored event holds (old versions, erased fields, junk), its sentence is one non-empty line in every locale. */
test.prop(
  [
    fc.constantFrom(...types, 'NotAnEventType'),
    fc.constantFrom(...ACTIVITY_LOCALES, 'xx'),
    fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
  ],
  { numRuns: 500 },
)('every event reads as one non-empty line whatever its data', (type, locale, data) => {
  const sentence = describeEvent({ type, data }, locale);
  expect(sentence.trim().length).toBeGreaterThan(0);
  expect(sentence).not.toMatch(/[\r\n]/);
});

const DATED: readonly (readonly [string, string])[] = [
  ['UserLocked', 'until'],
  ['UserBlocked', 'until'],
  ['ItemExpirySet', 'expiresAt'],
  ['SubscriptionStarted', 'nextPaymentDate'],
  ['SubscriptionRenewed', 'nextPaymentDate'],
  ['SubscriptionCanceled', 'endDate'],
  ['RenewalFailed', 'graceEndDate'],
  ['SecureFetchCreated', 'expiresAt'],
];
const ZONES = ['UTC', 'Europe/Amsterdam', 'America/Sao_Paulo', 'America/Mexico_City', 'Asia/Kolkata', 'Pacific/Chatham', 'Not/AZone', undefined];

/** Invariant: an instant in a sentence is written for a reader (their language and zone), never as the stored ISO text. */
test.prop(
  [
    fc.constantFrom(...DATED),
    fc.constantFrom(...ACTIVITY_LOCALES),
    fc.constantFrom(...ZONES),
    fc.date({ min: new Date('1990-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
  ],
  {
    numRuns: 300,
  },
)("instants read in the reader's words, never as ISO text", ([type, field], locale, timeZone, date) => {
  const sentence = describeEvent({ type, data: { [field]: date.toISOString() } }, locale, { timeZone });
  expect(sentence).not.toContain(date.toISOString());
  expect(sentence).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  const year = date.getUTCFullYear();
  expect([year - 1, year, year + 1].some((y) => sentence.includes(String(y)))).toBe(true);
});

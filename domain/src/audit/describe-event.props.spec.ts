import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { allEventDefinitions } from '../shared/all-event-definitions';
import { ACTIVITY_LOCALES, describeEvent } from './describe-event';

const types = allEventDefinitions().map((d) => d.type);

/** Invariant: whatever a stored event holds (old versions, erased fields, junk), its sentence is one non-empty line in every locale. */
test.prop([fc.constantFrom(...types, 'NotAnEventType'), fc.constantFrom(...ACTIVITY_LOCALES, 'xx'), fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()))], { numRuns: 500 })(
  'every event reads as one non-empty line whatever its data',
  (type, locale, data) => {
    const sentence = describeEvent({ type, data }, locale);
    expect(sentence.trim().length).toBeGreaterThan(0);
    expect(sentence).not.toMatch(/[\r\n]/);
  },
);

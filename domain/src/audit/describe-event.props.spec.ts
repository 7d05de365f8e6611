import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { allEventDefinitions } from '../shared/all-event-definitions';
import { describeEvent } from './describe-event';

const types = allEventDefinitions().map((d) => d.type);

/** Invariant: whatever a stored event holds (old versions, erased fields, junk), its sentence is one non-empty line. */
test.prop([fc.constantFrom(...types, 'NotAnEventType'), fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()))], { numRuns: 500 })(
  'every event reads as one non-empty line whatever its data',
  (type, data) => {
    const sentence = describeEvent({ type, data }, 'en');
    expect(sentence.trim().length).toBeGreaterThan(0);
    expect(sentence).not.toMatch(/[\r\n]/);
  },
);

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allEventDefinitions } from './all-event-definitions';
import { ERASED, EventRegistry, defineEvent, erasedValue } from './events';

/** Field names that hold personal data wherever they appear in an event. */
const PERSONAL_NAME = /(^|[a-z])(e?mail|email|ip|userAgent|name|firstName|lastName|username|phone|address|passwordHash|reason|to|recipient|secret.*)$/i;
const NOT_PERSONAL = new Set(['template', 'type', 'via', 'method', 'role', 'locale', 'sessionId', 'registrationApp', 'tokenHash', 'codeHash']);

const definitions = allEventDefinitions();

describe('personal data in event schemas', () => {
  it('finds the event definitions', () => {
    expect(definitions.length).toBeGreaterThan(20);
  });

  it('every field that holds personal data is marked personal, so it is sealed and can be erased', () => {
    const unmarked: string[] = [];
    for (const def of definitions) {
      const shape = (def.schema as { shape?: Record<string, unknown> }).shape ?? {};
      for (const [field, schema] of Object.entries(shape)) {
        if (NOT_PERSONAL.has(field) || !PERSONAL_NAME.test(field)) continue;
        // enums, flags and numbers cannot carry a person's data; free text can
        if (!(schema as z.ZodType).safeParse('Ada Lovelace <ada@example.com>').success) continue;
        if (!def.personal?.fields.includes(field)) unmarked.push(`${def.type}.${field}`);
      }
    }
    expect(unmarked).toEqual([]);
  });

  it('marks only fields the schema has, and every erased value still decodes', () => {
    for (const def of definitions.filter((d) => d.personal)) {
      const shape = (def.schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
      for (const field of def.personal!.fields) {
        expect(Object.keys(shape), `${def.type}.${field}`).toContain(field);
        expect(shape[field]!.safeParse(erasedValue(def, field)).success, `${def.type}.${field}`).toBe(true);
      }
    }
  });

  it('processes are handed events without their personal fields', () => {
    const Shown = defineEvent('Shown', z.object({ id: z.string(), email: z.string(), note: z.string().nullable(), tags: z.record(z.string(), z.string()) }), {
      personal: ['email', 'note', 'tags'],
    });
    const registry = new EventRegistry().register(Shown);
    expect(registry.withoutPersonalData('Shown', { id: 'a', email: 'x@y.z', note: 'hi', tags: { a: 'b' } })).toEqual({
      id: 'a',
      email: ERASED,
      note: ERASED,
      tags: {},
    });
  });
});

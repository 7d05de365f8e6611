import * as domain from '@axel/domain';
import type { EventDefinition } from '@axel/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hideSecrets, hideSecretValues, secretFingerprint } from './activity.queries';

/** Every event definition the domain exports. */
const definitions = (Object.values(domain) as unknown[]).filter(
  (v): v is EventDefinition =>
    !!v &&
    typeof v === 'object' &&
    typeof (v as EventDefinition).type === 'string' &&
    (v as EventDefinition).schema instanceof z.ZodType &&
    typeof (v as EventDefinition).version === 'number',
);
const secretOnes = definitions.filter((d) => d.secret?.length);

/** Data holding `value` at every secret path of the definition (two elements for each `*`), beside other fields. */
const dataWith = (definition: EventDefinition, value: string, other: Record<string, unknown>): unknown => {
  const build = (path: readonly string[], base: unknown): unknown => {
    if (path.length === 0) return value;
    const [head, ...rest] = path;
    if (head === '*') return [build(rest, undefined), build(rest, undefined)].map((v) => (v && typeof v === 'object' ? { ...other, ...(v as object) } : v));
    const object = base && typeof base === 'object' ? (base as Record<string, unknown>) : {};
    return { ...object, [head!]: build(rest, object[head!]) };
  };
  let data: unknown = { ...other };
  for (const path of definition.secret!) data = build(path.split('.'), data);
  return data;
};

describe('bearer secrets in events', () => {
  it('the fields that open a share or control an upload are marked secret', () => {
    const marked = (type: string) => definitions.find((d) => d.type === type)?.secret ?? [];
    expect(marked('ShareCreated')).toContain('linkId');
    expect(marked('SecureFetchCreated')).toContain('linkId');
    expect(marked('SecureFetchSubmitted')).toContain('files.*.uploadId');
    for (const type of ['FileAdded', 'QuotaReserved', 'QuotaReleased']) expect(marked(type), type).toContain('uploadId');
    // a new event carrying a link id or an upload id must mark it
    for (const d of definitions) {
      const shape = (d.schema as { shape?: Record<string, unknown> }).shape ?? {};
      for (const field of ['linkId', 'uploadId']) if (field in shape) expect(d.secret ?? [], `${d.type}.${field}`).toContain(field);
    }
  });

  it('every field marked secret, of every event type, reads as a fingerprint that does not hold the value', () => {
    expect(secretOnes.length).toBeGreaterThanOrEqual(6);
    fc.assert(
      fc.property(fc.constantFrom(...secretOnes), fc.uuid(), fc.string(), (definition, secret, note) => {
        // the value also sits in a text and as a key elsewhere in the data
        const data = dataWith(definition, secret, { note: `${note}${secret}`, [secret]: 1 });
        const { data: shown, secrets } = hideSecrets(definition, data);
        expect(secrets.has(secret)).toBe(true);
        const text = JSON.stringify(shown);
        expect(text).not.toContain(secret);
        expect(text).toContain(secretFingerprint(secret));
      }),
    );
  });

  it('a fingerprint is short and never the value', () => {
    fc.assert(
      fc.property(fc.uuid(), (secret) => {
        expect(secretFingerprint(secret)).toMatch(/^\[secret [0-9a-f]{8}\]$/);
        expect(JSON.stringify(hideSecretValues({ state: { [secret]: { linkId: secret, url: `/s/${secret}` } } }, new Set([secret])))).not.toContain(secret);
      }),
    );
  });
});

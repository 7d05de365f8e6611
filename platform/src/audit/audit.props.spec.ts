import { createHash, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainDigest,
  chainEvent,
  eventBytes,
  eventDigest,
  eventText,
  eventTextV2,
  GENESIS_LINK,
  type SealedEvent,
  type StoredEventText,
} from './chain';
import { exportEventLine, exportEventLineV2, EXPORT_FORMAT, verifyExportLines } from './export-format';
import { parseSigningKey, verifyingKey, type AuditSigningKey } from './keys';

const shuffleKeys = (value: unknown, order: number): unknown => {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, order));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const rotated = entries.map((_, i) => entries[(i + order) % entries.length]!);
  return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffleKeys(v, order)]));
};

const json = fc.jsonValue({ maxDepth: 3 });

describe('canonical JSON', () => {
  /** The plain definition, as the format describes it: what the faster writer must equal. */
  const reference = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((v) => reference(v === undefined ? null : v)).join(',')}]`;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
  };

  it('is exactly the plain definition for any value, whatever its strings (escapes, lone surrogates, long ones) and keys', () => {
    const anyString = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme', maxLength: 100 }),
      fc.constantFrom('', '"', '\\', '\u2028', '\ud800', 'a\u0000b', '__proto__', '10', '9'),
    );
    const value = fc
      .jsonValue({ maxDepth: 3, stringUnit: 'binary' })
      .chain((base) =>
        fc.dictionary(anyString, fc.oneof(fc.constant(base), anyString, fc.constant(undefined), fc.array(anyString, { maxLength: 3 })), { maxKeys: 6 }),
      );
    fc.assert(
      fc.property(fc.oneof(value, fc.array(value, { maxLength: 3 })), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
        // the second time reads the key orders it cached the first time
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it('the canonical text of an event is the canonical JSON of its eight members', () => {
    fc.assert(
      fc.property(
        fc.record({
          id: fc.string(),
          stream: fc.string({ unit: 'binary' }),
          revision: fc.nat(),
          position: fc.nat(),
          type: fc.string(),
          schemaVersion: fc.integer(),
          data: json,
          metadata: json,
        }),
        (e) => {
          const text = reference({
            id: e.id,
            stream: e.stream,
            revision: e.revision,
            position: e.position,
            type: e.type,
            schemaVersion: e.schemaVersion,
            data: e.data,
            metadata: e.metadata,
          });
          expect(eventText(e)).toBe(text);
          expect(eventBytes(e).equals(Buffer.from(text, 'utf8'))).toBe(true);
          expect(chainEvent(GENESIS_LINK, e).equals(createHash('sha256').update(GENESIS_LINK).update(Buffer.from(text, 'utf8')).digest())).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the same whatever the order of keys, and reads back as the same value', () => {
    fc.assert(
      fc.property(json, fc.nat(5), (value, order) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffleKeys(value, order))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text).not.toMatch(/[\n\r\t]/);
      }),
    );
  });

  it('sorts keys, writes no whitespace and leaves undefined members out', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x y'], c: { z: undefined, é: 'ü', A: 1.5 } })).toBe('{"a":[true,null,"x y"],"b":1,"c":{"A":1.5,"é":"ü"}}');
  });
});

const seed = 'a1'.repeat(32);
const key = parseSigningKey(seed);

const event = (position: number, data: unknown): SealedEvent => ({
  id: `0190a000-0000-7000-8000-${String(position).padStart(12, '0')}`,
  stream: `user-${position % 3}`,
  revision: position,
  position,
  type: 'Something',
  schemaVersion: 1,
  data,
  metadata: { actorId: 'x', ip: { $pii: 'sealed', v: 1 } },
});

/** An export as the server writes it, with a checkpoint every `every` events and after the last. */
const exportOf = (events: SealedEvent[], every: number, signer: AuditSigningKey = key): string[] => {
  const lines = [
    JSON.stringify({
      kind: EXPORT_FORMAT,
      version: 1,
      keyId: signer.keyId,
      publicKey: signer.publicKeyPem,
      previousPosition: 0,
      previousLink: GENESIS_LINK.toString('hex'),
    }),
  ];
  let link = GENESIS_LINK;
  events.forEach((e, i) => {
    link = chainEvent(link, e);
    lines.push(exportEventLine(e, link));
    if ((i + 1) % every === 0 || i === events.length - 1) {
      lines.push(
        JSON.stringify({
          kind: 'checkpoint',
          upto: e.position,
          link: link.toString('hex'),
          signature: signer.sign(e.position, link).toString('base64'),
          keyId: signer.keyId,
          createdAt: new Date(0).toISOString(),
        }),
      );
    }
  });
  return lines;
};

const eventsArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 25 })
  .chain((positions) => fc.tuple(fc.constant(positions.sort((a, b) => a - b)), fc.array(json, { minLength: positions.length, maxLength: positions.length })))
  .map(([positions, data]) => positions.map((p, i) => event(p, data[i])));

describe('the offline verifier', () => {
  it('accepts an intact export signed by the given key', async () => {
    await fc.assert(
      fc.asyncProperty(eventsArb, fc.integer({ min: 1, max: 10 }), async (events, every) => {
        const result = await verifyExportLines(exportOf(events, every), key);
        expect(result).toMatchObject({ ok: true, events: events.length, checkedUpTo: events.at(-1)!.position, firstBadLine: null });
      }),
      { numRuns: 50 },
    );
  });

  it('names the first bad line when any one event line is edited, dropped, duplicated or moved', async () => {
    await fc.assert(
      fc.asyncProperty(
        eventsArb.filter((e) => e.length >= 2),
        fc.nat(),
        fc.constantFrom('edit', 'drop', 'duplicate', 'swap'),
        async (events, pick, how) => {
          const lines = exportOf(events, 3);
          const eventLines = lines.map((l, i) => [l, i] as const).filter(([l]) => JSON.parse(l).kind === 'event');
          const [line, at] = eventLines[pick % (eventLines.length - 1)]!;
          const tampered = [...lines];
          let expected = at + 1;
          if (how === 'edit') tampered[at] = JSON.stringify({ ...JSON.parse(line), data: { tampered: true } });
          if (how === 'drop') tampered.splice(at, 1);
          if (how === 'duplicate') {
            tampered.splice(at, 0, line);
            expected = at + 2;
          }
          if (how === 'swap') {
            const next = eventLines.find(([, i]) => i > at)!;
            tampered[at] = next[0];
            tampered[next[1]] = line;
          }
          const result = await verifyExportLines(tampered, key);
          expect(result.ok).toBe(false);
          // a dropped line may only show at the next line or at the checkpoint after it
          if (how === 'drop') expect(result.firstBadLine!.line).toBeGreaterThanOrEqual(at + 1);
          else expect(result.firstBadLine!.line).toBe(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses an export signed by another key, and one whose last events no checkpoint covers', async () => {
    const events = [event(10, 1), event(20, 2), event(30, 3)];
    const other = verifyingKey(generateKeyPairSync('ed25519').publicKey);
    const wrongKey = await verifyExportLines(exportOf(events, 3), other);
    expect(wrongKey.firstBadLine).toEqual({ line: 5, reason: expect.stringContaining('signed by key') });
    const cut = exportOf(events, 2).slice(0, -1);
    expect((await verifyExportLines(cut, key)).firstBadLine).toEqual({ line: 5, reason: 'no checkpoint signs the events from here on' });
  });

  it('accepts checkpoints signed by any listed key (a rotation inside the export), and names a key not listed', async () => {
    const retired = parseSigningKey('b2'.repeat(32));
    const events = [event(10, 1), event(20, 2), event(30, 3), event(40, 4)];
    const byOld = exportOf(events.slice(0, 2), 2, retired);
    let link = GENESIS_LINK;
    for (const e of events.slice(0, 2)) link = chainEvent(link, e);
    const lines = [...byOld];
    for (const e of events.slice(2)) {
      link = chainEvent(link, e);
      lines.push(exportEventLine(e, link));
    }
    lines.push(
      JSON.stringify({
        kind: 'checkpoint',
        upto: 40,
        link: link.toString('hex'),
        signature: key.sign(40, link).toString('base64'),
        keyId: key.keyId,
        createdAt: new Date(0).toISOString(),
      }),
    );
    expect(await verifyExportLines(lines, [key, retired])).toMatchObject({ ok: true, events: 4, checkpoints: 2, signedBy: [retired.keyId, key.keyId] });
    expect((await verifyExportLines(lines, key)).firstBadLine).toEqual({
      line: 4,
      reason: `checkpoint at 20 is signed by key ${retired.keyId}, not by ${key.keyId}`,
    });
    // without --key: the keys the header lists
    const header = { ...JSON.parse(lines[0]!), keys: [key, retired].map((k) => ({ keyId: k.keyId, publicKey: k.publicKeyPem })) };
    expect(await verifyExportLines([JSON.stringify(header), ...lines.slice(1)])).toMatchObject({ ok: true, selfDeclaredKey: true });
    expect((await verifyExportLines(lines)).ok).toBe(false);
  });

  it('refuses a checkpoint whose signature was forged for a rewritten chain', async () => {
    const lines = exportOf([event(10, 1), event(20, 2)], 2);
    const forged = { ...JSON.parse(lines[3]!), signature: Buffer.alloc(64, 1).toString('base64') };
    const result = await verifyExportLines([...lines.slice(0, 3), JSON.stringify(forged)], key);
    expect(result.firstBadLine).toEqual({ line: 4, reason: 'checkpoint at 20 has a bad signature' });
  });
});

describe('chain version 2', () => {
  it('hashes the canonical text: eight fields on their own lines, stream and type as JSON strings, the stored texts as they are', () => {
    const e: StoredEventText = {
      position: 7,
      id: 'id-1',
      stream: 'a"b\nc',
      revision: 2,
      type: 'T',
      schemaVersion: 1,
      dataText: '{"a": 1.50}',
      metadataText: '{}',
    };
    expect(eventTextV2(e)).toBe('7\nid-1\n"a\\"b\\nc"\n2\n"T"\n1\n{"a": 1.50}\n{}');
    const d = createHash('sha256').update(eventTextV2(e), 'utf8').digest();
    expect(eventDigest(e).equals(d)).toBe(true);
    expect(
      chainDigest(GENESIS_LINK, d).equals(
        createHash('sha256')
          .update(Buffer.concat([GENESIS_LINK, d]))
          .digest(),
      ),
    ).toBe(true);
    // no text of a field can pass for another split of the fields
    expect(eventDigest({ ...e, stream: 'a"b', type: 'c\n"T' }).equals(d)).toBe(false);
  });

  /** Texts as PostgreSQL prints jsonb: `, ` and `: ` between members, and a number written with a trailing zero. */
  const pgText = (value: unknown): string => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return `${value}.0`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(pgText).join(', ')}]`;
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pgText(v)}`)
      .join(', ')}}`;
  };
  const v2Event = (position: number, data: unknown): StoredEventText => ({
    id: `0190a000-0000-7000-8000-${String(position).padStart(12, '0')}`,
    stream: `user-${position % 3}`,
    revision: position,
    position,
    type: 'Something',
    schemaVersion: 1,
    dataText: pgText(data),
    metadataText: pgText({ actorId: 'x', ip: { $pii: 'sealed', v: 1 } }),
  });
  const v1Event = (e: StoredEventText): SealedEvent => ({ ...e, data: JSON.parse(e.dataText), metadata: JSON.parse(e.metadataText) });

  /** An export whose first `v1` events were sealed with chain version 1, the rest with version 2, a checkpoint every `every`. */
  const exportV2 = (events: StoredEventText[], every: number, v1 = 0): string[] => {
    const lines = [
      JSON.stringify({
        kind: EXPORT_FORMAT,
        version: 2,
        keyId: key.keyId,
        publicKey: key.publicKeyPem,
        previousPosition: 0,
        previousLink: GENESIS_LINK.toString('hex'),
      }),
    ];
    let link = GENESIS_LINK;
    events.forEach((e, i) => {
      const chain = i < v1 ? 1 : 2;
      link = chain === 1 ? chainEvent(link, v1Event(e)) : chainDigest(link, eventDigest(e));
      lines.push(chain === 1 ? exportEventLine(v1Event(e), link) : exportEventLineV2(e, link));
      if ((i + 1) % every === 0 || i === events.length - 1 || i === v1 - 1) {
        const signature = key.sign(e.position, link, chain).toString('base64');
        lines.push(
          JSON.stringify({
            kind: 'checkpoint',
            ...(chain === 2 ? { chain } : {}),
            upto: e.position,
            link: link.toString('hex'),
            signature,
            keyId: key.keyId,
            createdAt: new Date(0).toISOString(),
          }),
        );
      }
    });
    return lines;
  };
  const v2Arb = fc
    .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 20 })
    .chain((positions) => fc.tuple(fc.constant(positions.sort((a, b) => a - b)), fc.array(json, { minLength: positions.length, maxLength: positions.length })))
    .map(([positions, data]) => positions.map((p, i) => v2Event(p, data[i])));

  it('accepts an intact export, chain version 1 then 2 inside it', async () => {
    await fc.assert(
      fc.asyncProperty(v2Arb, fc.integer({ min: 1, max: 6 }), fc.nat(), async (events, every, v1) => {
        const result = await verifyExportLines(exportV2(events, every, v1 % events.length), key);
        expect(result).toMatchObject({ ok: true, events: events.length, checkedUpTo: events.at(-1)!.position, firstBadLine: null });
      }),
      { numRuns: 50 },
    );
  });

  it('names the line when an event shows other values than its texts, a text or a field is edited, or a line is moved', async () => {
    await fc.assert(
      fc.asyncProperty(v2Arb, fc.nat(), fc.constantFrom('data', 'dataText', 'metadataText', 'stream', 'chain', 'swap'), async (events, pick, how) => {
        const lines = exportV2(events, 4);
        const eventLines = lines.map((l, i) => [l, i] as const).filter(([l]) => JSON.parse(l).kind === 'event');
        const [line, at] = eventLines[pick % (eventLines.length - 1)]!;
        const o = JSON.parse(line);
        const tampered = [...lines];
        if (how === 'data') tampered[at] = JSON.stringify({ ...o, data: { tampered: true } });
        if (how === 'dataText') tampered[at] = JSON.stringify({ ...o, dataText: `${o.dataText} ` });
        if (how === 'metadataText') tampered[at] = JSON.stringify({ ...o, metadataText: o.metadataText.replace('sealed', 'other') });
        if (how === 'stream') tampered[at] = JSON.stringify({ ...o, stream: `${o.stream}\n` });
        if (how === 'chain') tampered[at] = JSON.stringify({ ...o, chain: 1 });
        if (how === 'swap') {
          const next = eventLines.find(([, i]) => i > at)!;
          tampered[at] = next[0];
          tampered[next[1]] = line;
        }
        const result = await verifyExportLines(tampered, key);
        expect(result.ok).toBe(false);
        expect(result.firstBadLine!.line).toBe(at + 1);
      }),
      { numRuns: 100 },
    );
  });

  it('a checkpoint signs its chain version: the same checkpoint presented as version 1 does not hold', async () => {
    const lines = exportV2([v2Event(10, 1), v2Event(20, { a: 2 })], 2);
    const checkpoint = JSON.parse(lines[3]!);
    expect(checkpoint.chain).toBe(2);
    delete checkpoint.chain;
    expect((await verifyExportLines([...lines.slice(0, 3), JSON.stringify(checkpoint)], key)).firstBadLine).toEqual({
      line: 4,
      reason: 'checkpoint at 20 has a bad signature',
    });
    // version 1 exports know no chain version 2
    const v1Header = JSON.stringify({ ...JSON.parse(lines[0]!), version: 1 });
    expect((await verifyExportLines([v1Header, ...lines.slice(1)], key)).firstBadLine).toEqual({ line: 2, reason: 'malformed event' });
  });
});

import { createHash, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainEvent, eventBytes, eventText, GENESIS_LINK, type SealedEvent } from './chain';
import { exportEventLine, EXPORT_FORMAT, verifyExportLines } from './export-format';
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
    const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.constantFrom('', '"', '\\', '\u2028', '\ud800', 'a\u0000b', '__proto__', '10', '9'));
    const value = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).chain((base) =>
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
        fc.record({ id: fc.string(), stream: fc.string({ unit: 'binary' }), revision: fc.nat(), position: fc.nat(), type: fc.string(), schemaVersion: fc.integer(), data: json, metadata: json }),
        (e) => {
          const text = reference({ id: e.id, stream: e.stream, revision: e.revision, position: e.position, type: e.type, schemaVersion: e.schemaVersion, data: e.data, metadata: e.metadata });
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
  const lines = [JSON.stringify({ kind: EXPORT_FORMAT, version: 1, keyId: signer.keyId, publicKey: signer.publicKeyPem, previousPosition: 0, previousLink: GENESIS_LINK.toString('hex') })];
  let link = GENESIS_LINK;
  events.forEach((e, i) => {
    link = chainEvent(link, e);
    lines.push(exportEventLine(e, link));
    if ((i + 1) % every === 0 || i === events.length - 1) {
      lines.push(JSON.stringify({ kind: 'checkpoint', upto: e.position, link: link.toString('hex'), signature: signer.sign(e.position, link).toString('base64'), keyId: signer.keyId, createdAt: new Date(0).toISOString() }));
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
      fc.asyncProperty(eventsArb.filter((e) => e.length >= 2), fc.nat(), fc.constantFrom('edit', 'drop', 'duplicate', 'swap'), async (events, pick, how) => {
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
      }),
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
    lines.push(JSON.stringify({ kind: 'checkpoint', upto: 40, link: link.toString('hex'), signature: key.sign(40, link).toString('base64'), keyId: key.keyId, createdAt: new Date(0).toISOString() }));
    expect(await verifyExportLines(lines, [key, retired])).toMatchObject({ ok: true, events: 4, checkpoints: 2, signedBy: [retired.keyId, key.keyId] });
    expect((await verifyExportLines(lines, key)).firstBadLine).toEqual({ line: 4, reason: `checkpoint at 20 is signed by key ${retired.keyId}, not by ${key.keyId}` });
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

import { createHash } from 'node:crypto';

/** Strings JSON.stringify writes as they are between quotes (no escape, no lone surrogate). */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const quote = (s: string): string => (s.length < 64 && PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** Quoted object keys, cached: events of one type repeat the same few keys millions of times. */
const quotedKeys = new Map<string, string>();
const quoteKey = (k: string): string => {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
};

/** Sorted key lists by the key order an object came with (JSON.parse keeps the stored order). */
const sortedKeyLists = new Map<string, string[]>();
const sortedKeys = (record: Record<string, unknown>): string[] => {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  // quoted keys joined by commas name the key list unambiguously
  let shape = quoteKey(keys[0]!);
  for (let i = 1; i < keys.length; i++) shape += `,${quoteKey(keys[i]!)}`;
  let sorted = sortedKeyLists.get(shape);
  if (sorted === undefined) {
    sorted = [...keys].sort();
    if (sortedKeyLists.size < 10_000) sortedKeyLists.set(shape, sorted);
  }
  return sorted;
};

const write = (value: unknown): string => {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('canonical JSON has no non-finite numbers');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const v = value[i];
          out += v === undefined ? 'null' : write(v);
        }
        return `${out}]`;
      }
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const record = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const k of sortedKeys(record)) {
        const v = record[k];
        if (v === undefined) continue;
        out += first ? `${quoteKey(k)}:${write(v)}` : `,${quoteKey(k)}:${write(v)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new Error(`canonical JSON cannot hold a ${typeof value}`);
  }
};

/**
 * Canonical JSON, the byte form every link of the audit chain hashes (version 1):
 * - objects: keys sorted by UTF-16 code unit order (JavaScript's default sort), members with an
 *   `undefined` value left out; arrays keep their order;
 * - no whitespace anywhere; strings, numbers, booleans and null written as `JSON.stringify` writes
 *   them (numbers in ECMAScript's shortest form, strings with its escapes);
 * - the text encoded as UTF-8.
 * This is RFC 8785 (JCS) for the values an event can hold, so an auditor can re-implement it in
 * any language from this description.
 */
export const canonicalJson = (value: unknown): string => write(value);

/** An event as stored in the log (personal fields still sealed): what the chain covers. */
export interface SealedEvent {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: unknown;
}

/**
 * The canonical text of one event: canonical JSON of exactly these eight members (written here in
 * their sorted order: data, id, metadata, position, revision, schemaVersion, stream, type).
 */
export const eventText = (e: SealedEvent): string =>
  e.data === undefined || e.metadata === undefined
    ? canonicalJson({ id: e.id, stream: e.stream, revision: e.revision, position: e.position, type: e.type, schemaVersion: e.schemaVersion, data: e.data, metadata: e.metadata })
    : `{"data":${write(e.data)},"id":${write(e.id)},"metadata":${write(e.metadata)},"position":${write(e.position)},"revision":${write(e.revision)},"schemaVersion":${write(e.schemaVersion)},"stream":${write(e.stream)},"type":${write(e.type)}}`;

/** The canonical bytes of one event: its canonical text as UTF-8. */
export const eventBytes = (e: SealedEvent): Buffer => Buffer.from(eventText(e), 'utf8');

export const LINK_BYTES = 32;
/** The link before the first event of the log. */
export const GENESIS_LINK: Buffer = Buffer.alloc(LINK_BYTES);

/** link(n) = SHA-256(link(n-1) || canonical bytes of event n). */
export const nextLink = (previous: Buffer, bytes: Buffer): Buffer => createHash('sha256').update(previous).update(bytes).digest();

export const chainEvent = (previous: Buffer, event: SealedEvent): Buffer => createHash('sha256').update(previous).update(eventText(event), 'utf8').digest();

/** The bytes a checkpoint's Ed25519 signature covers: the position it seals up to and its link. */
export const checkpointMessage = (uptoPosition: number, link: Buffer): Buffer =>
  Buffer.from(`axel-audit-checkpoint/v1\n${uptoPosition}\n${link.toString('hex')}`, 'utf8');

import { createHash } from 'node:crypto';

/** Strings JSON.stringify writes as they are between quotes (no escape, no lone surrogate). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON.stringify escapes
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
 * Canonical JSON, the byte form chain version 1 hashes per event (version 2 compares the values
 * an export shows with it):
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
    ? canonicalJson({
        id: e.id,
        stream: e.stream,
        revision: e.revision,
        position: e.position,
        type: e.type,
        schemaVersion: e.schemaVersion,
        data: e.data,
        metadata: e.metadata,
      })
    : `{"data":${write(e.data)},"id":${write(e.id)},"metadata":${write(e.metadata)},"position":${write(e.position)},"revision":${write(e.revision)},"schemaVersion":${write(e.schemaVersion)},"stream":${write(e.stream)},"type":${write(e.type)}}`;

/** The canonical bytes of one event: its canonical text as UTF-8. */
export const eventBytes = (e: SealedEvent): Buffer => Buffer.from(eventText(e), 'utf8');

export const LINK_BYTES = 32;
/** The link before the first event of the log. */
export const GENESIS_LINK: Buffer = Buffer.alloc(LINK_BYTES);

/**
 * How a stretch of the chain was computed. Version 1 hashes each event's canonical JSON into its
 * link; version 2 (written since) hashes each event's canonical text into a digest, and the
 * digest into its link. Every checkpoint names the version of the events it seals.
 */
export type ChainVersion = 1 | 2;
/** The version new checkpoints are sealed with. */
export const CHAIN_VERSION: ChainVersion = 2;

/** Version 1: the link after `previous` for one event, link(n) = SHA-256(link(n-1) || canonical bytes of event n). */
export const chainEvent = (previous: Buffer, event: SealedEvent): Buffer => createHash('sha256').update(previous).update(eventText(event), 'utf8').digest();

/**
 * An event for chain version 2: its fields, and its `data` and `metadata` as the texts PostgreSQL
 * prints for the stored jsonb values (`data::text`), which keep numbers as stored (`1.50`).
 */
export interface StoredEventText {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly dataText: string;
  readonly metadataText: string;
}

/**
 * Version 2 canonical text of one event: eight fields joined by a line feed (U+000A), none of
 * which can hold an unescaped line feed:
 * `position LF id LF json(stream) LF revision LF json(type) LF schemaVersion LF data-text LF metadata-text`.
 * Integers in decimal, the id as the lowercase UUID, `json(s)` the JSON string literal of `s` as
 * both `JSON.stringify` and PostgreSQL's `to_json(s)::text` write it (only `"`, `\` and the
 * control characters escaped), the texts as PostgreSQL's jsonb output writes them.
 */
export const eventTextV2 = (e: StoredEventText): string =>
  `${e.position}\n${e.id}\n${JSON.stringify(e.stream)}\n${e.revision}\n${JSON.stringify(e.type)}\n${e.schemaVersion}\n${e.dataText}\n${e.metadataText}`;

/** Version 2: d(n) = SHA-256(canonical text of event n as UTF-8). */
export const eventDigest = (e: StoredEventText): Buffer => createHash('sha256').update(eventTextV2(e), 'utf8').digest();

/** Version 2: link(n) = SHA-256(link(n-1) || d(n)), 64 bytes in. */
export const chainDigest = (previous: Buffer, digest: Buffer): Buffer => createHash('sha256').update(previous).update(digest).digest();

/**
 * The bytes a checkpoint's Ed25519 signature covers: the chain version, the position it seals up
 * to and its link (`axel-audit-checkpoint/v2\n<position>\n<link hex>`; version 1 checkpoints say `v1`).
 */
export const checkpointMessage = (uptoPosition: number, link: Buffer, chain: ChainVersion = 1): Buffer =>
  Buffer.from(`axel-audit-checkpoint/v${chain}\n${uptoPosition}\n${link.toString('hex')}`, 'utf8');

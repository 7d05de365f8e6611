import { createHash } from 'node:crypto';

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
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON has no non-finite numbers');
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new Error(`canonical JSON cannot hold a ${typeof value}`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
};

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

/** The canonical bytes of one event: canonical JSON of exactly these eight members. */
export const eventBytes = (e: SealedEvent): Buffer =>
  Buffer.from(
    canonicalJson({
      id: e.id,
      stream: e.stream,
      revision: e.revision,
      position: e.position,
      type: e.type,
      schemaVersion: e.schemaVersion,
      data: e.data,
      metadata: e.metadata,
    }),
    'utf8',
  );

export const LINK_BYTES = 32;
/** The link before the first event of the log. */
export const GENESIS_LINK: Buffer = Buffer.alloc(LINK_BYTES);

/** link(n) = SHA-256(link(n-1) || canonical bytes of event n). */
export const nextLink = (previous: Buffer, bytes: Buffer): Buffer => createHash('sha256').update(previous).update(bytes).digest();

export const chainEvent = (previous: Buffer, event: SealedEvent): Buffer => nextLink(previous, eventBytes(event));

/** The bytes a checkpoint's Ed25519 signature covers: the position it seals up to and its link. */
export const checkpointMessage = (uptoPosition: number, link: Buffer): Buffer =>
  Buffer.from(`axel-audit-checkpoint/v1\n${uptoPosition}\n${link.toString('hex')}`, 'utf8');

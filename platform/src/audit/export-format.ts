import {
  canonicalJson,
  chainDigest,
  chainEvent,
  eventDigest,
  GENESIS_LINK,
  LINK_BYTES,
  type ChainVersion,
  type SealedEvent,
  type StoredEventText,
} from './chain';
import { keyById, keyList, parsePublicKey, verifyCheckpoint, type AuditKeys, type AuditVerifyingKey } from './keys';

/**
 * An audit export is JSON Lines: a header, then the events in position order each with its chain
 * link, with a checkpoint line after the event it seals up to. The last line is a checkpoint, so
 * every event is covered by a signature. Nothing here needs a server or a database.
 *
 * Version 2 of the format names each event's and checkpoint's chain version (`"chain": 2`; absent
 * means 1) and carries, for chain version 2 events, `dataText` and `metadataText`: the exact texts
 * the chain hashed, whose parsed values must equal the `data` and `metadata` shown. Version 1
 * exports (chain version 1 throughout) still verify.
 */
export const EXPORT_FORMAT = 'axel-audit-export';
export const EXPORT_VERSION = 2;
export const EXPORT_VERSIONS: readonly number[] = [1, 2];

export interface ExportHeader {
  readonly kind: typeof EXPORT_FORMAT;
  readonly version: number;
  readonly keyId: string;
  readonly publicKey: string;
  /** Position of the event before the first one exported (0 at the start of the log) and its link. */
  readonly previousPosition: number;
  readonly previousLink: string;
  /** Every public key the export's checkpoints may be signed by (the current one and those it replaced). */
  readonly keys?: readonly { readonly keyId: string; readonly publicKey: string }[];
}

export interface ExportEventLine extends SealedEvent {
  readonly kind: 'event';
  /** Absent for chain version 1. */
  readonly chain?: ChainVersion;
  readonly dataText?: string;
  readonly metadataText?: string;
  readonly link: string;
}

export interface ExportCheckpointLine {
  readonly kind: 'checkpoint';
  /** Absent for chain version 1. */
  readonly chain?: ChainVersion;
  readonly upto: number;
  readonly link: string;
  readonly signature: string;
  readonly keyId: string;
  readonly createdAt: string;
}

export const exportEventLine = (e: SealedEvent, link: Buffer): string =>
  JSON.stringify({
    kind: 'event',
    position: e.position,
    id: e.id,
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    schemaVersion: e.schemaVersion,
    data: e.data,
    metadata: e.metadata,
    link: link.toString('hex'),
  } satisfies ExportEventLine);

/** A chain version 2 event line, as the server writes it (data and metadata shown parsed, and as the texts hashed). */
export const exportEventLineV2 = (e: StoredEventText, link: Buffer): string =>
  JSON.stringify({
    kind: 'event',
    chain: 2,
    position: e.position,
    id: e.id,
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    schemaVersion: e.schemaVersion,
    data: JSON.parse(e.dataText) as unknown,
    metadata: JSON.parse(e.metadataText) as unknown,
    dataText: e.dataText,
    metadataText: e.metadataText,
    link: link.toString('hex'),
  } satisfies ExportEventLine);

export interface OfflineVerification {
  readonly ok: boolean;
  readonly events: number;
  readonly checkpoints: number;
  /** The last position a valid signature covers (0 when none). */
  readonly checkedUpTo: number;
  readonly keyId: string | null;
  /** The keys that signed the export's checkpoints, in the order first met. */
  readonly signedBy: readonly string[];
  /** Whether the key came from the export itself rather than from the auditor. */
  readonly selfDeclaredKey: boolean;
  readonly firstBadLine: { readonly line: number; readonly reason: string } | null;
}

const isHexLink = (v: unknown): v is string => typeof v === 'string' && v.length === LINK_BYTES * 2 && /^[0-9a-f]+$/.test(v);
const isPosition = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const asEvent = (o: Record<string, unknown>): SealedEvent | null =>
  typeof o.id === 'string' &&
  typeof o.stream === 'string' &&
  isPosition(o.revision) &&
  isPosition(o.position) &&
  typeof o.type === 'string' &&
  typeof o.schemaVersion === 'number' &&
  'data' in o &&
  'metadata' in o
    ? {
        id: o.id,
        stream: o.stream,
        revision: o.revision,
        position: o.position,
        type: o.type,
        schemaVersion: o.schemaVersion,
        data: o.data,
        metadata: o.metadata,
      }
    : null;

/** The parsed value of a text, or undefined when it is not JSON. */
const parsedText = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The link of a chain version 2 event line, or why it cannot be computed: the texts must be JSON
 * whose values are the data and metadata shown.
 */
const linkV2 = (previous: Buffer, event: SealedEvent, o: Record<string, unknown>): Buffer | string => {
  if (typeof o.dataText !== 'string' || typeof o.metadataText !== 'string') return 'malformed event: chain version 2 needs dataText and metadataText';
  for (const [text, shown, name] of [
    [o.dataText, event.data, 'data'],
    [o.metadataText, event.metadata, 'metadata'],
  ] as const) {
    const parsed = parsedText(text);
    if (parsed === undefined || canonicalJson(parsed) !== canonicalJson(shown))
      return `event at position ${event.position} shows ${name} that is not its ${name}Text`;
  }
  return chainDigest(previous, eventDigest({ ...event, dataText: o.dataText, metadataText: o.metadataText }));
};

/**
 * Checks an export line by line: the header, every event's link recomputed from the previous one,
 * positions strictly increasing, every checkpoint's link and Ed25519 signature, and that the last
 * event is covered by a checkpoint. With `key`, checkpoints must be signed by it; without, by the
 * key the export declares (which proves integrity, not origin).
 */
export const verifyExportLines = async (lines: AsyncIterable<string> | Iterable<string>, key?: AuditKeys): Promise<OfflineVerification> => {
  let lineNo = 0;
  let events = 0;
  let checkpoints = 0;
  let checkedUpTo = 0;
  let previous = GENESIS_LINK;
  let lastPosition = 0;
  let firstUncovered: number | null = null;
  let verifiers: readonly AuditVerifyingKey[] | undefined = key === undefined ? undefined : keyList(key);
  const signedBy: string[] = [];
  let header: ExportHeader | undefined;
  let exportVersion = 1;
  /** A line's chain version: named in version 2 exports (absent means 1), always 1 before. */
  const chainOf = (o: Record<string, unknown>): ChainVersion | null => {
    if (o.chain === undefined) return 1;
    if (exportVersion < 2 || (o.chain !== 1 && o.chain !== 2)) return null;
    return o.chain;
  };
  const result = (firstBadLine: OfflineVerification['firstBadLine']): OfflineVerification => ({
    ok: firstBadLine === null,
    events,
    checkpoints,
    checkedUpTo,
    keyId: verifiers?.[0]?.keyId ?? null,
    signedBy,
    selfDeclaredKey: key === undefined,
    firstBadLine,
  });
  const bad = (reason: string, line = lineNo) => result({ line, reason });

  for await (const raw of lines) {
    lineNo++;
    if (raw.trim() === '') return bad('empty line');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return bad('not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('not a JSON object');
    const o = parsed as Record<string, unknown>;
    if (!header) {
      if (o.kind !== EXPORT_FORMAT || !EXPORT_VERSIONS.includes(o.version as number))
        return bad(`not an ${EXPORT_FORMAT} version ${EXPORT_VERSIONS.join(' or ')} header`);
      if (!isHexLink(o.previousLink) || !isPosition(o.previousPosition) || typeof o.publicKey !== 'string') return bad('malformed header');
      header = o as unknown as ExportHeader;
      exportVersion = o.version as number;
      previous = Buffer.from(header.previousLink, 'hex');
      lastPosition = header.previousPosition;
      if (!verifiers) {
        try {
          const declared = [parsePublicKey(header.publicKey)];
          for (const k of Array.isArray(o.keys) ? (o.keys as { publicKey?: unknown }[]) : []) {
            const other = parsePublicKey(String(k.publicKey));
            if (!declared.some((d) => d.keyId === other.keyId)) declared.push(other);
          }
          verifiers = declared;
        } catch {
          return bad('the header holds no usable Ed25519 public key');
        }
      }
      continue;
    }
    if (o.kind === 'event') {
      const event = asEvent(o);
      const chain = chainOf(o);
      if (!event || !isHexLink(o.link) || chain === null) return bad('malformed event');
      if (event.position <= lastPosition) return bad(`position ${event.position} does not follow ${lastPosition}: events were reordered, repeated or inserted`);
      const link = chain === 1 ? chainEvent(previous, event) : linkV2(previous, event, o);
      if (typeof link === 'string') return bad(link);
      if (link.toString('hex') !== o.link)
        return bad(`event at position ${event.position} does not match its link: it was edited, or an event before it was removed or inserted`);
      previous = link;
      lastPosition = event.position;
      events++;
      firstUncovered ??= lineNo;
      continue;
    }
    if (o.kind === 'checkpoint') {
      const chain = chainOf(o);
      if (!isPosition(o.upto) || !isHexLink(o.link) || typeof o.signature !== 'string' || typeof o.keyId !== 'string' || chain === null)
        return bad('malformed checkpoint');
      if (o.upto !== lastPosition) return bad(`checkpoint seals up to ${o.upto}, but the last event before it is at ${lastPosition}`);
      if (o.link !== previous.toString('hex')) return bad(`checkpoint at ${o.upto} does not match the chain: events before it were altered`);
      const signer = keyById(verifiers!, o.keyId);
      if (!signer) return bad(`checkpoint at ${o.upto} is signed by key ${o.keyId}, not by ${verifiers!.map((k) => k.keyId).join(' or ')}`);
      if (!verifyCheckpoint(signer, o.upto, previous, Buffer.from(o.signature, 'base64'), chain)) return bad(`checkpoint at ${o.upto} has a bad signature`);
      if (!signedBy.includes(signer.keyId)) signedBy.push(signer.keyId);
      checkpoints++;
      checkedUpTo = o.upto;
      firstUncovered = null;
      continue;
    }
    return bad(`unknown line kind ${JSON.stringify(o.kind)}`);
  }
  if (!header) return bad('no header', 1);
  if (firstUncovered !== null) return bad('no checkpoint signs the events from here on', firstUncovered);
  return result(null);
};

import { chainEvent, GENESIS_LINK, LINK_BYTES, type SealedEvent } from './chain';
import { keyById, keyList, parsePublicKey, verifyCheckpoint, type AuditKeys, type AuditVerifyingKey } from './keys';

/**
 * An audit export is JSON Lines: a header, then the events in position order each with its chain
 * link, with a checkpoint line after the event it seals up to. The last line is a checkpoint, so
 * every event is covered by a signature. Nothing here needs a server or a database.
 */
export const EXPORT_FORMAT = 'axel-audit-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  readonly kind: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
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
  readonly link: string;
}

export interface ExportCheckpointLine {
  readonly kind: 'checkpoint';
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
      if (o.kind !== EXPORT_FORMAT || o.version !== EXPORT_VERSION) return bad(`not an ${EXPORT_FORMAT} version ${EXPORT_VERSION} header`);
      if (!isHexLink(o.previousLink) || !isPosition(o.previousPosition) || typeof o.publicKey !== 'string') return bad('malformed header');
      header = o as unknown as ExportHeader;
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
      if (!event || !isHexLink(o.link)) return bad('malformed event');
      if (event.position <= lastPosition) return bad(`position ${event.position} does not follow ${lastPosition}: events were reordered, repeated or inserted`);
      const link = chainEvent(previous, event);
      if (link.toString('hex') !== o.link) return bad(`event at position ${event.position} does not match its link: it was edited, or an event before it was removed or inserted`);
      previous = link;
      lastPosition = event.position;
      events++;
      firstUncovered ??= lineNo;
      continue;
    }
    if (o.kind === 'checkpoint') {
      if (!isPosition(o.upto) || !isHexLink(o.link) || typeof o.signature !== 'string' || typeof o.keyId !== 'string') return bad('malformed checkpoint');
      if (o.upto !== lastPosition) return bad(`checkpoint seals up to ${o.upto}, but the last event before it is at ${lastPosition}`);
      if (o.link !== previous.toString('hex')) return bad(`checkpoint at ${o.upto} does not match the chain: events before it were altered`);
      const signer = keyById(verifiers!, o.keyId);
      if (!signer) return bad(`checkpoint at ${o.upto} is signed by key ${o.keyId}, not by ${verifiers!.map((k) => k.keyId).join(' or ')}`);
      if (!verifyCheckpoint(signer, o.upto, previous, Buffer.from(o.signature, 'base64'))) return bad(`checkpoint at ${o.upto} has a bad signature`);
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

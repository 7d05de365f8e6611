import fs from 'node:fs';
import path from 'node:path';
import type { ChainVersion } from './chain';

/**
 * The record of every checkpoint the sealer signed, kept beside the signing key
 * (`DATA_DIR/audit-checkpoints.jsonl`), out of the database's reach: one JSON line per signed
 * checkpoint (`{"kind":"checkpoint","upto","link","signature","keyId","chain"}`) and one per
 * anchor sent to the AXEL chain (`{"kind":"anchor","upto","link","txid"}`), and one per restore of
 * the database staff accepted (`{"kind":"restore","upto","link","supersededUpTo","reason",
 * "acceptedAt","operator"}`: the checkpoints and anchors above `upto` written before it are left
 * behind, those after it are expected again). Lines are only ever
 * appended, each written with fsync before the checkpoint's transaction commits: a checkpoint in
 * the database is always in the record, and a record line may stand alone only for the batch a
 * crash interrupted between the fsync and the commit (the sealer then writes that batch again,
 * with the recorded signature, when the stored events re-chain to the recorded link; otherwise the
 * log was rewritten and it refuses to seal).
 */
export const AUDIT_RECORD_FILE = 'audit-checkpoints.jsonl';

export interface RecordedCheckpoint {
  readonly upto: number;
  readonly link: Buffer;
  readonly signature: Buffer;
  readonly keyId: string;
  readonly chain: ChainVersion;
}

export interface RecordedAnchor {
  readonly upto: number;
  readonly link: Buffer;
  readonly txid: string;
}

/**
 * Staff accepted a database restored from a backup (`npm run audit -- accept-restore`): the log now
 * goes on from `upto` (the restored database's last checkpoint, sealing `link`), and what the
 * record held after it, up to `supersededUpTo`, is kept in the file but no longer expected.
 */
export interface RecordedRestore {
  readonly upto: number;
  readonly link: Buffer;
  readonly supersededUpTo: number;
  readonly reason: string;
  readonly acceptedAt: string;
  readonly operator: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

const parseRestore = (v: Record<string, unknown>): (RecordedRestore & { kind: 'restore' }) | null => {
  if (!Number.isSafeInteger(v.upto) || (v.upto as number) < 0 || !Number.isSafeInteger(v.supersededUpTo) || typeof v.link !== 'string' || !HEX64.test(v.link))
    return null;
  if (typeof v.reason !== 'string' || typeof v.acceptedAt !== 'string' || typeof v.operator !== 'string') return null;
  return {
    kind: 'restore',
    upto: v.upto as number,
    link: Buffer.from(v.link, 'hex'),
    supersededUpTo: v.supersededUpTo as number,
    reason: v.reason,
    acceptedAt: v.acceptedAt,
    operator: v.operator,
  };
};

/** A record line as a checkpoint, an anchor or an accepted restore; null for a line cut short by a crash or not of this format. */
export const parseRecordLine = (line: string): RecordedCheckpoint | (RecordedAnchor & { kind: 'anchor' }) | (RecordedRestore & { kind: 'restore' }) | null => {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (v && typeof v === 'object' && v.kind === 'restore') return parseRestore(v);
  if (!v || typeof v !== 'object' || !Number.isSafeInteger(v.upto) || (v.upto as number) <= 0 || typeof v.link !== 'string' || !HEX64.test(v.link)) return null;
  if (v.kind === 'checkpoint' && typeof v.signature === 'string' && typeof v.keyId === 'string' && (v.chain === 1 || v.chain === 2)) {
    return { upto: v.upto as number, link: Buffer.from(v.link, 'hex'), signature: Buffer.from(v.signature, 'base64'), keyId: v.keyId, chain: v.chain };
  }
  if (v.kind === 'anchor' && typeof v.txid === 'string' && v.txid.length > 0)
    return { kind: 'anchor', upto: v.upto as number, link: Buffer.from(v.link, 'hex'), txid: v.txid };
  return null;
};

/** The record file of one DATA_DIR, read incrementally: lines appended by another process are picked up on `refresh`. */
export class CheckpointRecord {
  readonly file: string;
  private readOffset = 0;
  private partial = '';
  private readonly byPosition = new Map<number, RecordedCheckpoint>();
  private anchorList: RecordedAnchor[] = [];
  private highest: RecordedCheckpoint | null = null;
  private readonly restoreList: RecordedRestore[] = [];
  /** Checkpoints and anchors an accepted restore left behind, by position. */
  private readonly supersededLinks = new Map<number, Buffer[]>();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, AUDIT_RECORD_FILE);
  }

  /** Reads the lines appended since the last read. */
  refresh(): this {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this;
      throw error;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size < this.readOffset) throw new Error(`the audit checkpoint record ${this.file} was shortened: it is append-only`);
      if (size === this.readOffset) return this;
      const buffer = Buffer.alloc(size - this.readOffset);
      fs.readSync(fd, buffer, 0, buffer.length, this.readOffset);
      this.readOffset = size;
      const text = this.partial + buffer.toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.add(line);
    } finally {
      fs.closeSync(fd);
    }
    return this;
  }

  private add(line: string): void {
    const entry = parseRecordLine(line);
    if (!entry) return;
    if ('kind' in entry && entry.kind === 'restore') {
      const { kind: _, ...restore } = entry;
      this.acceptRestore(restore);
      return;
    }
    if ('kind' in entry) {
      this.anchorList.push({ upto: entry.upto, link: entry.link, txid: entry.txid });
      return;
    }
    if (!this.byPosition.has(entry.upto)) this.byPosition.set(entry.upto, entry);
    if (!this.highest || entry.upto > this.highest.upto) this.highest = entry;
  }

  /** What the record held after the restore's position is no longer expected; what comes after the restore line is. */
  private acceptRestore(restore: RecordedRestore): void {
    this.restoreList.push(restore);
    const supersede = (upto: number, link: Buffer) => this.supersededLinks.set(upto, [...(this.supersededLinks.get(upto) ?? []), link]);
    for (const [upto, c] of this.byPosition) {
      if (upto <= restore.upto) continue;
      supersede(upto, c.link);
      this.byPosition.delete(upto);
    }
    for (const a of this.anchorList) if (a.upto > restore.upto) supersede(a.upto, a.link);
    this.anchorList = this.anchorList.filter((a) => a.upto <= restore.upto);
    this.highest = null;
    for (const c of this.byPosition.values()) if (!this.highest || c.upto > this.highest.upto) this.highest = c;
  }

  /** The restores staff accepted, in the order they were. */
  restores(): readonly RecordedRestore[] {
    return this.restoreList;
  }

  /** Whether a checkpoint (or an anchor of one) was left behind by an accepted restore. */
  superseded(upto: number, link: Buffer): boolean {
    return (this.supersededLinks.get(upto) ?? []).some((l) => l.equals(link));
  }

  /** The highest checkpoint ever signed (since the last accepted restore): no checkpoint is sealed at or below it again. */
  get last(): RecordedCheckpoint | null {
    return this.highest;
  }

  /** Every recorded checkpoint in position order. */
  checkpoints(): RecordedCheckpoint[] {
    return [...this.byPosition.values()].sort((a, b) => a.upto - b.upto);
  }

  /** Recorded checkpoints in (after, upto]. */
  between(after: number, upto: number): RecordedCheckpoint[] {
    return this.checkpoints().filter((c) => c.upto > after && c.upto <= upto);
  }

  anchors(): readonly RecordedAnchor[] {
    return this.anchorList;
  }

  private append(line: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    // a line cut short by a crash is ended first, so the new line stands on its own
    const fd = fs.openSync(this.file, 'a', 0o600);
    try {
      const size = fs.fstatSync(fd).size;
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        const rfd = fs.openSync(this.file, 'r');
        try {
          fs.readSync(rfd, last, 0, 1, size - 1);
        } finally {
          fs.closeSync(rfd);
        }
        if (last[0] !== 0x0a) prefix = '\n';
      }
      fs.writeSync(fd, `${prefix}${line}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.refresh();
  }

  /** Appends a signed checkpoint and waits until it is on disk. */
  appendCheckpoint(c: RecordedCheckpoint): void {
    this.append(
      JSON.stringify({
        kind: 'checkpoint',
        upto: c.upto,
        link: c.link.toString('hex'),
        signature: c.signature.toString('base64'),
        keyId: c.keyId,
        chain: c.chain,
      }),
    );
  }

  /** Appends an accepted restore and waits until it is on disk. */
  appendRestore(r: RecordedRestore): void {
    this.append(
      JSON.stringify({
        kind: 'restore',
        upto: r.upto,
        link: r.link.toString('hex'),
        supersededUpTo: r.supersededUpTo,
        reason: r.reason,
        acceptedAt: r.acceptedAt,
        operator: r.operator,
      }),
    );
  }

  /** Appends the transaction that anchored a checkpoint on the AXEL chain. */
  appendAnchor(a: RecordedAnchor): void {
    this.append(JSON.stringify({ kind: 'anchor', upto: a.upto, link: a.link.toString('hex'), txid: a.txid }));
  }
}

/**
 * The payload of an anchor transaction (44 bytes, hex, within the 80 an OP_RETURN output holds):
 * `AXAU` in ASCII, the checkpoint's position as 8 bytes big-endian, and its 32-byte link.
 */
const ANCHOR_MAGIC = Buffer.from('AXAU', 'ascii');
export const anchorPayload = (upto: number, link: Buffer): string => {
  const b = Buffer.alloc(ANCHOR_MAGIC.length + 8 + link.length);
  ANCHOR_MAGIC.copy(b, 0);
  b.writeBigUInt64BE(BigInt(upto), ANCHOR_MAGIC.length);
  link.copy(b, ANCHOR_MAGIC.length + 8);
  return b.toString('hex');
};

/** The checkpoint an anchor payload names, or null when the payload is not one. */
export const parseAnchorPayload = (hex: string | null | undefined): { upto: number; link: Buffer } | null => {
  if (!hex || !/^[0-9a-f]+$/i.test(hex)) return null;
  const b = Buffer.from(hex, 'hex');
  if (b.length !== ANCHOR_MAGIC.length + 8 + 32 || !b.subarray(0, ANCHOR_MAGIC.length).equals(ANCHOR_MAGIC)) return null;
  const upto = Number(b.readBigUInt64BE(ANCHOR_MAGIC.length));
  if (!Number.isSafeInteger(upto)) return null;
  return { upto, link: Buffer.from(b.subarray(ANCHOR_MAGIC.length + 8)) };
};

import { chainEvent, GENESIS_LINK, type ChainVersion, type SealedEvent } from '@axel/platform/audit/chain';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from '@axel/platform/audit/export-format';
import { keyById, keyList, verifyCheckpoint, type AuditKeys, type AuditSigningKey } from '@axel/platform/audit/keys';
import { withTransaction, type Pool, type Queryable } from '@axel/platform';

/**
 * The audit chain, whatever its events' source: the PostgreSQL event store in this database
 * (`audit.chain-store.ts`) or any store read through the event store port, KurrentDB at
 * EVENTSTORE_URL (`audit.chain-port.ts`). Each source keeps its links and signed checkpoints in
 * its own tables of this database; sealing, the checkpoints' signatures, the walk that verifies
 * chain version 1 and the export's header are written here once, and a source adds how its
 * events are read and chained.
 */
export interface ChainTables {
  readonly links: string;
  readonly checkpoints: string;
  /** The advisory lock that serialises this chain's sealers across processes. */
  readonly sealLock: number;
  /** Whether the checkpoints name their chain version (a chain without the column is all version 1). */
  readonly versioned: boolean;
  /** SQL telling whether an event is stored at checkpoint `c`'s position (null when the events are not in this database). */
  readonly eventAtCheckpointSql: string;
}

export type MismatchReason = 'changed' | 'deleted' | 'inserted' | 'checkpoint' | 'rewritten';

export interface ChainVerification {
  readonly ok: boolean;
  /** The last position covered by a checkpoint whose signature and link held. */
  readonly checkedUpTo: number;
  /** The first position where the stored log no longer matches the chain (null when intact). */
  readonly firstMismatch: number | null;
  /** What was found there: an event changed (or moved), deleted, inserted, or a checkpoint that does not hold. */
  readonly reason: MismatchReason | null;
  readonly events: number;
}

/** A checkpoint as held outside the database: in the record beside the signing key, or in an anchor on the AXEL chain. */
export interface HeldCheckpoint {
  readonly upto: number;
  readonly link: Buffer;
}

/** A position at or after `from`, or a time, as the first exported position (inclusive). */
export interface ExportRange {
  readonly from?: number;
  readonly to?: number;
}

/** A stored link and its position. */
export interface StoredLink {
  readonly position: number;
  readonly link: Buffer;
}

/**
 * Seals in one transaction holding the chain's sealing lock (answers `busy` when another process
 * holds it), given the last stored link (none before the first seal).
 */
export const sealLocked = <T>(pool: Pool, tables: ChainTables, busy: T, seal: (db: Queryable, last: StoredLink | undefined) => Promise<T>): Promise<T> =>
  withTransaction(pool, async (db) => {
    const { rows: lock } = await db.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [tables.sealLock]);
    if (!lock[0]!.locked) return busy;
    const { rows: last } = await db.query<{ position: number; link: Buffer }>(`select position, link from ${tables.links} order by position desc limit 1`);
    return seal(db, last[0] ? { position: Number(last[0].position), link: last[0].link } : undefined);
  });

/** How long a seal-until-done waits before trying again while another process holds the sealing lock. */
const LOCK_RETRY_MS = 20;

/**
 * Runs `batch` until its source says nothing more is waiting (tests and the command line), and
 * answers how many events were sealed. `batch` answers null when another process holds the sealing
 * lock; the same batch is then tried again after a short pause.
 */
export const sealUntilDone = async (batch: () => Promise<{ sealed: number; done: boolean } | null>): Promise<number> => {
  let total = 0;
  for (;;) {
    const result = await batch();
    if (result === null) {
      await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
      continue;
    }
    total += result.sealed;
    if (result.done) return total;
  }
};

/** Signs the checkpoint sealing `link` at `upto` and stores it; answers the signature. */
export const writeCheckpoint = async (
  db: Queryable,
  tables: ChainTables,
  key: AuditSigningKey,
  upto: number,
  link: Buffer,
  chain: ChainVersion,
): Promise<Buffer> => {
  const signature = key.sign(upto, link, chain);
  if (tables.versioned)
    await db.query(`insert into ${tables.checkpoints} (upto_position, link, signature, key_id, chain) values ($1, $2, $3, $4, $5)`, [
      upto,
      link,
      signature,
      key.keyId,
      chain,
    ]);
  else await db.query(`insert into ${tables.checkpoints} (upto_position, link, signature, key_id) values ($1, $2, $3, $4)`, [upto, link, signature, key.keyId]);
  return signature;
};

/** The highest position a checkpoint seals (0 before the first). */
export const sealedUpTo = async (db: Queryable, tables: ChainTables): Promise<number> => {
  const { rows } = await db.query<{ upto: number | null }>(`select max(upto_position) as upto from ${tables.checkpoints}`);
  return Number(rows[0]?.upto ?? 0);
};

/** Rows of one table in key order, a page at a time, never all in memory. */
export async function* keyset<T extends Record<string, unknown>>(
  db: Queryable,
  sql: string,
  key: keyof T & string,
  from: number,
  upto: number,
  pageSize: number,
): AsyncGenerator<T> {
  let after = from;
  for (;;) {
    const { rows } = await db.query<T>(sql, [after, upto, pageSize]);
    for (const row of rows) yield row;
    if (rows.length < pageSize) return;
    after = Number(rows[rows.length - 1]![key]);
  }
}

export interface CheckpointRow extends Record<string, unknown> {
  upto_position: number;
  link: Buffer;
  signature: Buffer;
  key_id: string;
  chain: ChainVersion;
  created_at: Date;
  /** The link stored at the checkpoint's position (null when none is). */
  stored_link: Buffer | null;
  /** Whether an event is stored at the checkpoint's position (null when the events are not in this database). */
  has_event: boolean | null;
}

/** The checkpoints sealing positions in (after, upto], in position order. */
export const checkpointsBetween = (db: Queryable, tables: ChainTables, after: number, upto: number, pageSize: number): AsyncGenerator<CheckpointRow> =>
  keyset<CheckpointRow>(
    db,
    `select c.upto_position, c.link, c.signature, c.key_id, ${tables.versioned ? 'c.chain' : '1::smallint as chain'}, c.created_at, l.link as stored_link,
            ${tables.eventAtCheckpointSql} as has_event
     from ${tables.checkpoints} c left join ${tables.links} l on l.position = c.upto_position
     where c.upto_position > $1 and c.upto_position <= $2 order by c.upto_position limit $3`,
    'upto_position',
    after,
    upto,
    pageSize,
  );

/** A checkpoint holds when it seals `link` with a valid signature by a listed key (the current one or one it replaced). */
export const checkpointHolds = (keys: AuditKeys, cp: CheckpointRow, link: Buffer): boolean => {
  const signer = keyById(keys, cp.key_id);
  return cp.link.equals(link) && !!signer && verifyCheckpoint(signer, Number(cp.upto_position), link, cp.signature, Number(cp.chain) as ChainVersion);
};

/** One position of a version 1 walk: its event, its stored link, or both (the intact case). */
export interface WalkedPosition {
  readonly position: number;
  readonly event: SealedEvent | null;
  readonly link: Buffer | null;
}

/**
 * Verification walking the sealed log in position order beside its checkpoints: what it has
 * checked so far, and the checkpoint it reaches next. Version 1 positions are recomputed from the
 * start (`step`); a source that checks a stretch another way moves on with `sealedAt`.
 */
export class ChainWalk {
  previous: Buffer = GENESIS_LINK;
  checkedUpTo = 0;
  count = 0;
  private constructor(
    private readonly keys: AuditKeys,
    private readonly checkpoints: AsyncGenerator<CheckpointRow>,
    private current: IteratorResult<CheckpointRow>,
  ) {}

  static async start(keys: AuditKeys, checkpoints: AsyncGenerator<CheckpointRow>): Promise<ChainWalk> {
    return new ChainWalk(keys, checkpoints, await checkpoints.next());
  }

  /** The next checkpoint not yet checked. */
  get checkpoint(): CheckpointRow | undefined {
    return this.current.done ? undefined : this.current.value;
  }

  holds(cp: CheckpointRow, link: Buffer): boolean {
    return checkpointHolds(this.keys, cp, link);
  }

  /** The checkpoint at hand held, sealing `link`: the walk moves past it. */
  async sealedAt(cp: CheckpointRow, link: Buffer): Promise<void> {
    this.previous = link;
    this.checkedUpTo = Number(cp.upto_position);
    this.current = await this.checkpoints.next();
  }

  mismatch(position: number, reason: MismatchReason): ChainVerification {
    return { ok: false, checkedUpTo: this.checkedUpTo, firstMismatch: position, reason, events: this.count };
  }

  /**
   * One position of a version 1 walk: an event without a link was inserted, a link without an
   * event (or a checkpoint sealing a position passed by) tells of one deleted, an event that does
   * not chain to its link was changed or moved, and a checkpoint sealing it must hold.
   */
  async step({ position, event, link }: WalkedPosition): Promise<ChainVerification | null> {
    if (link === null) return this.mismatch(position, 'inserted');
    if (event === null) return this.mismatch(position, 'deleted');
    // checkpoints sealing a position that no longer exists
    const before = this.checkpoint;
    if (before && Number(before.upto_position) < position) return this.mismatch(Number(before.upto_position), 'deleted');
    this.previous = chainEvent(this.previous, event);
    if (!this.previous.equals(link)) return this.mismatch(position, 'changed');
    this.count++;
    for (let cp = this.checkpoint; cp && Number(cp.upto_position) === position; cp = this.checkpoint) {
      if (!this.holds(cp, this.previous)) return this.mismatch(position, 'checkpoint');
      await this.sealedAt(cp, this.previous);
    }
    return null;
  }

  /** The walk reached the end of the sealed log: a checkpoint still ahead seals a position no longer there. */
  end(): ChainVerification {
    const left = this.checkpoint;
    if (left) return this.mismatch(Number(left.upto_position), 'deleted');
    return { ok: true, checkedUpTo: this.checkedUpTo, firstMismatch: null, reason: null, events: this.count };
  }
}

/** The last position an export of `range` covers: the first checkpoint at or after its end (the last checkpoint without one). */
export const exportEnd = async (db: Queryable, tables: ChainTables, range: ExportRange): Promise<number> => {
  const { rows } = await db.query<{ upto: number | null }>(
    range.to === undefined
      ? `select max(upto_position) as upto from ${tables.checkpoints}`
      : `select coalesce(min(upto_position) filter (where upto_position >= $1), max(upto_position)) as upto from ${tables.checkpoints}`,
    range.to === undefined ? [] : [range.to],
  );
  return Number(rows[0]?.upto ?? 0);
};

/** The header line of an export starting at `from`: the keys, and the link the chain reached before it. */
export const exportHeaderLine = async (db: Queryable, tables: ChainTables, keys: AuditKeys, from: number): Promise<string> => {
  const key = keyList(keys)[0]!;
  const { rows: before } = await db.query<{ position: number; link: Buffer }>(
    `select position, link from ${tables.links} where position < $1 order by position desc limit 1`,
    [from],
  );
  const header: ExportHeader = {
    kind: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    keyId: key.keyId,
    publicKey: key.publicKeyPem,
    keys: keyList(keys).map((k) => ({ keyId: k.keyId, publicKey: k.publicKeyPem })),
    previousPosition: before[0] ? Number(before[0].position) : 0,
    previousLink: (before[0]?.link ?? GENESIS_LINK).toString('hex'),
  };
  return `${JSON.stringify(header)}\n`;
};

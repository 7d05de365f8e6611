import { chainEvent, GENESIS_LINK, type SealedEvent } from '@axel/platform/audit/chain';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from '@axel/platform/audit/export-format';
import { verifyCheckpoint, type AuditSigningKey, type AuditVerifyingKey } from '@axel/platform/audit/keys';
import { SAFE_POSITION_BOUND_SQL, withTransaction, type Migration, type Pool, type Queryable } from '@axel/platform';

export const auditMigrations: Migration[] = [
  {
    id: 'audit-001-chain',
    sql: `
create table audit_links (
  position bigint primary key,
  link bytea not null
);
create table audit_checkpoints (
  upto_position bigint primary key,
  link bytea not null,
  signature bytea not null,
  key_id text not null,
  created_at timestamptz not null default now()
);`,
  },
];

/** Serialises sealers across processes: the chain has one writer. */
const SEAL_LOCK = 7_310_012;
export const SEAL_BATCH = 5000;
const PAGE = 5000;

interface EventRow {
  position: number;
  stream_name: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
}

const EVENT_COLUMNS = 'e.position, e.stream_name, e.stream_revision, e.event_id, e.event_type, e.schema_version, e.data, e.metadata';

/** The row exactly as stored: personal fields stay sealed, so destroying a subject's key never breaks the chain. */
const sealedEvent = (r: EventRow): SealedEvent => ({
  id: r.event_id,
  stream: r.stream_name,
  revision: r.stream_revision,
  position: r.position,
  type: r.event_type,
  schemaVersion: r.schema_version,
  data: r.data,
  metadata: r.metadata,
});

/**
 * Chains the next batch of stored events and ends it with a signed checkpoint, in one transaction.
 * It reads only below the oldest transaction still in flight (as the event store's own readers
 * do), so an event that commits late always lands after the sealed range, never inside it.
 * Answers how many events were sealed (null when another process holds the sealing lock).
 */
export const sealBatch = async (pool: Pool, key: AuditSigningKey, limit = SEAL_BATCH): Promise<number | null> =>
  withTransaction(pool, async (db) => {
    const { rows: lock } = await db.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [SEAL_LOCK]);
    if (!lock[0]!.locked) return null;
    const { rows: last } = await db.query<{ position: number; link: Buffer }>('select position, link from audit_links order by position desc limit 1');
    let previous = last[0]?.link ?? GENESIS_LINK;
    const { rows } = await db.query<EventRow>(
      `with b as (select ${SAFE_POSITION_BOUND_SQL} as bound)
       select ${EVENT_COLUMNS} from es_events e, b
       where e.position > $1 and e.position < b.bound order by e.position limit $2`,
      [last[0]?.position ?? 0, limit],
    );
    if (rows.length === 0) return 0;
    const positions: number[] = [];
    const links: string[] = [];
    for (const row of rows) {
      previous = chainEvent(previous, sealedEvent(row));
      positions.push(row.position);
      links.push(previous.toString('hex'));
    }
    await db.query(`insert into audit_links (position, link) select p, decode(l, 'hex') from unnest($1::bigint[], $2::text[]) as t(p, l)`, [positions, links]);
    const upto = positions[positions.length - 1]!;
    await db.query('insert into audit_checkpoints (upto_position, link, signature, key_id) values ($1, $2, $3, $4)', [
      upto,
      previous,
      key.sign(upto, previous),
      key.keyId,
    ]);
    return rows.length;
  });

/** Seals until nothing sealable is left (tests and the command line). */
export const sealAll = async (pool: Pool, key: AuditSigningKey): Promise<number> => {
  let total = 0;
  for (;;) {
    const n = await sealBatch(pool, key);
    if (n === null) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    total += n;
    if (n < SEAL_BATCH) return total;
  }
};

/** Rows of one table in key order, a page at a time, never all in memory. */
async function* keyset<T extends Record<string, unknown>>(db: Queryable, sql: string, key: keyof T & string, from: number, upto: number): AsyncGenerator<T> {
  let after = from;
  for (;;) {
    const { rows } = await db.query<T>(sql, [after, upto, PAGE]);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]![key] as number;
  }
}

const eventsBetween = (db: Queryable, after: number, upto: number) =>
  keyset<EventRow & Record<string, unknown>>(
    db,
    `select ${EVENT_COLUMNS} from es_events e where e.position > $1 and e.position <= $2 order by e.position limit $3`,
    'position',
    after,
    upto,
  );
const linksBetween = (db: Queryable, after: number, upto: number) =>
  keyset<{ position: number; link: Buffer }>(db, 'select position, link from audit_links where position > $1 and position <= $2 order by position limit $3', 'position', after, upto);
interface CheckpointRow extends Record<string, unknown> {
  upto_position: number;
  link: Buffer;
  signature: Buffer;
  key_id: string;
  created_at: Date;
}
const checkpointsBetween = (db: Queryable, after: number, upto: number) =>
  keyset<CheckpointRow>(
    db,
    'select upto_position, link, signature, key_id, created_at from audit_checkpoints where upto_position > $1 and upto_position <= $2 order by upto_position limit $3',
    'upto_position',
    after,
    upto,
  );

export type MismatchReason = 'changed' | 'deleted' | 'inserted' | 'checkpoint';

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

/**
 * Re-reads the whole sealed range of the log beside its links and checkpoints and recomputes the
 * chain from the start. An event changed or moved to another position breaks its own link; one
 * deleted leaves a link without an event; one inserted an event without a link; links rewritten
 * to match break the next signed checkpoint.
 */
export const verifyChain = async (db: Queryable, key: AuditVerifyingKey): Promise<ChainVerification> => {
  const { rows } = await db.query<{ upto: number | null }>('select max(upto_position) as upto from audit_checkpoints');
  const sealedUpTo = rows[0]?.upto ?? 0;
  const events = eventsBetween(db, 0, sealedUpTo);
  const links = linksBetween(db, 0, sealedUpTo);
  const checkpoints = checkpointsBetween(db, 0, sealedUpTo);
  let e = await events.next();
  let l = await links.next();
  let c = await checkpoints.next();
  let previous = GENESIS_LINK;
  let checkedUpTo = 0;
  let count = 0;
  const mismatch = (position: number, reason: MismatchReason): ChainVerification => ({ ok: false, checkedUpTo, firstMismatch: position, reason, events: count });
  while (!e.done || !l.done) {
    let position: number;
    if (!e.done && !l.done && e.value.position === l.value.position) {
      position = e.value.position;
      // checkpoints sealing a position that no longer exists
      if (!c.done && c.value.upto_position < position) return mismatch(c.value.upto_position, 'deleted');
      previous = chainEvent(previous, sealedEvent(e.value));
      if (!previous.equals(l.value.link)) return mismatch(position, 'changed');
      count++;
      e = await events.next();
      l = await links.next();
    } else if (!l.done && (e.done || l.value.position < e.value.position)) {
      return mismatch(l.value.position, 'deleted');
    } else {
      return mismatch((e.value as EventRow).position, 'inserted');
    }
    while (!c.done && c.value.upto_position === position) {
      const cp = c.value;
      if (!cp.link.equals(previous) || cp.key_id !== key.keyId || !verifyCheckpoint(key, position, previous, cp.signature)) return mismatch(position, 'checkpoint');
      checkedUpTo = position;
      c = await checkpoints.next();
    }
  }
  if (!c.done) return mismatch(c.value.upto_position, 'deleted');
  return { ok: true, checkedUpTo, firstMismatch: null, reason: null, events: count };
};

/** A position at or after `from`, or a time, as the first exported position (inclusive). */
export interface ExportRange {
  readonly from?: number;
  readonly to?: number;
}

/**
 * The export of a range as JSON Lines, streamed page by page: the header, the events with their
 * links, and the checkpoints among them, extended to the first checkpoint at or after `to` so
 * the last event is covered by a signature. Only the sealed part of the log is exported.
 */
export async function* exportRange(db: Queryable, key: AuditVerifyingKey, range: ExportRange): AsyncGenerator<string> {
  const from = range.from ?? 0;
  const { rows: ends } = await db.query<{ upto: number | null }>(
    range.to === undefined
      ? 'select max(upto_position) as upto from audit_checkpoints'
      : 'select coalesce(min(upto_position) filter (where upto_position >= $1), max(upto_position)) as upto from audit_checkpoints',
    range.to === undefined ? [] : [range.to],
  );
  const upto = ends[0]?.upto ?? 0;
  const { rows: before } = await db.query<{ position: number; link: Buffer }>('select position, link from audit_links where position < $1 order by position desc limit 1', [from]);
  const header: ExportHeader = {
    kind: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    keyId: key.keyId,
    publicKey: key.publicKeyPem,
    previousPosition: before[0]?.position ?? 0,
    previousLink: (before[0]?.link ?? GENESIS_LINK).toString('hex'),
  };
  yield `${JSON.stringify(header)}\n`;
  const after = Math.max(0, from - 1);
  const checkpoints = checkpointsBetween(db, after, upto);
  let c = await checkpoints.next();
  let after2 = after;
  for (;;) {
    // the line is built by PostgreSQL from the stored JSON: no parse and re-serialise per event here;
    // each link is looked up by its key, so a page costs the same however long the log
    const { rows } = await db.query<{ position: number; line: string }>(
      `select e.position, json_build_object('kind', 'event', 'position', e.position, 'id', e.event_id, 'stream', e.stream_name,
                'revision', e.stream_revision, 'type', e.event_type, 'schemaVersion', e.schema_version,
                'data', e.data, 'metadata', e.metadata,
                'link', (select encode(l.link, 'hex') from audit_links l where l.position = e.position))::text as line
       from es_events e
       where e.position > $1 and e.position <= $2 order by e.position limit $3`,
      [after2, upto, PAGE],
    );
    let chunk = '';
    for (const row of rows) {
      chunk += `${row.line}\n`;
      while (!c.done && c.value.upto_position <= row.position) {
        const cp = c.value;
        chunk += `${JSON.stringify({
          kind: 'checkpoint',
          upto: cp.upto_position,
          link: cp.link.toString('hex'),
          signature: cp.signature.toString('base64'),
          keyId: cp.key_id,
          createdAt: cp.created_at.toISOString(),
        })}\n`;
        c = await checkpoints.next();
      }
    }
    if (chunk) yield chunk;
    if (rows.length < PAGE) return;
    after2 = rows[rows.length - 1]!.position;
  }
}

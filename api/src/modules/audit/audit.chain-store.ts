import { chainEvent, GENESIS_LINK, type SealedEvent } from '@axel/platform/audit/chain';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from '@axel/platform/audit/export-format';
import { keyById, keyList, verifyCheckpoint, type AuditKeys, type AuditSigningKey } from '@axel/platform/audit/keys';
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
/** Events per page of an export. */
const EXPORT_PAGE = 10_000;

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

/** One position of the sealed range: its event, its link, or both (the intact case). */
interface MergedRow extends Partial<EventRow> {
  position: number;
  has_event: boolean;
  link: Buffer | null;
}

/** Events beside links per page of verify: big pages, so the round trips are few. */
const VERIFY_PAGE = 10_000;

/**
 * The sealed range as one ordered walk of positions, each with its event and its link (a full
 * join, so a deleted event shows as a link alone and an inserted one as an event alone). A page
 * ends at the VERIFY_PAGE-th link, and the next page is already being read while this one is
 * hashed, so PostgreSQL and the hashing run side by side.
 */
async function* mergedBetween(db: Queryable, after: number, upto: number, pageSize: number): AsyncGenerator<MergedRow[]> {
  const page = async (from: number) => {
    const { rows: ends } = await db.query<{ hi: number | null }>('select position as hi from audit_links where position > $1 and position <= $2 order by position offset $3 limit 1', [
      from,
      upto,
      pageSize - 1,
    ]);
    const hi = ends[0]?.hi ?? upto;
    const { rows } = await db.query<MergedRow>(
      `select coalesce(e.position, l.position) as position, e.position is not null as has_event,
              e.stream_name, e.stream_revision, e.event_id, e.event_type, e.schema_version, e.data, e.metadata, l.link
       from (select ${EVENT_COLUMNS} from es_events e where e.position > $1 and e.position <= $2) e
       full join (select position, link from audit_links where position > $1 and position <= $2) l on l.position = e.position
       order by 1`,
      [from, hi],
    );
    return { rows, hi };
  };
  let next = after < upto ? page(after) : undefined;
  while (next) {
    const { rows, hi } = await next;
    next = hi < upto ? page(hi) : undefined;
    // a page that fails while the one before is checked is awaited (and thrown) in its turn
    next?.catch(() => undefined);
    yield rows;
  }
}

/**
 * Re-reads the whole sealed range of the log beside its links and checkpoints and recomputes the
 * chain from the start. An event changed or moved to another position breaks its own link; one
 * deleted leaves a link without an event; one inserted an event without a link; links rewritten
 * to match break the next signed checkpoint.
 */
export const verifyChain = async (db: Queryable, keys: AuditKeys, { pageSize = VERIFY_PAGE }: { pageSize?: number } = {}): Promise<ChainVerification> => {
  const { rows } = await db.query<{ upto: number | null }>('select max(upto_position) as upto from audit_checkpoints');
  const sealedUpTo = rows[0]?.upto ?? 0;
  const checkpoints = checkpointsBetween(db, 0, sealedUpTo);
  let c = await checkpoints.next();
  let previous = GENESIS_LINK;
  let checkedUpTo = 0;
  let count = 0;
  const mismatch = (position: number, reason: MismatchReason): ChainVerification => ({ ok: false, checkedUpTo, firstMismatch: position, reason, events: count });
  for await (const page of mergedBetween(db, 0, sealedUpTo, pageSize)) {
    for (const row of page) {
      const position = row.position;
      if (row.link === null) return mismatch(position, 'inserted');
      if (!row.has_event) return mismatch(position, 'deleted');
      // checkpoints sealing a position that no longer exists
      if (!c.done && c.value.upto_position < position) return mismatch(c.value.upto_position, 'deleted');
      previous = chainEvent(previous, sealedEvent(row as EventRow));
      if (!previous.equals(row.link)) return mismatch(position, 'changed');
      count++;
      while (!c.done && c.value.upto_position === position) {
        const cp = c.value;
        // signed by the current key or one it replaced
        const signer = keyById(keys, cp.key_id);
        if (!cp.link.equals(previous) || !signer || !verifyCheckpoint(signer, position, previous, cp.signature)) return mismatch(position, 'checkpoint');
        checkedUpTo = position;
        c = await checkpoints.next();
      }
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
export async function* exportRange(db: Queryable, keys: AuditKeys, range: ExportRange, { pageSize = EXPORT_PAGE }: { pageSize?: number } = {}): AsyncGenerator<string> {
  const from = range.from ?? 0;
  const key = keyList(keys)[0]!;
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
    keys: keyList(keys).map((k) => ({ keyId: k.keyId, publicKey: k.publicKeyPem })),
    previousPosition: before[0]?.position ?? 0,
    previousLink: (before[0]?.link ?? GENESIS_LINK).toString('hex'),
  };
  yield `${JSON.stringify(header)}\n`;
  const after = Math.max(0, from - 1);
  // PostgreSQL writes each page as one text, events and the checkpoints among them in order: no
  // parse and re-serialise per event here, and the next page is read while this one is sent
  const page = async (start: number) => {
    const { rows: ends } = await db.query<{ hi: number | null }>('select position as hi from es_events where position > $1 and position <= $2 order by position offset $3 limit 1', [
      start,
      upto,
      pageSize - 1,
    ]);
    const hi = ends[0]?.hi ?? upto;
    const { rows } = await db.query<{ chunk: string | null }>(
      `select string_agg(line, E'\n' order by p, k) || E'\n' as chunk from (
         select e.position as p, 0 as k,
                '{"kind":"event","position":' || e.position || ',"id":"' || e.event_id || '","stream":' || to_json(e.stream_name)::text ||
                ',"revision":' || e.stream_revision || ',"type":' || to_json(e.event_type)::text || ',"schemaVersion":' || e.schema_version ||
                ',"data":' || coalesce(e.data::text, 'null') || ',"metadata":' || coalesce(e.metadata::text, 'null') ||
                ',"link":' || coalesce('"' || encode(l.link, 'hex') || '"', 'null') || '}' as line
         from es_events e left join audit_links l on l.position = e.position
         where e.position > $1 and e.position <= $2
         union all
         select c.upto_position, 1,
                '{"kind":"checkpoint","upto":' || c.upto_position || ',"link":"' || encode(c.link, 'hex') ||
                '","signature":"' || translate(encode(c.signature, 'base64'), E'\n', '') || '","keyId":' || to_json(c.key_id)::text ||
                ',"createdAt":"' || to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
         from audit_checkpoints c
         where c.upto_position > $1 and c.upto_position <= $2
       ) lines`,
      [start, hi],
    );
    return { chunk: rows[0]?.chunk ?? null, hi };
  };
  let next = after < upto ? page(after) : undefined;
  while (next) {
    const { chunk, hi } = await next;
    next = hi < upto ? page(hi) : undefined;
    next?.catch(() => undefined);
    if (chunk) yield chunk;
  }
}

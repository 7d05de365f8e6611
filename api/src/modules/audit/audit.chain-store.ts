import { hash } from 'node:crypto';
import { CHAIN_VERSION, chainEvent, GENESIS_LINK, LINK_BYTES, type ChainVersion, type SealedEvent } from '@axel/platform/audit/chain';
import type { AuditKeys, AuditSigningKey } from '@axel/platform/audit/keys';
import type { CheckpointRecord } from '@axel/platform/audit/record';
import { esEventColumns, SAFE_POSITION_BOUND_SQL, type EsEventWrittenRow, type Migration, type Pool, type Queryable } from '@axel/platform';
import {
  ChainWalk,
  checkpointsBetween,
  exportEnd,
  exportHeaderLine,
  sealedUpTo,
  sealLocked,
  sealUntilDone,
  writeCheckpoint,
  type ChainTables,
  type ChainVerification,
  type ExportRange,
  type HeldCheckpoint,
} from './audit.chain';

/** The audit chain's source when the events are in this database's PostgreSQL event store. */

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
  {
    // checkpoints written before this column (and by any process still on chain version 1) seal version 1 links
    id: 'audit-002-chain-version',
    sql: `alter table audit_checkpoints add column chain smallint not null default 1;`,
  },
];

const STORE_CHAIN: ChainTables = {
  links: 'audit_links',
  checkpoints: 'audit_checkpoints',
  /** Serialises sealers across processes: the chain has one writer. */
  sealLock: 7_310_012,
  versioned: true,
  eventAtCheckpointSql: 'exists (select 1 from es_events e where e.position = c.upto_position)',
};
export const SEAL_BATCH = 5000;
const PAGE = 5000;
/** Events per page of an export: a page's lines are sorted in PostgreSQL's working memory, not on disk. */
const EXPORT_PAGE = 2500;
/** Pages of an export being written at once by PostgreSQL. */
const EXPORT_PARALLEL = 3;

/**
 * Chain version 2's canonical text of one stored event (see `eventTextV2`), as PostgreSQL writes
 * it: eight fields joined by line feeds, the jsonb values as PostgreSQL prints them (one
 * `concat_ws` rather than a chain of `||`: each `||` copies the text so far). Built-in functions
 * only, so nothing stored in the database decides it.
 */
export const canonicalTextSql = (e: string) =>
  `concat_ws(E'\\n', ${e}.position, ${e}.event_id, to_json(${e}.stream_name), ${e}.stream_revision, to_json(${e}.event_type), ${e}.schema_version, ${e}.data, ${e}.metadata)`;

/** Chain version 2's digest of one stored event, computed by PostgreSQL: SHA-256 of its canonical text. */
const digestSql = (e: string) => `sha256(convert_to(${canonicalTextSql(e)}, 'UTF8'))`;

/** A page of (position, 32 bytes) records as one bytea: 8 bytes of big-endian position, then the 32 bytes. */
const RECORD = 8 + LINK_BYTES;
const ZERO_LINK_SQL = `'\\x${'00'.repeat(LINK_BYTES)}'::bytea`;
const recordPosition = (records: Buffer, i: number): number => records.readUInt32BE(i * RECORD) * 2 ** 32 + records.readUInt32BE(i * RECORD + 4);

/** link(n) = SHA-256(link(n-1) || d(n)) over a reused 64-byte input. */
const chainInput = Buffer.alloc(2 * LINK_BYTES);
const chainRecord = (previous: Buffer, records: Buffer, i: number): Buffer => {
  previous.copy(chainInput, 0);
  records.copy(chainInput, LINK_BYTES, i * RECORD + 8, (i + 1) * RECORD);
  return hash('sha256', chainInput, 'buffer');
};

/** The row exactly as stored: personal fields stay sealed, so destroying a subject's key never breaks the chain. */
const sealedEvent = (r: EsEventWrittenRow): SealedEvent => ({
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
 * The links of the stored events after `after` (whose link is `previous`), in position order: up
 * to `limit` events below the oldest transaction still in flight, or, with `upto`, every event up
 * to it. Version 2 has PostgreSQL compute each event's digest; version 1 hashes the rows here.
 */
const chainRange = async (
  db: Queryable,
  after: number,
  previous: Buffer,
  chain: ChainVersion,
  range: { limit: number } | { upto: number },
): Promise<{ positions: number[]; links: Buffer; last: Buffer }> => {
  const positions: number[] = [];
  const bounded = 'upto' in range;
  const where = bounded ? 'e.position > $1 and e.position <= $2' : 'e.position > $1 and e.position < b.bound';
  const limit = bounded ? '' : 'limit $2';
  const params = [after, bounded ? range.upto : range.limit];
  let links: Buffer;
  if (chain === 1) {
    const { rows } = await db.query<EsEventWrittenRow>(
      `with b as (select ${SAFE_POSITION_BOUND_SQL} as bound)
       select ${esEventColumns('e', { written: true })} from es_events e, b where ${where} order by e.position ${limit}`,
      params,
    );
    links = Buffer.alloc(rows.length * LINK_BYTES);
    rows.forEach((row, i) => {
      previous = chainEvent(previous, sealedEvent(row));
      previous.copy(links, i * LINK_BYTES);
      positions.push(Number(row.position));
    });
  } else {
    const { rows } = await db.query<{ digests: Buffer | null }>(
      `with b as (select ${SAFE_POSITION_BOUND_SQL} as bound),
       batch as (select e.position, ${digestSql('e')} as d from es_events e, b where ${where} order by e.position ${limit})
       select string_agg(int8send(position) || d, ''::bytea order by position) as digests from batch`,
      params,
    );
    const digests = rows[0]?.digests ?? Buffer.alloc(0);
    const n = digests.length / RECORD;
    links = Buffer.alloc(n * LINK_BYTES);
    for (let i = 0; i < n; i++) {
      previous = chainRecord(previous, digests, i);
      previous.copy(links, i * LINK_BYTES);
      positions.push(recordPosition(digests, i));
    }
  }
  return { positions, links, last: previous };
};

const insertLinks = (db: Queryable, positions: number[], links: Buffer) =>
  db.query(
    `insert into audit_links (position, link) select p, substring($2::bytea from (o::int - 1) * ${LINK_BYTES} + 1 for ${LINK_BYTES}) from unnest($1::bigint[]) with ordinality as t(p, o)`,
    [positions, links],
  );

/**
 * The sealer found the stored log no longer re-chaining to a checkpoint it signed before: it
 * refuses to seal (signing again would bless the rewrite) until staff look at it.
 */
export class AuditChainRewrittenError extends Error {
  constructor(
    readonly position: number,
    readonly recordedUpTo: number,
  ) {
    super(
      `the audit log was rewritten at position ${position}: it no longer matches the checkpoint signed up to ${recordedUpTo}, so nothing is sealed again at or below it (run npm run audit -- verify)`,
    );
    this.name = 'AuditChainRewrittenError';
  }
}

/** The link stored at a position, or null. */
const storedLink = async (db: Queryable, position: number): Promise<Buffer | null> =>
  (await db.query<{ link: Buffer }>('select link from audit_links where position = $1', [position])).rows[0]?.link ?? null;

/** The last stored link at or below a position (genesis before the first). */
const linkAtOrBefore = async (db: Queryable, position: number): Promise<{ position: number; link: Buffer }> => {
  const { rows } = await db.query<{ position: number; link: Buffer }>(
    'select position, link from audit_links where position <= $1 order by position desc limit 1',
    [position],
  );
  return rows[0] ? { position: Number(rows[0].position), link: rows[0].link } : { position: 0, link: GENESIS_LINK };
};

/**
 * With a record, before anything is sealed: the stored chain must still reach the highest
 * checkpoint ever signed. When the stored links stop below it (a crash between the record's fsync
 * and the commit, or links deleted), the stored events are chained up to it again: matching every
 * recorded checkpoint of the stretch, the links and the recorded checkpoints (their signatures as
 * recorded) are written back and the count answered; otherwise the log was rewritten and nothing
 * is signed. Answers null when the stored chain already reaches the record.
 */
const catchUpWithRecord = async (db: Queryable, record: CheckpointRecord, last: { position: number; link: Buffer } | undefined): Promise<number | null> => {
  record.refresh();
  const top = record.last;
  if (!top) return null;
  const after = last?.position ?? 0;
  if (after >= top.upto) {
    const link = await storedLink(db, top.upto);
    if (link && link.equals(top.link)) return null;
    // the recorded head's link is gone or differs: the rewrite is at or below it
    const { rows } = await db.query<{ p: number | null }>(
      `select min(e.position) as p from es_events e left join audit_links l using (position) where e.position <= $1 and l.position is null`,
      [top.upto],
    );
    throw new AuditChainRewrittenError(Number(rows[0]?.p ?? top.upto), top.upto);
  }
  const { positions, links, last: reached } = await chainRange(db, after, last?.link ?? GENESIS_LINK, top.chain, { upto: top.upto });
  const recorded = record.between(after, top.upto);
  const at = new Map(positions.map((p, i) => [p, i]));
  for (const c of recorded) {
    const i = at.get(c.upto);
    if (i === undefined || !links.subarray(i * LINK_BYTES, (i + 1) * LINK_BYTES).equals(c.link))
      throw new AuditChainRewrittenError(positions[0] ?? c.upto, top.upto);
  }
  if (!reached.equals(top.link)) throw new AuditChainRewrittenError(positions[0] ?? top.upto, top.upto);
  await insertLinks(db, positions, links);
  for (const c of recorded) {
    await db.query(
      'insert into audit_checkpoints (upto_position, link, signature, key_id, chain) values ($1, $2, $3, $4, $5) on conflict (upto_position) do nothing',
      [c.upto, c.link, c.signature, c.keyId, c.chain],
    );
  }
  return positions.length;
};

/**
 * Chains the next batch of stored events and ends it with a signed checkpoint, in one transaction.
 * It reads only below the oldest transaction still in flight (as the event store's own readers
 * do), so an event that commits late always lands after the sealed range, never inside it.
 * Answers how many events were sealed (null when another process holds the sealing lock).
 * Version 2 (the default) has PostgreSQL compute each event's digest; version 1 is kept for the
 * tests of logs sealed before it.
 *
 * With a `record` (the product's sealer: `DATA_DIR/audit-checkpoints.jsonl`) a signed checkpoint
 * is final: the checkpoint is appended to the record and fsync'd before its transaction commits,
 * and a batch never starts below the highest recorded checkpoint (see `catchUpWithRecord`), so a
 * log rewritten below it is refused with `AuditChainRewrittenError`, never re-signed.
 */
export const sealBatch = async (
  pool: Pool,
  key: AuditSigningKey,
  limit = SEAL_BATCH,
  chain: ChainVersion = CHAIN_VERSION,
  record?: CheckpointRecord,
): Promise<number | null> =>
  sealLocked<number | null>(pool, STORE_CHAIN, null, async (db, last) => {
    if (record) {
      const restored = await catchUpWithRecord(db, record, last);
      if (restored !== null) return restored;
    }
    const { positions, links, last: previous } = await chainRange(db, last?.position ?? 0, last?.link ?? GENESIS_LINK, chain, { limit });
    if (positions.length === 0) return 0;
    await insertLinks(db, positions, links);
    const upto = positions[positions.length - 1]!;
    const signature = await writeCheckpoint(db, STORE_CHAIN, key, upto, previous, chain);
    // on disk before the commit: a checkpoint in the database is always in the record
    record?.appendCheckpoint({ upto, link: previous, signature, keyId: key.keyId, chain });
    return positions.length;
  });

/** Seals until nothing sealable is left (tests and the command line): a batch short of full reached the end. */
export const sealAll = (pool: Pool, key: AuditSigningKey, chain: ChainVersion = CHAIN_VERSION, record?: CheckpointRecord): Promise<number> =>
  sealUntilDone(async () => {
    const sealed = await sealBatch(pool, key, SEAL_BATCH, chain, record);
    return sealed === null ? null : { sealed, done: sealed < SEAL_BATCH };
  });

/**
 * The sealed log as runs of one chain version, in position order: each run ends at its last
 * checkpoint and starts after the run before it (a position belongs to the version of the first
 * checkpoint at or after it). One run per version in a log that was never tampered with.
 */
const chainRuns = async (db: Queryable): Promise<{ upto: number; chain: ChainVersion }[]> => {
  const { rows } = await db.query<{ upto: number; chain: ChainVersion }>(
    `select max(upto_position) as upto, chain from (
       select upto_position, chain, row_number() over (order by upto_position) - row_number() over (partition by chain order by upto_position) as run
       from audit_checkpoints) c
     group by chain, run order by upto`,
  );
  return rows.map((r) => ({ upto: Number(r.upto), chain: Number(r.chain) as ChainVersion }));
};

/** One position of a version 1 range: its event, its link, or both (the intact case). */
interface MergedRow extends Partial<EsEventWrittenRow> {
  position: number;
  has_event: boolean;
  link: Buffer | null;
}

/** Events beside links per page of a version 1 verify: big pages, so the round trips are few. */
const VERIFY_PAGE = 10_000;
/** Links per range of a version 2 verify (`pageSize` when given): PostgreSQL checks a range in one statement. */
const VERIFY_RANGE = 25_000;
/** Ranges of a version 2 verify being checked at once, one connection each. */
const VERIFY_PARALLEL = 4;

/** The end of the page of `pageSize` links after `from` (or `upto` when fewer are left). */
const pageEnd = async (db: Queryable, table: 'audit_links' | 'es_events', from: number, upto: number, pageSize: number): Promise<number> => {
  const { rows } = await db.query<{ hi: number }>(
    `select position as hi from ${table} where position > $1 and position <= $2 order by position offset $3 limit 1`,
    [from, upto, pageSize - 1],
  );
  return rows[0]?.hi ?? upto;
};

/**
 * Pages of a range read ahead: up to `ahead` pages are being read while the oldest is used, each
 * ending at `pageEnd`. A page that fails while another is used is awaited (and thrown) in its turn.
 */
async function* readAhead<T>(
  after: number,
  upto: number,
  ahead: number,
  end: (from: number) => Promise<number>,
  read: (from: number, hi: number) => Promise<T>,
): AsyncGenerator<T> {
  const pending: Promise<T>[] = [];
  let from = after;
  const launch = async () => {
    const hi = await end(from);
    const page = read(from, hi);
    page.catch(() => undefined);
    pending.push(page);
    from = hi;
  };
  while (pending.length < ahead && from < upto) await launch();
  while (pending.length) {
    const page = pending.shift()!;
    if (from < upto) await launch();
    yield await page;
  }
}

/**
 * A version 1 range as one ordered walk of positions, each with its event and its link (a full
 * join, so a deleted event shows as a link alone and an inserted one as an event alone). A page
 * ends at the pageSize-th link, and the next page is already being read while this one is hashed.
 */
const mergedBetween = (db: Queryable, after: number, upto: number, pageSize: number): AsyncGenerator<MergedRow[]> =>
  readAhead(
    after,
    upto,
    1,
    (from) => pageEnd(db, 'audit_links', from, upto, pageSize),
    async (from, hi) =>
      (
        await db.query<MergedRow>(
          `select coalesce(e.position, l.position) as position, e.position is not null as has_event,
                  e.stream_name, e.stream_revision, e.event_id, e.event_type, e.schema_version, e.data, e.metadata, l.link
           from (select ${esEventColumns('e', { written: true })} from es_events e where e.position > $1 and e.position <= $2) e
           full join (select position, link from audit_links where position > $1 and position <= $2) l on l.position = e.position
           order by 1`,
          [from, hi],
        )
      ).rows,
  );

/**
 * The first position of (from, hi] where the stored version 2 chain does not hold, or null, and
 * how many positions the range has. Each stored link is checked against the stored link before it
 * and its event's digest, computed here as sealing computes it: link(n) = SHA-256(link(n-1) ||
 * d(n)). Below the first position that fails, every stored link is the one the chain recomputed
 * from the start would give, so this finds the same first position as the sequential walk without
 * doing it, and ranges are checked independently. A full join pairs events with links: an event
 * without a link (inserted) or a link without an event (deleted) fails where it stands.
 */
const firstBrokenLink = async (db: Queryable, from: number, hi: number): Promise<{ first: number | null; positions: number }> => {
  // the links with the one before each (read in index order, so nothing is sorted), beside the
  // events' digests; the link before the range's first is the one stored last before it
  const { rows } = await db.query<{ first: number | null; positions: number }>(
    `select min(coalesce(e.position, l.position)) filter (
              where e.d is null or l.link is null
                 or sha256(coalesce(l.previous, (select coalesce((select link from audit_links where position <= $1 order by position desc limit 1), ${ZERO_LINK_SQL}))) || e.d) <> l.link
            ) as first,
            count(*)::int as positions
     from (select e.position, ${digestSql('e')} as d from es_events e where e.position > $1 and e.position <= $2) e
     full join (select position, link, lag(link) over (order by position) as previous from audit_links where position > $1 and position <= $2) l on l.position = e.position`,
    [from, hi],
  );
  return { first: rows[0]?.first ?? null, positions: rows[0]?.positions ?? 0 };
};

/**
 * Re-reads the whole sealed range of the log beside its links and checkpoints. An event changed
 * or moved to another position breaks its own link; one deleted leaves a link without an event;
 * one inserted an event without a link; links rewritten to match break the next signed
 * checkpoint. Version 1 runs are recomputed from the start, in order. Version 2 runs are checked
 * link by link inside PostgreSQL (`firstBrokenLink`), in ranges read side by side; the answer is
 * the first range's first failing position, and then each checkpoint of the run is compared with
 * the link stored at its position and its signature verified.
 */
export const verifyChain = async (
  db: Queryable,
  keys: AuditKeys,
  { pageSize, parallel = VERIFY_PARALLEL }: { pageSize?: number; parallel?: number } = {},
): Promise<ChainVerification> => {
  const runs = await chainRuns(db);
  const walk = await ChainWalk.start(keys, checkpointsBetween(db, STORE_CHAIN, 0, runs.at(-1)?.upto ?? 0, PAGE));
  /** Events stored in (from, to). */
  const eventsBetween = async (from: number, to: number): Promise<number> =>
    (await db.query<{ n: number }>('select count(*)::int as n from es_events where position > $1 and position < $2', [from, to])).rows[0]!.n;
  let after = 0;
  for (const run of runs) {
    if (run.chain === 1) {
      for await (const page of mergedBetween(db, after, run.upto, pageSize ?? VERIFY_PAGE)) {
        for (const row of page) {
          const bad = await walk.step({
            position: row.position,
            event: row.has_event ? sealedEvent(row as EsEventWrittenRow) : null,
            link: row.link,
          });
          if (bad) return bad;
        }
      }
    } else {
      // the ranges in order, `parallel` of them being checked at once; the first one that fails
      // holds the first failing position (every range before it holds)
      let first: number | null = null;
      let positions = 0;
      for await (const range of readAhead(
        after,
        run.upto,
        parallel,
        (from) => pageEnd(db, 'audit_links', from, run.upto, pageSize ?? VERIFY_RANGE),
        (from, hi) => firstBrokenLink(db, from, hi),
      )) {
        if (range.first !== null) {
          first = range.first;
          break;
        }
        positions += range.positions;
      }
      // the run's checkpoints before it, against the links stored at their positions
      const before = walk.count;
      for (let cp = walk.checkpoint; cp && cp.upto_position <= run.upto && (first === null || cp.upto_position < first); cp = walk.checkpoint) {
        if (cp.stored_link === null && !cp.has_event) {
          walk.count = before + (await eventsBetween(after, cp.upto_position));
          return walk.mismatch(cp.upto_position, 'deleted');
        }
        if (!walk.holds(cp, cp.stored_link!)) {
          walk.count = before + (await eventsBetween(after, cp.upto_position)) + 1;
          return walk.mismatch(cp.upto_position, 'checkpoint');
        }
        await walk.sealedAt(cp, cp.stored_link!);
      }
      if (first !== null) {
        const { rows } = await db.query<{ has_event: boolean; has_link: boolean }>(
          'select exists (select 1 from es_events where position = $1) as has_event, exists (select 1 from audit_links where position = $1) as has_link',
          [first],
        );
        walk.count = before + (await eventsBetween(after, first));
        return walk.mismatch(first, !rows[0]!.has_link ? 'inserted' : !rows[0]!.has_event ? 'deleted' : 'changed');
      }
      // every position of the run holds: as many events as positions
      walk.count += positions;
    }
    after = run.upto;
  }
  return walk.end();
};

export interface AuditVerification extends ChainVerification {
  /** Events stored after the last checkpoint: not covered by `ok` until they are sealed. */
  readonly unsealedEvents: number;
  /** The highest checkpoint in the record beside the signing key (null without a record). */
  readonly recordedUpTo: number | null;
  /** The highest checkpoint found anchored in an AXEL transaction (null when none was). */
  readonly anchoredUpTo: number | null;
  /** The restores of the database staff accepted (`npm run audit -- accept-restore`), oldest first. */
  readonly acceptedRestores: readonly AcceptedRestore[];
}

export interface AcceptedRestore {
  readonly upto: number;
  readonly supersededUpTo: number;
  readonly reason: string;
  readonly acceptedAt: string;
  readonly operator: string;
}

/**
 * `verifyChain`, then the stored chain against the checkpoints held outside the database (the
 * record beside the signing key, and the anchors read back from the AXEL chain), in position
 * order. A held checkpoint holds when the database's checkpoint there seals the same link, or,
 * with the checkpoint gone, the stored link there is the held one (a link commits to every event
 * before it); past the database's last checkpoint (a batch a crash cut short, or links deleted)
 * the stored events must re-chain to it. The first that does not hold means the log was rewritten
 * (and re-sealed, or its links deleted): `rewritten`, at the first event without a link after the
 * last held checkpoint that held, else the first event after it. A held checkpoint merely missing
 * from the database (its link intact) is `rewritten` at its position. Also counts the events after
 * the last checkpoint (`unsealedEvents`): `ok` covers only what is sealed.
 */
export const verifyAudit = async (
  db: Queryable,
  keys: AuditKeys,
  { record, anchored = [], ...options }: { record?: CheckpointRecord; anchored?: readonly HeldCheckpoint[]; pageSize?: number; parallel?: number } = {},
): Promise<AuditVerification> => {
  const base = await verifyChain(db, keys, options);
  const sealedHead = await sealedUpTo(db, STORE_CHAIN);
  const unsealed = async (upto: number) => (await db.query<{ n: number }>('select count(*)::int as n from es_events where position > $1', [upto])).rows[0]!.n;
  const recorded = record ? record.refresh().checkpoints() : [];
  const held = new Map<number, HeldCheckpoint[]>();
  for (const c of [...recorded, ...anchored]) held.set(c.upto, [...(held.get(c.upto) ?? []), c]);
  const extra = {
    recordedUpTo: record ? (record.last?.upto ?? 0) : null,
    anchoredUpTo: anchored.length ? Math.max(...anchored.map((a) => a.upto)) : null,
    acceptedRestores: (record?.restores() ?? []).map(({ upto, supersededUpTo, reason, acceptedAt, operator }) => ({
      upto,
      supersededUpTo,
      reason,
      acceptedAt,
      operator,
    })),
  };
  const positions = [...held.keys()].sort((a, b) => a - b);
  const { rows: stored } = await db.query<{ upto: number; link: Buffer }>(
    'select upto_position as upto, link from audit_checkpoints where upto_position = any($1::bigint[])',
    [positions],
  );
  const inDb = new Map(stored.map((r) => [Number(r.upto), r.link]));
  let holding = 0;
  let rewrittenBefore: number | null = null;
  let missing: number | null = null;
  for (const p of positions) {
    const want = held.get(p)!;
    let link: Buffer | null = inDb.get(p) ?? null;
    if (!link && p <= sealedHead) {
      // a held checkpoint the database lost: the stored link there (checked by verifyChain) still tells whether the log before it is the one signed
      link = await storedLink(db, p);
      if (link && missing === null) missing = p;
    } else if (!link) {
      // past the database's last checkpoint (a batch a crash cut short, or links deleted): the stored events must re-chain to it
      const from = await linkAtOrBefore(db, sealedHead);
      const chained = await chainRange(db, from.position, from.link, record?.last?.chain ?? CHAIN_VERSION, { upto: p });
      link = chained.positions.at(-1) === p ? chained.last : null;
    }
    if (!link || !want.every((c) => c.link.equals(link))) {
      rewrittenBefore = p;
      break;
    }
    holding = p;
  }
  let at: number;
  if (rewrittenBefore !== null) {
    const { rows: first } = await db.query<{ unlinked: number | null; first: number | null }>(
      `select (select min(e.position) from es_events e left join audit_links l using (position) where e.position > $1 and e.position <= $2 and l.position is null) as unlinked,
              (select min(position) from es_events where position > $1) as first`,
      [holding, rewrittenBefore],
    );
    at = Number(first[0]?.unlinked ?? first[0]?.first ?? rewrittenBefore);
  } else if (missing !== null) at = missing;
  else return { ...base, unsealedEvents: await unsealed(sealedHead), ...extra };
  if (!base.ok && base.firstMismatch !== null && base.firstMismatch < at) return { ...base, unsealedEvents: await unsealed(sealedHead), ...extra };
  const { rows: counts } = await db.query<{ events: number; checked: number | null }>(
    'select (select count(*)::int from es_events where position < $1) as events, (select max(upto_position) from audit_checkpoints where upto_position < $1) as checked',
    [at],
  );
  return {
    ok: false,
    checkedUpTo: Math.min(base.checkedUpTo, Number(counts[0]?.checked ?? 0)),
    firstMismatch: at,
    reason: 'rewritten',
    events: counts[0]!.events,
    unsealedEvents: await unsealed(sealedHead),
    ...extra,
  };
};

/**
 * The export of a range as JSON Lines, streamed page by page: the header, the events with their
 * links, and the checkpoints among them, extended to the first checkpoint at or after `to` so
 * the last event is covered by a signature. Only the sealed part of the log is exported.
 */
export async function* exportRange(
  db: Queryable,
  keys: AuditKeys,
  range: ExportRange,
  { pageSize = EXPORT_PAGE, parallel = EXPORT_PARALLEL }: { pageSize?: number; parallel?: number } = {},
): AsyncGenerator<string> {
  const from = range.from ?? 0;
  const upto = await exportEnd(db, STORE_CHAIN, range);
  yield await exportHeaderLine(db, STORE_CHAIN, keys, from);
  const after = Math.max(0, from - 1);
  // PostgreSQL writes each page as one text, events and the checkpoints among them in order: no
  // parse and re-serialise per event here, and the next pages are written while this one is sent
  const page = async (start: number, hi: number, chain: ChainVersion) => {
    const event =
      chain === 1
        ? `'{"kind":"event","position":' || e.position || ',"id":"' || e.event_id || '","stream":' || to_json(e.stream_name)::text ||
           ',"revision":' || e.stream_revision || ',"type":' || to_json(e.event_type)::text || ',"schemaVersion":' || e.schema_version ||
           ',"data":' || t.data || ',"metadata":' || t.metadata`
        : `'{"kind":"event","chain":2,"position":' || e.position || ',"id":"' || e.event_id || '","stream":' || to_json(e.stream_name)::text ||
           ',"revision":' || e.stream_revision || ',"type":' || to_json(e.event_type)::text || ',"schemaVersion":' || e.schema_version ||
           ',"data":' || t.data || ',"metadata":' || t.metadata || ',"dataText":' || to_json(t.data)::text || ',"metadataText":' || to_json(t.metadata)::text`;
    const { rows } = await db.query<{ chunk: string | null }>(
      `select string_agg(line, E'\n' order by p, k) || E'\n' as chunk from (
         select e.position as p, 0 as k,
                ${event} || ',"link":' || coalesce('"' || encode(l.link, 'hex') || '"', 'null') || '}' as line
         from es_events e
         cross join lateral (select e.data::text as data, e.metadata::text as metadata offset 0) t
         left join audit_links l on l.position = e.position and l.position > $1 and l.position <= $2
         where e.position > $1 and e.position <= $2
         union all
         select c.upto_position, 1,
                '{"kind":"checkpoint",' || case when c.chain = 1 then '' else '"chain":' || c.chain || ',' end || '"upto":' || c.upto_position ||
                ',"link":"' || encode(c.link, 'hex') || '","signature":"' || translate(encode(c.signature, 'base64'), E'\n', '') || '","keyId":' || to_json(c.key_id)::text ||
                ',"createdAt":"' || to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
         from audit_checkpoints c
         where c.upto_position > $1 and c.upto_position <= $2
       ) lines`,
      [start, hi],
    );
    return rows[0]?.chunk ?? null;
  };
  let runStart = 0;
  for (const run of await chainRuns(db)) {
    const segmentFrom = Math.max(after, runStart);
    const segmentTo = Math.min(upto, run.upto);
    runStart = run.upto;
    if (segmentFrom >= segmentTo) continue;
    const pages = readAhead(
      segmentFrom,
      segmentTo,
      parallel,
      (start) => pageEnd(db, 'es_events', start, segmentTo, pageSize),
      (start, hi) => page(start, hi, run.chain),
    );
    for await (const chunk of pages) if (chunk) yield chunk;
  }
}

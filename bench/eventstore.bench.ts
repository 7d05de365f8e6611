import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { EventMetadata } from '@axel/domain';
import { newId } from '../platform/src/ids';
import { expected, type EventToAppend } from '../platform/src/eventstore/port';
import { PostgresEventStore } from '../platform/src/eventstore/postgres';
import { createPool } from '../platform/src/postgres/pool';
import { fmt, median, sleep, type BenchSection } from './harness';

/* ------------------------------------------------------------------------------------------ */
/* Payloads: the same event shape for the store and for the raw baseline.                     */
/* ------------------------------------------------------------------------------------------ */

const metadata = (): EventMetadata => ({
  actorId: newId(),
  actorKind: 'user',
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
  client: 'web',
  correlationId: newId(),
  causationId: null,
  time: new Date().toISOString(),
});

let counter = 0;
const makeEvent = (): EventToAppend => ({
  id: newId(),
  type: 'FileUploaded',
  schemaVersion: 1,
  data: { fileId: newId(), name: `report-${++counter}.pdf`, size: 1_048_576 + counter, folderId: null, shard: counter % 16 },
  metadata: metadata(),
});

const RAW_TABLE = 'bench_raw_events';
/** Same columns and indexes as es_events, positions from a sequence, no checks: the schema's own cost. */
const FLOOR_TABLE = 'bench_floor_events';

const ensureBaselineTables = async (pool: pg.Pool) => {
  await pool.query(`create table if not exists ${RAW_TABLE} (id bigserial primary key, data jsonb not null, metadata jsonb not null)`);
  await pool.query(`create table if not exists ${FLOOR_TABLE} (like es_events including all)`);
  await pool.query(`create sequence if not exists ${FLOOR_TABLE}_seq`);
};

/* ------------------------------------------------------------------------------------------ */
/* Section 1: append rate, event store vs raw INSERT at the same concurrency.                 */
/* ------------------------------------------------------------------------------------------ */

interface CellResult {
  events: number;
  seconds: number;
  latencies: number[];
}

type Writer = (writer: number, deadline: number, latencies: number[]) => Promise<number>;

const runCell = async (writers: number, seconds: number, writer: Writer): Promise<CellResult> => {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const counts = await Promise.all(Array.from({ length: writers }, (_, w) => writer(w, deadline, latencies)));
  const elapsed = (performance.now() - start) / 1000;
  return { events: counts.reduce((a, b) => a + b, 0), seconds: elapsed, latencies };
};

/** A command handler's append: its own streams, the revision it last saw as the expected one. */
const storeWriter =
  (store: PostgresEventStore, batch: number, runId: string): Writer =>
  async (w, deadline, latencies) => {
    const streams = Array.from({ length: 16 }, () => ({ name: `file-${runId}w${w}-${newId()}`, revision: -1 }));
    let n = 0;
    for (let i = 0; performance.now() < deadline; i++) {
      const stream = streams[i % streams.length]!;
      const events = Array.from({ length: batch }, makeEvent);
      const t = performance.now();
      const result = await store.append(stream.name, events, expected.revision(stream.revision));
      latencies.push(performance.now() - t);
      stream.revision = result.nextRevision;
      n += batch;
    }
    return n;
  };

/**
 * The floor: the same payloads as plain INSERTs into a table with a bigserial key, as named
 * prepared statements (the store's append is one too), each statement its own transaction.
 */
const rawWriter =
  (pool: pg.Pool, batch: number): Writer =>
  async (_w, deadline, latencies) => {
    let n = 0;
    while (performance.now() < deadline) {
      const events = Array.from({ length: batch }, makeEvent);
      const t = performance.now();
      if (batch === 1) {
        await pool.query({
          name: 'bench_raw_insert_1',
          text: `insert into ${RAW_TABLE} (data, metadata) values ($1, $2)`,
          values: [JSON.stringify(events[0]!.data), JSON.stringify(events[0]!.metadata)],
        });
      } else {
        await pool.query({
          name: 'bench_raw_insert_n',
          text: `insert into ${RAW_TABLE} (data, metadata) select * from unnest($1::jsonb[], $2::jsonb[])`,
          values: [events.map((e) => JSON.stringify(e.data)), events.map((e) => JSON.stringify(e.metadata))],
        });
      }
      latencies.push(performance.now() - t);
      n += batch;
    }
    return n;
  };

/**
 * The store's table without the store: plain prepared INSERTs into a copy of es_events (its three
 * unique indexes included), positions from a sequence, no expected-revision check, no NOTIFY.
 */
const floorWriter =
  (pool: pg.Pool, batch: number, runId: string): Writer =>
  async (w, deadline, latencies) => {
    let n = 0;
    const streams = Array.from({ length: 16 }, () => ({ name: `floor-${runId}w${w}-${newId()}`, revision: -1 }));
    for (let i = 0; performance.now() < deadline; i++) {
      const stream = streams[i % streams.length]!;
      const events = Array.from({ length: batch }, makeEvent);
      const t = performance.now();
      await pool.query({
        name: 'bench_floor_insert',
        text: `insert into ${FLOOR_TABLE} (position, stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
               select nextval('${FLOOR_TABLE}_seq'), $1, $2::bigint + e.n, e.id, e.type, e.v, e.data, e.metadata
               from unnest($3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) with ordinality as e(id, type, v, data, metadata, n)`,
        values: [
          stream.name,
          stream.revision,
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.schemaVersion),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
        ],
      });
      latencies.push(performance.now() - t);
      stream.revision += batch;
      n += batch;
    }
    return n;
  };

const percentile = (xs: number[], p: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export const appendRate: BenchSection = {
  name: 'append-rate',
  description: 'events/s through PostgresEventStore.append vs raw INSERT transactions, same server, same concurrency',
  async run(ctx) {
    await ensureBaselineTables(ctx.pool);
    const store = new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
    const runId = randomBytes(3).toString('hex');
    // Short slices, rotated, many rounds: on a shared machine the load drifts, and a ratio taken
    // from neighbouring slices is far steadier than one from two long runs minutes apart.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
    const slice = Number(process.env.BENCH_SLICE_SECONDS ?? 1.5);
    const warmup = 1;
    const rows: Record<string, string | number>[] = [];
    try {
      for (const batch of [1, 100]) {
        for (const writers of [1, 8]) {
          const series = {
            raw: { writer: rawWriter(ctx.pool, batch), runs: [] as CellResult[] },
            floor: { writer: floorWriter(ctx.pool, batch, runId), runs: [] as CellResult[] },
            store: { writer: storeWriter(store, batch, runId), runs: [] as CellResult[] },
          };
          const names = Object.keys(series) as (keyof typeof series)[];
          for (const name of names) await runCell(writers, warmup, series[name].writer);
          for (let r = 0; r < rounds; r++) {
            for (let k = 0; k < names.length; k++) {
              const name = names[(r + k) % names.length]!;
              series[name].runs.push(await runCell(writers, slice, series[name].writer));
            }
          }
          const rate = (c: CellResult) => c.events / c.seconds;
          const rates = (name: keyof typeof series) => series[name].runs.map(rate);
          const ratios = (a: keyof typeof series, b: keyof typeof series) => rates(a).map((x, i) => x / rates(b)[i]!);
          const lat = (name: keyof typeof series, p: number) =>
            fmt(
              percentile(
                series[name].runs.flatMap((c) => c.latencies),
                p,
              ),
              2,
            );
          const storeRaw = ratios('store', 'raw');
          const row = {
            'events/append': batch,
            writers,
            'store ev/s': fmt(median(rates('store'))),
            'raw ev/s': fmt(median(rates('raw'))),
            'store/raw': fmt(median(storeRaw), 2),
            'store/raw range': `${fmt(Math.min(...storeRaw), 2)}-${fmt(Math.max(...storeRaw), 2)}`,
            'floor ev/s': fmt(median(rates('floor'))),
            'floor/raw': fmt(median(ratios('floor', 'raw')), 2),
            'store/floor': fmt(median(ratios('store', 'floor')), 2),
            'store p50/p99 ms': `${lat('store', 50)} / ${lat('store', 99)}`,
            'raw p50/p99 ms': `${lat('raw', 50)} / ${lat('raw', 99)}`,
          };
          ctx.log(
            `  batch ${batch}, ${writers} writer(s): store ${row['store ev/s']} ev/s, raw ${row['raw ev/s']} ev/s, store/raw ${row['store/raw']} (${row['store/raw range']}), floor/raw ${row['floor/raw']}`,
          );
          rows.push(row);
        }
      }
    } finally {
      await store.close();
    }
    ctx.table(
      'Append rate: PostgresEventStore vs raw INSERT',
      rows,
      [
        `Each series ran ${rounds} slices of ${slice}s, rotated with the others (after a ${warmup}s warm-up); rates are medians of the slices, ratios medians of neighbouring-slice ratios (range: min-max).`,
        'store = PostgresEventStore.append, expected revision = exact, 16 streams per writer, NOTIFY included.',
        'raw = prepared INSERT into (id bigserial pk, data jsonb, metadata jsonb), one statement per transaction (100 rows via unnest).',
        "floor = the same INSERT into a copy of es_events (its three unique indexes), no revision check, no NOTIFY: the schema's own cost.",
        'Target store/raw >= 0.80.',
      ].join('\n'),
    );
  },
};

/* ------------------------------------------------------------------------------------------ */
/* Section 2: the gap test, gap-safe subscription vs a naive `position > cursor` poller.      */
/* ------------------------------------------------------------------------------------------ */

interface ReaderTally {
  ids: Set<string>;
  duplicates: number;
  outOfOrder: number;
  last: number;
}
const tally = (): ReaderTally => ({ ids: new Set(), duplicates: 0, outOfOrder: 0, last: 0 });
const see = (t: ReaderTally, id: string, position: number) => {
  if (t.ids.has(id)) t.duplicates++;
  else t.ids.add(id);
  if (position <= t.last) t.outOfOrder++;
  t.last = position;
};

export const gapTest: BenchSection = {
  name: 'gap-test',
  description: '8 concurrent writers; safe subscription vs naive `where position > $cursor` poller: events skipped',
  async run(ctx) {
    const writers = 8;
    const seconds = Math.max(ctx.seconds, 5);
    const prefix = `gap${randomBytes(3).toString('hex')}-`;
    // Its own pool so the readers never wait for a writer's connection, and vice versa.
    const writerPool = createPool(ctx.databaseUrl, { max: writers + 2, applicationName: 'bench-gap-writers' });
    const store = new PostgresEventStore({ pool: writerPool, connectionString: ctx.databaseUrl });
    const readerPool = createPool(ctx.databaseUrl, { max: 4, applicationName: 'bench-gap-readers' });
    const readerStore = new PostgresEventStore({ pool: readerPool, connectionString: ctx.databaseUrl });
    const from = await readerStore.headPosition();

    const safe = tally();
    const sub = readerStore.subscribe(from, {
      onEvent: (e) => {
        if (e.streamName.startsWith(prefix)) see(safe, e.id, e.position);
      },
    });

    const naive = tally();
    let naiveStop = false;
    let naivePolls = 0;
    const naiveClient = new pg.Client({ connectionString: ctx.databaseUrl });
    await naiveClient.connect();
    const poll = async (): Promise<number> => {
      const { rows } = await naiveClient.query<{ position: string; event_id: string; stream_name: string }>(
        'select position, event_id, stream_name from es_events where position > $1 order by position limit 1000',
        [naive.last || from],
      );
      naivePolls++;
      for (const r of rows) {
        const p = Number(r.position);
        if (r.stream_name.startsWith(prefix)) see(naive, r.event_id, p);
        else naive.last = p;
      }
      return rows.length;
    };
    const naiveLoop = (async () => {
      while (!naiveStop) if ((await poll()) < 1000) await sleep(1);
    })();

    let written = 0;
    const start = performance.now();
    const deadline = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const streams = Array.from({ length: 4 }, () => ({ name: `${prefix}w${w}-${newId()}`, revision: -1 }));
        for (let i = 0; performance.now() < deadline; i++) {
          const stream = streams[i % streams.length]!;
          // mostly single events, some small batches: transactions of uneven length
          const size = i % 10 === 0 ? 1 + (i % 7) : 1;
          const result = await store.append(stream.name, Array.from({ length: size }, makeEvent), expected.revision(stream.revision));
          stream.revision = result.nextRevision;
          written += size;
        }
      }),
    );
    const writeSeconds = (performance.now() - start) / 1000;

    // Let both readers finish: the safe one until it has everything (or 30 s), the naive one
    // until a poll comes back empty (it will never return to what it stepped over).
    const waitUntil = performance.now() + 30_000;
    while (safe.ids.size < written && performance.now() < waitUntil) await sleep(20);
    naiveStop = true;
    await naiveLoop;
    while ((await poll()) > 0);
    await sub.stop();
    await naiveClient.end();
    await readerStore.close();
    await store.close();
    await Promise.all([writerPool.end(), readerPool.end()]);

    const row = (name: string, t: ReaderTally) => ({
      reader: name,
      written,
      delivered: t.ids.size,
      skipped: written - t.ids.size,
      'skipped %': `${fmt((100 * (written - t.ids.size)) / written, 3)}%`,
      duplicates: t.duplicates,
      'out of order': t.outOfOrder,
    });
    ctx.table(
      'Gap test: 8 concurrent writers, readers following live',
      [
        row('PostgresEventStore.subscribe (reads below pg_snapshot_xmin)', safe),
        row(`naive: where position > $cursor order by position limit 1000 (${fmt(naivePolls)} polls)`, naive),
      ],
      `${fmt(written)} events in ${fmt(writeSeconds, 1)}s (${fmt(written / writeSeconds)} ev/s) by ${writers} writers with expected revision = exact. Safe must skip 0.`,
    );
  },
};

export const eventStoreSections: BenchSection[] = [appendRate, gapTest];

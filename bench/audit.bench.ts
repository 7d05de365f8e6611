import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { auditMigrations, canonicalTextSql, exportRange, SEAL_BATCH, sealBatch, verifyChain } from '../api/src/modules/audit/audit.chain-store';
import { parseSigningKey } from '../platform/src/audit/keys';
import { esEventColumns } from '../platform/src/eventstore/es-events';
import { PostgresEventStore } from '../platform/src/eventstore/postgres';
import { eventStoreMigrations } from '../platform/src/eventstore/postgres.migrations';
import { migrate } from '../platform/src/postgres/migrations';
import { createPool, databaseUrlWithName, dropDatabase, ensureDatabase } from '../platform/src/postgres/pool';
import { fmt, sleep, type BenchContext, type BenchSection } from './harness';

/** Events in the sealed log that verify and export walk (BENCH_AUDIT_EVENTS, default 1,000,000). */
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const APPENDS_PER_SECOND = 1000;
/** As the product's sealer: an idle sealer looks again after this long. */
const IDLE_POLL_MS = 100;

const key = parseSigningKey(randomBytes(32).toString('hex'));

/**
 * A log of realistic events (a user id, an e-mail sealed as personal data, metadata with actor,
 * sealed ip and user agent), written straight with SQL at low positions, all below any running
 * transaction, so the sealer sees them at once.
 */
const seed = async (ctx: BenchContext, count: number) => {
  await ctx.pool.query(
    `insert into es_events (${esEventColumns(undefined, { written: true })})
     select i, 'user-' || (i % 50000), i / 50000, gen_random_uuid(), 'ProfileUpdated', 1,
            jsonb_build_object('userId', md5(i::text), 'firstName', jsonb_build_object('$pii', encode(sha256(i::text::bytea), 'base64'), 'v', 1), 'locale', 'en_us', 'changes', jsonb_build_array('firstName', 'phone')),
            jsonb_build_object('actorId', md5((i % 50000)::text), 'client', 'web', 'correlationId', md5((i * 7)::text), 'at', '2026-11-23T10:00:00.000Z',
                               'ip', jsonb_build_object('$pii', encode(sha256((i * 3)::text::bytea), 'base64'), 'v', 1))
     from generate_series(1, $1::bigint) as i`,
    [count],
  );
};

const sealEverything = async (ctx: BenchContext) => {
  let total = 0;
  for (;;) {
    const n = await sealBatch(ctx.pool, key);
    total += n ?? 0;
    if (n !== null && n < SEAL_BATCH) return total;
  }
};

/**
 * Raw SHA-256 over the very bytes the chain hashes (each event's canonical text, chain version 2),
 * read a page at a time, one SHA-256 per event, hashing timed alone.
 */
const rawHashRate = async (ctx: BenchContext) => {
  let after = 0;
  let hashed = 0;
  let hashMs = 0;
  let size = 0;
  for (;;) {
    const { rows } = await ctx.pool.query<{ position: number; text: string }>(
      `select e.position, ${canonicalTextSql('e')} as text from es_events e where e.position > $1 order by e.position limit 5000`,
      [after],
    );
    if (!rows.length) break;
    const bytes = rows.map((r) => Buffer.from(r.text, 'utf8'));
    const t = performance.now();
    for (const b of bytes) createHash('sha256').update(b).digest();
    hashMs += performance.now() - t;
    hashed += rows.length;
    for (const b of bytes) size += b.length;
    after = rows[rows.length - 1]!.position;
  }
  return { rate: (hashed / hashMs) * 1000, bytesPerEvent: size / hashed };
};

const sealingLag = async (ctx: BenchContext) => {
  const store = new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
  const appendedAt = new Map<number, number>();
  const lags: number[] = [];
  let stopped = false;
  const sealer = (async () => {
    while (!stopped) {
      const n = await sealBatch(ctx.pool, key);
      const now = performance.now();
      const { rows } = await ctx.pool.query<{ upto: number }>('select max(upto_position) as upto from audit_checkpoints');
      const upto = Number(rows[0]!.upto);
      for (const [position, at] of appendedAt) {
        if (position <= upto) {
          lags.push(now - at);
          appendedAt.delete(position);
        }
      }
      if (n !== SEAL_BATCH) await sleep(IDLE_POLL_MS);
    }
  })();
  const started = performance.now();
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  while (performance.now() - started < ctx.seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * APPENDS_PER_SECOND);
    while (sent < due) {
      sent++;
      const at = performance.now();
      const p = store
        .append(
          `bench-${randomUUID()}`,
          [{ id: randomUUID(), type: 'BenchAppended', schemaVersion: 1, data: { n: sent }, metadata: { actorId: 'bench' } as never }],
          { kind: 'no_stream' },
        )
        .then((r) => void appendedAt.set(r.position, at));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  for (let i = 0; i < 100 && appendedAt.size; i++) await sleep(50);
  stopped = true;
  await sealer;
  await store.close();
  lags.sort((a, b) => a - b);
  const pct = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
  return { appended: sent, sealed: lags.length, p50: pct(0.5), p99: pct(0.99), max: lags.at(-1) ?? NaN };
};

const measure = async (ctx: BenchContext) => {
  let t = performance.now();
  await seed(ctx, EVENTS);
  // vacuumed and analysed as autovacuum leaves a table, so the figures do not hang on when it runs
  await ctx.pool.query('vacuum analyze es_events');
  ctx.log(`seeded ${fmt(EVENTS)} events in ${fmt((performance.now() - t) / 1000, 1)} s`);

  t = performance.now();
  const sealed = await sealEverything(ctx);
  const sealMs = performance.now() - t;
  await ctx.pool.query('vacuum analyze audit_links');
  await ctx.pool.query('vacuum analyze audit_checkpoints');

  t = performance.now();
  const verified = await verifyChain(ctx.pool, key);
  const verifyMs = performance.now() - t;
  if (!verified.ok) throw new Error(`the bench log does not verify: ${JSON.stringify(verified)}`);

  const raw = await rawHashRate(ctx);

  t = performance.now();
  let lines = 0;
  let bytes = 0;
  for await (const chunk of exportRange(ctx.pool, key, {})) {
    bytes += chunk.length;
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines++;
  }
  const exportMs = performance.now() - t;

  const verifyRate = (verified.events / verifyMs) * 1000;
  ctx.table(
    `Audit chain over ${fmt(EVENTS)} events`,
    [
      { step: 'seal (chain, sign, store)', 'events/s': fmt((sealed / sealMs) * 1000), seconds: fmt(sealMs / 1000, 1) },
      { step: 'verify (links checked in PostgreSQL, signatures)', 'events/s': fmt(verifyRate), seconds: fmt(verifyMs / 1000, 1) },
      { step: 'raw SHA-256 over the same bytes', 'events/s': fmt(raw.rate), seconds: '' },
      { step: 'export to JSONL', 'events/s': fmt((verified.events / exportMs) * 1000), seconds: fmt(exportMs / 1000, 1) },
    ],
    `verify / raw SHA-256 = ${fmt(verifyRate / raw.rate, 2)} (target at least 0.5; ${fmt(raw.bytesPerEvent)} bytes hashed per event); load average ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')} at the end; export target at least 50,000 events/s; export wrote ${fmt(lines)} lines, ${fmt(bytes / 1e6, 1)} MB`,
  );

  const lag = await sealingLag(ctx);
  ctx.table(
    `Sealing lag behind ${APPENDS_PER_SECOND} appends/s for ${ctx.seconds} s`,
    [{ appended: fmt(lag.appended), sealed: fmt(lag.sealed), 'p50 ms': fmt(lag.p50, 1), 'p99 ms': fmt(lag.p99, 1), 'max ms': fmt(lag.max, 1) }],
    `the sealer looks for new events every ${IDLE_POLL_MS} ms when idle, and at once after a full batch of ${fmt(SEAL_BATCH)}`,
  );
};

export const auditSections: BenchSection[] = [
  {
    name: 'audit',
    description: `audit chain: seal and verify ${fmt(EVENTS)} events beside raw SHA-256, export to JSONL, sealing lag at ${APPENDS_PER_SECOND} appends/s`,
    async run(shared: BenchContext) {
      // a log of its own, so the other sections' events do not change the figures
      const database = `bench_audit_${randomBytes(4).toString('hex')}`;
      await ensureDatabase(shared.serverUrl, database);
      const databaseUrl = databaseUrlWithName(shared.serverUrl, database);
      const ctx: BenchContext = { ...shared, databaseUrl, pool: createPool(databaseUrl, { max: 20, applicationName: 'bench-audit' }) };
      try {
        await migrate(ctx.pool, [...eventStoreMigrations, ...auditMigrations]);
        await measure(ctx);
      } finally {
        await ctx.pool.end().catch(() => undefined);
        await dropDatabase(shared.serverUrl, database).catch(() => undefined);
      }
    },
  },
];

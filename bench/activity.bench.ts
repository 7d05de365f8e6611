import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createApp } from '../api/src/app';
import { createLogger } from '../api/src/logger';
import { bootstrapAdmin } from '../api/src/modules/accounts/bootstrap-admin';
import { dropDatabase } from '../platform/src/postgres/pool';
import { inProcessConfig } from './product';
import { fmt, median, sleep, type BenchContext, type BenchSection } from './harness';
import { esEventColumns } from '../platform/src/eventstore/es-events';

/** Events in the log the export walks (BENCH_ACTIVITY_EVENTS, default 200,000). */
const EVENTS = Number(process.env.BENCH_ACTIVITY_EVENTS ?? 200_000);
const md5 = (n: number) => createHash('md5').update(String(n)).digest('hex');
const ROOT = { email: 'root@bench.test', password: 'Bench-pass-123' };

/**
 * Events as the store holds them: an actor, a sealed ip and user agent, a correlation id, a data
 * field with commas and quotes. Their type is one no projection follows, so the app's projector
 * leaves them alone; the export still opens, words and formats every one.
 */
const seed = async (pool: import('pg').Pool, count: number) => {
  await pool.query(
    `insert into es_events (${esEventColumns(undefined, { written: true })})
     select i, 'user-' || md5((i % 5000)::text), i / 5000, gen_random_uuid(), case when i % 1000 = 0 then 'BenchRareEvent' else 'BenchActivityRecorded' end, 1,
            jsonb_build_object('note', 'a note, with "quotes"', 'n', i),
            jsonb_build_object('actorId', md5(((i + 1) % 5000)::text), 'actorKind', 'user', 'client', 'web', 'correlationId', md5((i * 7)::text), 'causationId', null,
                               'time', to_char(timestamptz '2026-11-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'ip', jsonb_build_object('$pii', 'user-' || md5(((i + 1) % 5000)::text), 'v', encode(sha256(i::text::bytea), 'base64')),
                               'userAgent', null)
     from generate_series(1, $1::bigint) as i`,
    [count],
  );
};

/** Median milliseconds of a list request (each run once to warm up, then five times). */
const listLatency = async (url: string, cookie: string) => {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const rows = (await res.json()) as unknown[];
    if (res.status !== 200 || !Array.isArray(rows)) throw new Error(`list answered ${res.status}`);
    if (i > 0) times.push(performance.now() - t);
  }
  return median(times);
};

/** Reads an export to its end, sampling this process's memory while the server streams it. */
const measureExport = async (url: string, cookie: string) => {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 10);
  const t = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  return { bytes, lines, seconds, rssGrowth: peakRss - base.rss, heapGrowth: peakHeap - base.heapUsed };
};

export const activitySections: BenchSection[] = [
  {
    name: 'activity-export',
    description: `activity list latency by filter and depth, and the export (CSV, JSON Lines) over HTTP of ${fmt(EVENTS)} events: rate and memory growth while streaming`,
    async run(ctx: BenchContext) {
      const { database, dataDir, config } = await inProcessConfig(ctx, 'activity', { ADMIN_EMAIL: ROOT.email, ADMIN_PASSWORD: ROOT.password });
      const app = await createApp({ config, log: createLogger('silent'), roles: ['api', 'projector'], serveUi: false });
      try {
        await bootstrapAdmin(app.ctx);
        const { url } = await app.start();
        const base = url!.replace('0.0.0.0', '127.0.0.1');
        let cookie = '';
        for (let i = 0; i < 100 && !cookie; i++) {
          const res = await fetch(`${base}/api/sessions/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
            body: JSON.stringify(ROOT),
          });
          if (res.status === 200)
            cookie = res.headers
              .getSetCookie()
              .map((c) => c.split(';')[0])
              .join('; ');
          else await sleep(100);
        }
        if (!cookie) throw new Error('could not sign in the bench admin');
        const t = performance.now();
        await seed(app.ctx.pool, EVENTS);
        ctx.log(`seeded ${fmt(EVENTS)} events in ${fmt((performance.now() - t) / 1000, 1)} s`);
        await app.ctx.pool.query('analyze es_events');
        const deep = Math.round(EVENTS / 20);
        const cases: [string, Record<string, unknown>][] = [
          ['newest page, no filter', {}],
          [`deep page (before position ${fmt(deep)}), no filter`, { before: deep }],
          ['rare type (1 in 1,000)', { type: ['BenchRareEvent'] }],
          ['rare type, deep page', { type: ['BenchRareEvent'], before: deep }],
          ['one actor', { actor: md5(7) }],
          ['one actor, deep page', { actor: md5(7), before: deep }],
          ["one user's timeline (streams or actor)", { user: md5(7) }],
          ['one hour of time', { from: '2026-11-01T10:00:00.000Z', to: '2026-11-01T11:00:00.000Z' }],
        ];
        const latencies: Record<string, string | number>[] = [];
        for (const [name, filter] of cases) {
          const ms = await listLatency(`${base}/api/admin/activity?${new URLSearchParams({ filter: JSON.stringify(filter), range: '[0,49]' })}`, cookie);
          latencies.push({ query: name, 'median ms': fmt(ms, 1) });
        }
        ctx.table(
          `Activity list, a page of 50 over ${fmt(EVENTS)} events (keyset by position)`,
          latencies,
          'Each over HTTP, session check and sentences included; the total count is capped at 10,000 rows.',
        );
        const rows: Record<string, string | number>[] = [];
        for (const format of ['csv', 'jsonl'] as const) {
          const r = await measureExport(`${base}/api/admin/activity/export?format=${format}&type=BenchActivityRecorded,BenchRareEvent`, cookie);
          if (r.lines !== EVENTS + (format === 'csv' ? 1 : 0)) throw new Error(`${format} export has ${r.lines} lines for ${EVENTS} events`);
          rows.push({
            format,
            events: fmt(EVENTS),
            'MB out': fmt(r.bytes / 1e6, 1),
            seconds: fmt(r.seconds, 1),
            'events/s': fmt(EVENTS / r.seconds),
            'RSS growth MB': fmt(r.rssGrowth / 1e6, 1),
            'heap growth MB': fmt(r.heapGrowth / 1e6, 1),
          });
        }
        ctx.table(
          'Activity export, streamed (server and reader in one process)',
          rows,
          'Memory growth is the peak over the export minus the value before it: bounded means it stays flat while the export grows with the event count.',
        );
      } finally {
        await app.stop();
        await dropDatabase(ctx.serverUrl, database).catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  },
];

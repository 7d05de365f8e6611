/**
 * Process timers on the embedded runtime (PostgreSQL + graphile-worker), end to end: a timer fires,
 * the process reacts, its command goes through `handleCommand` into the event store.
 *
 *   BENCH_TIMER_BURST=2000    timers due at the same instant for the throughput cell
 *   BENCH_TIMER_RATE=100      timers per second for the lateness cell
 */
import { performance } from 'node:perf_hooks';
import { PostgresEventStore } from '../platform/src/eventstore/postgres';
import { migrate } from '../platform/src/postgres/migrations';
import { workflowMigrations } from '../workflows/src/embedded/migrations';
import { EmbeddedProcessRuntime, type RuntimeLogger } from '../workflows/src/embedded/runtime';
import { ControlledClock, systemClock, type Clock } from '../workflows/src/runtime/clock';
import { createProbeKit, probeProcesses, type ProbeKit } from '../workflows/src/testing/probe';
import { fmt, sleep, type BenchContext, type BenchSection } from './harness';

const quiet: RuntimeLogger = { warn: () => undefined, error: (m) => console.error(m) };

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const recordedCount = async (ctx: BenchContext, prefix: string): Promise<number> => {
  const { rows } = await ctx.pool.query<{ n: number }>(
    `select count(*)::int as n from es_events where event_type = 'ProbeRecorded' and data->>'probeId' like $1`,
    [`${prefix}%`],
  );
  return rows[0]!.n;
};

const waitForCount = async (ctx: BenchContext, prefix: string, n: number, timeoutMs: number): Promise<number> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await recordedCount(ctx, prefix);
    if (c >= n || Date.now() > deadline) return c;
    await sleep(20);
  }
};

const withRuntime = async <T>(
  ctx: BenchContext,
  clock: Clock,
  options: { concurrency: number; pollInterval: number },
  work: (runtime: EmbeddedProcessRuntime, kit: ProbeKit, store: PostgresEventStore) => Promise<T>,
): Promise<T> => {
  await migrate(ctx.pool, workflowMigrations);
  const store = new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
  const kit = createProbeKit(store);
  const runtime = new EmbeddedProcessRuntime({
    pool: ctx.pool,
    connectionString: ctx.databaseUrl,
    store,
    definitions: probeProcesses,
    dispatcher: kit.dispatcher,
    registry: kit.registry,
    clock,
    logger: quiet,
    ...options,
  });
  await runtime.start();
  try {
    return await work(runtime, kit, store);
  } finally {
    await runtime.stop();
    await store.close();
  }
};

const startMany = async (kit: ProbeKit, ids: string[], delayMs: number, now: () => Date) => {
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) await kit.start(id, 'timer', delayMs, now());
    }),
  );
};

const CONFIGS = [
  { concurrency: 8, pollInterval: 100 },
  { concurrency: 16, pollInterval: 100 },
];

/** Timers all due at once: how many fire (timer job, react, command, event appended) per second. */
const timerThroughput: BenchSection = {
  name: 'workflow-timers',
  description: 'process timers fired per second (burst), and lateness at a steady 100 timers/s',
  async run(ctx) {
    const burst = Number(process.env.BENCH_TIMER_BURST ?? 2_000);
    const rate = Number(process.env.BENCH_TIMER_RATE ?? 100);
    const rows: Record<string, string | number>[] = [];

    for (const config of CONFIGS) {
      const clock = new ControlledClock(new Date());
      const prefix = `burst-${config.concurrency}-`;
      const ids = Array.from({ length: burst }, (_, i) => `${prefix}${i}`);
      const result = await withRuntime(ctx, clock, config, async (runtime, kit) => {
        await startMany(kit, ids, 60 * 60 * 1000, () => clock.now());
        await runtime.whenIdle({ timeoutMs: 120_000 });
        const start = performance.now();
        await runtime.advanceTo(new Date(clock.now().getTime() + 60 * 60 * 1000 + 1));
        const fired = await waitForCount(ctx, prefix, burst, 300_000);
        return { fired, seconds: (performance.now() - start) / 1000 };
      });
      rows.push({
        cell: `burst of ${fmt(burst)} due at once`,
        'jobs at once': config.concurrency,
        'poll ms': config.pollInterval,
        'timers fired': fmt(result.fired),
        seconds: fmt(result.seconds, 2),
        'timers/s': fmt(result.fired / result.seconds),
        'p50 late': '',
        'p99 late': '',
        'max late': '',
      });
    }

    for (const config of CONFIGS.slice(0, 1)) {
      const seconds = Math.max(10, ctx.seconds * 3);
      const total = Math.round(rate * seconds);
      const prefix = `paced-${config.concurrency}-`;
      const result = await withRuntime(ctx, systemClock, config, async (runtime, kit) => {
        const start = performance.now();
        const starting: Promise<void>[] = [];
        // `rate` probes a second, each with a 2 s timer: timers come due at `rate` per second
        for (let i = 0; i < total; ) {
          const due = start + (i / rate) * 1000;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          const batch: string[] = [];
          while (i < total && start + (i / rate) * 1000 <= performance.now()) batch.push(`${prefix}${i++}`);
          starting.push(startMany(kit, batch, 2_000, () => new Date()));
        }
        await Promise.all(starting);
        const fired = await waitForCount(ctx, prefix, total, 60_000);
        await runtime.whenIdle({ timeoutMs: 60_000 }).catch(() => undefined);
        return { fired, seconds: (performance.now() - start) / 1000 };
      });
      const { rows: span } = await ctx.pool.query<{ s: number }>(
        `select extract(epoch from (max(recorded_at) - min((data->>'dueAt')::timestamptz))) as s
         from es_events where event_type = 'ProbeRecorded' and data->>'probeId' like $1`,
        [`${prefix}%`],
      );
      const firingSeconds = Number(span[0]!.s);
      const { rows: late } = await ctx.pool.query<{ ms: number }>(
        `select extract(epoch from (recorded_at - (data->>'dueAt')::timestamptz)) * 1000 as ms
         from es_events where event_type = 'ProbeRecorded' and data->>'probeId' like $1`,
        [`${prefix}%`],
      );
      const ms = late.map((r) => Number(r.ms));
      rows.push({
        cell: `steady ${fmt(rate)} timers/s for ${seconds} s`,
        'jobs at once': config.concurrency,
        'poll ms': config.pollInterval,
        'timers fired': fmt(result.fired),
        seconds: fmt(firingSeconds, 2),
        'timers/s': fmt(result.fired / firingSeconds),
        'p50 late': `${fmt(percentile(ms, 50))} ms`,
        'p99 late': `${fmt(percentile(ms, 99))} ms`,
        'max late': `${fmt(Math.max(...ms))} ms`,
      });
      ctx.log(`lateness p99 ${fmt(percentile(ms, 99))} ms (target < 1,000 ms): ${percentile(ms, 99) < 1_000 ? 'met' : 'NOT met'}`);
    }

    ctx.table(
      'Process timers (embedded runtime: PostgreSQL + graphile-worker)',
      rows,
      'A fired timer = one graphile-worker job: lock the process row, react, write the outbox row and ' +
        'commit; then dispatch (handleCommand: read stream, decide, append with deterministic ids) and settle. ' +
        'Burst: timers/s from advancing a controlled clock past 2,000 timers to the last event. Steady: ' +
        'seconds from the first due time to the last event. "late" = the command\'s event recorded_at minus ' +
        "the timer's due time. Target: p99 under 1 s at 100 timers/s.",
    );
  },
};

export const workflowSections: BenchSection[] = [timerThroughput];

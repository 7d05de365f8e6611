import type { AppContext } from '../../context';
import type { BytePipeline } from './uploads';

const SCRUB_LOCK = 7_310_043;
const EXPIRY_EVERY_MS = 10 * 60_000;

/**
 * Background work of the byte pipeline on the worker role: expired uploads collected every ten
 * minutes, and a scrub every SCRUB_INTERVAL_HOURS (the first one that long after the last recorded
 * scrub, so restarts do not postpone it for ever). An advisory lock keeps two workers from
 * scrubbing at once.
 */
export const startPipelineJobs = (ctx: AppContext, pipeline: BytePipeline) => {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const later = (ms: number, work: () => Promise<void>) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      running = work().catch((error) => ctx.log.error({ component: 'blobs', err: error }, 'background work failed'));
    }, Math.min(ms, 2 ** 31 - 1));
    timer.unref();
    timers.add(timer);
  };

  const expire = async () => {
    const removed = await pipeline.store.deleteExpired();
    if (removed) ctx.log.info({ component: 'uploads', removed }, 'expired uploads collected');
    later(EXPIRY_EVERY_MS, expire);
  };

  const interval = ctx.config.SCRUB_INTERVAL_HOURS * 3_600_000;
  const scrubNow = async () => {
    const client = await ctx.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [SCRUB_LOCK]);
      if (rows[0]!.ok) {
        try {
          const report = await pipeline.scrub();
          ctx.log.info({ component: 'blobs', checked: report.checked, repaired: report.repaired, lost: report.lost }, 'scrub finished');
        } finally {
          await client.query('select pg_advisory_unlock($1)', [SCRUB_LOCK]);
        }
      }
    } finally {
      client.release();
    }
    later(interval, scrubNow);
  };

  later(1000, expire);
  void pipeline.lastScrub().then((last) => {
    // the first scrub of a fresh installation a minute after start (sooner with a shorter interval)
    const soonest = Math.min(60_000, interval);
    const due = last ? new Date(last.finishedAt).getTime() + interval - ctx.now().getTime() : soonest;
    later(Math.max(soonest, due), scrubNow);
  });

  return async () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    await running;
  };
};

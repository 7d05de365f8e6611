import type { AppContext } from '../../context';
import type { BytePipeline } from './uploads';

/** Anonymous uploads without bytes expire after minutes (ANONYMOUS_IDLE_MS): collected every minute. */
const EXPIRY_EVERY_MS = 60_000;

/**
 * Background work of the byte pipeline on the worker role: expired uploads collected every
 * minute. (The scrub and the collection of unreferenced chunks run as the blob-maintenance
 * process on the process runtime.)
 */
export const startPipelineJobs = (ctx: AppContext, pipeline: BytePipeline) => {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const later = (ms: number, work: () => Promise<void>) => {
    if (stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        running = work().catch((error) => ctx.log.error({ component: 'blobs', err: error }, 'background work failed'));
      },
      Math.min(ms, 2 ** 31 - 1),
    );
    timer.unref();
    timers.add(timer);
  };

  const expire = async () => {
    const removed = await pipeline.store.deleteExpired();
    if (removed) ctx.log.info({ component: 'uploads', removed }, 'expired uploads collected');
    later(EXPIRY_EVERY_MS, expire);
  };

  later(1000, expire);

  return async () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    await running;
  };
};

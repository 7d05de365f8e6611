import { BLOB_MAINTENANCE_STREAM, BlobMaintenanceScheduled, type BlobMaintenanceScheduledEvent } from '@axel/domain';
import { deterministicId, expected, metadataFor, WrongExpectedRevisionError } from '@axel/platform';
import { PermanentDispatchError, type DispatchContext, type ProcessCommand } from '@axel/workflows';
import { BLOB_MAINTENANCE_ID, BLOB_MAINTENANCE_PROCESS, COLLECT_TIMER, SCRUB_TIMER } from '@axel/workflows/blob-maintenance/blob-maintenance.process';
import type { AppContext } from '../../context';
import { collectUnreferenced, type CollectReport } from './blob-collect';
import type { BytePipeline } from './uploads';

/** One scrub or collection at a time across every worker of the installation. */
const MAINTENANCE_LOCK = 7_310_043;

const withLock = async <T>(ctx: AppContext, work: () => Promise<T>): Promise<T | null> => {
  const client = await ctx.pool.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [MAINTENANCE_LOCK]);
    if (!rows[0]!.ok) return null;
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MAINTENANCE_LOCK]);
    }
  } finally {
    client.release();
  }
};

/** Collects unreferenced chunks and keys and records the report for staff. */
export const collectBlobs = async (ctx: AppContext, pipeline: BytePipeline, options: { graceMs?: number } = {}): Promise<CollectReport> => {
  const report = await collectUnreferenced(ctx, pipeline.blobs, pipeline.keys, options);
  await ctx.pool.query('insert into blob_collections (started_at, finished_at, report) values ($1, $2, $3)', [report.startedAt, report.finishedAt, report]);
  ctx.log.info({ component: 'blobs', ...report }, 'unreferenced chunks collected');
  return report;
};

export const lastCollection = async (ctx: AppContext): Promise<CollectReport | null> => {
  const { rows } = await ctx.pool.query<{ report: CollectReport }>('select report from blob_collections order by id desc limit 1');
  return rows[0]?.report ?? null;
};

/** What a failed upkeep run is called for staff: the error's code or name, never its message (it may name paths). */
const failureOf = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const name = error instanceof Error ? error.name : 'Error';
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? `${name} ${code}` : name;
};

/**
 * The maintenance process's commands (`ScrubBlobs`, `CollectBlobs` on aggregate `blobs`). Both are
 * idempotent, so a redelivered command only runs the work once more; a run already under way
 * elsewhere makes this one a no-op. A run that fails is recorded for staff (health says degraded,
 * with the reason) and the command still succeeds: retrying it at once would hold every later scrub
 * and collection behind it in the process's outbox, and the next run comes at its time anyway.
 */
export const blobMaintenanceCommand = async (
  ctx: AppContext,
  pipeline: BytePipeline,
  command: ProcessCommand,
  _dctx: DispatchContext,
): Promise<{ position: number }> => {
  if (command.type !== 'ScrubBlobs' && command.type !== 'CollectBlobs') throw new PermanentDispatchError(`No handler for ${command.type} on blobs`);
  const step = command.type === 'ScrubBlobs' ? 'scrub' : 'collection';
  try {
    if (command.type === 'ScrubBlobs') {
      const report = await withLock(ctx, () => pipeline.scrub());
      if (report)
        ctx.log.info({ component: 'blobs', checked: report.checked, repaired: report.repaired, lost: report.lost, failed: report.failed }, 'scrub finished');
    } else {
      await withLock(ctx, () => collectBlobs(ctx, pipeline));
    }
  } catch (error) {
    ctx.log.error({ component: 'blobs', err: error, step }, 'blob upkeep failed: the next run comes at its time');
    pipeline.faults.record({ kind: 'upkeep', detail: `${step}: ${failureOf(error)}` });
    await pipeline.faults.flushed();
  }
  return { position: 0 };
};

/**
 * Writes the maintenance schedule (SCRUB_INTERVAL_HOURS, COLLECT_INTERVAL_HOURS) into its stream
 * when it differs from the last one written: the first starts the maintenance process, a change
 * re-times it. Several workers starting together write it once.
 */
export const scheduleBlobMaintenance = async (ctx: AppContext): Promise<void> => {
  const data = {
    scrubEveryMs: Math.round(ctx.config.SCRUB_INTERVAL_HOURS * 3_600_000),
    collectEveryMs: Math.round(ctx.config.COLLECT_INTERVAL_HOURS * 3_600_000),
  };
  const { revision, events } = await ctx.store.readStream(BLOB_MAINTENANCE_STREAM);
  const last = events.at(-1)?.data as BlobMaintenanceScheduledEvent['data'] | undefined;
  if (last && last.scrubEveryMs === data.scrubEveryMs && last.collectEveryMs === data.collectEveryMs) {
    // the same schedule: the process runs on it, unless it was stopped. One dead-lettered (by an older
    // version whose failing run was retried until it gave up) takes its parked timers again; one that
    // lost a timer gets the schedule written again, which sets both from now
    const runtime = ctx.processes();
    const process = await runtime?.getProcess(BLOB_MAINTENANCE_PROCESS, BLOB_MAINTENANCE_ID);
    if (process?.status === 'dead_letter') {
      ctx.log.warn({ component: 'blobs', lastError: process.lastError }, 'blob maintenance was dead-lettered: retried');
      await runtime!.retry(BLOB_MAINTENANCE_PROCESS, BLOB_MAINTENANCE_ID);
      return;
    }
    if (!process || (process.status === 'running' && process.timers[SCRUB_TIMER] && process.timers[COLLECT_TIMER])) return;
    if (process.status !== 'running') return;
  }
  const event = ctx.registry.encode({ type: BlobMaintenanceScheduled.type, data });
  try {
    await ctx.store.append(
      BLOB_MAINTENANCE_STREAM,
      [
        {
          id: deterministicId('blob-maintenance', String(revision + 1)),
          ...event,
          metadata: metadataFor({ actorId: null, actorKind: 'system', client: 'worker' }, ctx.now()),
        },
      ],
      expected.revision(revision),
    );
  } catch (error) {
    // another worker wrote it first
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
};

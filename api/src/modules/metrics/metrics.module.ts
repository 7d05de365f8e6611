import { createHash, timingSafeEqual } from 'node:crypto';
import { CommonErrors, DomainError } from '@axel/domain';
import type { FastifyRequest } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import type { AppContext } from '../../context';
import { clientAddresses, isLoopbackAddress } from '../../http/loopback';
import { processMetrics } from '../../metrics';
import type { Module } from '../../module';
import { auditFigures, blobFigures, mailOutboxFigures, processFigures } from './metrics.queries';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may scrape: a client on this machine (the connection and every address a proxy names), or
 * anyone presenting the configured METRICS_TOKEN as a bearer token. Anyone else is told nothing is here.
 */
export const mayScrape = (request: FastifyRequest, token: string | undefined): boolean => {
  if (clientAddresses(request).every(isLoopbackAddress)) return true;
  const header = request.headers.authorization;
  if (!token || typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(token));
};

/**
 * The figures read from the database at each scrape (read models, outbox, process runtime, audit
 * chain, blob store): whichever process is scraped reports the same shared state.
 */
const stateGauges = () => {
  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    head: gauge('axel_eventstore_head_position', 'Global position of the newest stored event'),
    projectionPosition: gauge('axel_projection_position', 'Checkpoint of each projection', ['projection']),
    projectionBehind: gauge('axel_projection_behind_events', 'Events stored after the checkpoint of each projection (capped at 100000)', ['projection']),
    projectionLag: gauge('axel_projection_lag_seconds', 'Age of the oldest event a projection has not applied yet', ['projection']),
    projectionFailing: gauge('axel_projection_failing', '1 while a projection stopped on an error in this process', ['projection']),
    processRunning: gauge('axel_process_runtime_running', 'Long-lived processes running'),
    processQueue: gauge('axel_process_runtime_queue_depth', 'Commands decided by processes and not yet dispatched'),
    processTimersDue: gauge('axel_process_runtime_timers_due', 'Running processes whose next timer is already due'),
    processDeadLetters: gauge('axel_process_runtime_dead_letters', 'Processes parked in the dead letter state'),
    mailOutbox: gauge('axel_mail_outbox', 'Mail in the outbox by status (pending is the delivery queue depth)', ['status']),
    auditSealingLag: gauge('axel_audit_sealing_lag_events', 'Events stored after the last one sealed into the audit chain'),
    auditCheckpointAge: gauge('axel_audit_last_checkpoint_age_seconds', 'Time since the audit chain was last signed (-1: never)'),
    replicasMissing: gauge('axel_blob_replicas_missing', 'Chunks the last scrub left without all their replicas (lost or not repaired)'),
    chunksLost: gauge('axel_blob_chunks_lost', 'Chunks the last scrub found without any intact replica'),
    scrubChecked: gauge('axel_blob_scrub_checked_chunks', 'Chunks the last scrub checked'),
    scrubRepaired: gauge('axel_blob_scrub_repaired_chunks', 'Chunks the last scrub repaired'),
    scrubFinished: gauge('axel_blob_scrub_last_finished_timestamp_seconds', 'When the last scrub finished (0: never)'),
    scrubDuration: gauge('axel_blob_scrub_last_duration_seconds', 'How long the last scrub ran'),
    blobFaults: gauge('axel_blob_faults_open', 'Blob store faults recorded since the last scrub began'),
    uploadsReceiving: gauge('axel_uploads_receiving', 'Resumable uploads still receiving'),
    uploadBytesReceived: gauge('axel_uploads_received_bytes', 'Bytes the unfinished uploads have received so far'),
  };
};

const MAIL_STATUSES = ['pending', 'delivered', 'failed'] as const;

const readState = async (ctx: AppContext, g: ReturnType<typeof stateGauges>) => {
  const [head, projections, processes, mail, audit, blobs] = await Promise.all([
    ctx.store.headPosition(),
    ctx.runner.status(),
    processFigures(ctx.pool),
    mailOutboxFigures(ctx.pool),
    auditFigures(ctx.pool),
    blobFigures(ctx.pool),
  ]);
  g.head.set(head);
  for (const p of projections) {
    g.projectionPosition.set({ projection: p.name }, p.position);
    g.projectionBehind.set({ projection: p.name }, p.behind);
    g.projectionLag.set({ projection: p.name }, p.lagMs / 1000);
    g.projectionFailing.set({ projection: p.name }, p.lastError ? 1 : 0);
  }
  if (processes) {
    g.processRunning.set(processes.running);
    g.processQueue.set(processes.queueDepth);
    g.processTimersDue.set(processes.timersDue);
    g.processDeadLetters.set(processes.deadLetters);
  }
  for (const status of MAIL_STATUSES) g.mailOutbox.set({ status }, mail?.[status] ?? 0);
  if (audit) {
    g.auditSealingLag.set(Math.max(0, head - audit.sealedUpTo));
    g.auditCheckpointAge.set(audit.lastCheckpointAt ? Math.max(0, (Date.now() - audit.lastCheckpointAt.getTime()) / 1000) : -1);
  }
  if (blobs) {
    const report = blobs.lastScrub?.report ?? {};
    const count = (key: string) => (typeof report[key] === 'number' ? (report[key] as number) : 0);
    g.replicasMissing.set(count('lost') + count('failed'));
    g.chunksLost.set(count('lost'));
    g.scrubChecked.set(count('checked'));
    g.scrubRepaired.set(count('repaired'));
    g.scrubFinished.set(blobs.lastScrub ? blobs.lastScrub.finishedAt.getTime() / 1000 : 0);
    g.scrubDuration.set(blobs.lastScrub ? (blobs.lastScrub.finishedAt.getTime() - blobs.lastScrub.startedAt.getTime()) / 1000 : 0);
    g.blobFaults.set(blobs.openFaults);
    g.uploadsReceiving.set(blobs.uploadsReceiving);
    g.uploadBytesReceived.set(blobs.uploadBytesReceived);
  }
};

/** `GET /metrics`: Prometheus text, this process's counters and the shared state read at the scrape. */
export const createMetricsModule = (): Module => {
  const gauges = stateGauges();
  return {
    name: 'metrics',
    routes: (ctx) => async (app) => {
      app.get(
        '/metrics',
        { schema: { tags: ['system'], summary: 'Prometheus metrics (loopback, or METRICS_TOKEN as a bearer token)' } },
        async (request, reply) => {
          if (!mayScrape(request, ctx.config.METRICS_TOKEN)) throw new DomainError(CommonErrors.notFound);
          await readState(ctx, gauges);
          const text = `${await processMetrics.metrics()}\n${await gauges.registry.metrics()}`;
          return reply.type(processMetrics.contentType).send(text);
        },
      );
    },
  };
};

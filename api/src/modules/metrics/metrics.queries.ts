import type { Queryable } from '@axel/platform';

/** Figures of one table, or none when the table is not there (a part of the product this process does not run). */
const optional = async <T>(db: Queryable, table: string, read: () => Promise<T>): Promise<T | null> => {
  const { rows } = await db.query<{ present: boolean }>('select to_regclass($1) is not null as present', [table]);
  return rows[0]?.present ? read() : null;
};

export interface ProcessFigures {
  readonly running: number;
  readonly timersDue: number;
  readonly deadLetters: number;
  readonly queueDepth: number;
}

/** The embedded process runtime: running processes, timers already due, dead letters, commands waiting to be dispatched. */
export const processFigures = (db: Queryable): Promise<ProcessFigures | null> =>
  optional(db, 'wf_processes', async () => {
    const { rows } = await db.query<{ running: number; due: number; dead: number; queued: number }>(
      `select count(*) filter (where status = 'running')::int as running,
              count(*) filter (where status = 'running' and next_timer_at <= now())::int as due,
              count(*) filter (where status = 'dead_letter')::int as dead,
              (select count(*)::int from wf_commands where dispatched_at is null) as queued
       from wf_processes`,
    );
    const r = rows[0]!;
    return { running: r.running, timersDue: r.due, deadLetters: r.dead, queueDepth: r.queued };
  });

/** Mail in the outbox by status (pending waits for delivery, failed gave up). */
export const mailOutboxFigures = (db: Queryable): Promise<Record<string, number> | null> =>
  optional(db, 'mail_outbox', async () => {
    const { rows } = await db.query<{ status: string; count: number }>('select status, count(*)::int as count from mail_outbox group by status');
    return Object.fromEntries(rows.map((r) => [r.status, r.count]));
  });

export interface AuditFigures {
  readonly sealedUpTo: number;
  readonly lastCheckpointAt: Date | null;
}

/** How far the audit chain is sealed, and when it was last signed. */
export const auditFigures = (db: Queryable): Promise<AuditFigures | null> =>
  optional(db, 'audit_links', async () => {
    const { rows } = await db.query<{ sealed: string | null; signed: Date | null }>(
      'select (select max(position) from audit_links) as sealed, (select max(created_at) from audit_checkpoints) as signed',
    );
    return { sealedUpTo: Number(rows[0]?.sealed ?? 0), lastCheckpointAt: rows[0]?.signed ?? null };
  });

export interface BlobFigures {
  readonly lastScrub: { readonly startedAt: Date; readonly finishedAt: Date; readonly report: Record<string, unknown> } | null;
  readonly openFaults: number;
  readonly uploadsReceiving: number;
  readonly uploadBytesReceived: number;
}

/** The last scrub's report, the faults recorded since, and the uploads still receiving. */
export const blobFigures = (db: Queryable): Promise<BlobFigures | null> =>
  optional(db, 'blob_scrubs', async () => {
    const { rows: scrubs } = await db.query<{ started_at: Date; finished_at: Date; report: Record<string, unknown> }>(
      'select started_at, finished_at, report from blob_scrubs order by id desc limit 1',
    );
    const last = scrubs[0];
    const { rows: faults } = await db.query<{ open: number }>('select count(*)::int as open from blob_faults where at >= $1', [
      last?.started_at ?? new Date(0),
    ]);
    const { rows: uploads } = await db.query<{ receiving: number; bytes: string | null }>(
      `select count(*)::int as receiving, sum("offset") as bytes from uploads where status = 'receiving'`,
    );
    return {
      lastScrub: last ? { startedAt: last.started_at, finishedAt: last.finished_at, report: last.report } : null,
      openFaults: faults[0]?.open ?? 0,
      uploadsReceiving: uploads[0]?.receiving ?? 0,
      uploadBytesReceived: Number(uploads[0]?.bytes ?? 0),
    };
  });

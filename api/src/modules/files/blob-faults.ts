import type { ReplicatedBlobStore, ShardFault } from '@axel/platform/blobs/index';
import type { AppContext } from '../../context';

export const blobFaultMigrations = [
  {
    id: 'api-files-blob-faults',
    sql: `
      -- what went wrong with the blob store, for staff: a shard that refused an operation, a chunk a
      -- read found without an intact replica, an upkeep run that failed. Settled by the next clean scrub.
      create table blob_faults (
        id bigserial primary key,
        at timestamptz not null,
        kind text not null check (kind in ('shard', 'chunk-lost', 'upkeep')),
        shard text,
        detail text not null,
        cid text,
        item_id text
      );
      create index blob_faults_at on blob_faults (at);
    `,
  },
];

export type BlobFaultKind = 'shard' | 'chunk-lost' | 'upkeep';

export interface BlobFault {
  readonly kind: BlobFaultKind;
  readonly shard?: string | null;
  /** Words or an error code; never a path. */
  readonly detail: string;
  readonly cid?: string | null;
  /** The file being read when a chunk was found lost. */
  readonly itemId?: string | null;
}

/** Why the blob store is degraded: a code the console words, with what it concerns. */
export interface BlobHealthReason {
  readonly code: 'shard-problem' | 'shard-fault' | 'chunk-lost' | 'chunks-lost' | 'repairs-failed' | 'upkeep-failed';
  readonly shard: string | null;
  readonly detail: string | null;
  readonly count: number;
  readonly at: string | null;
}

export interface BlobHealthStatus {
  readonly status: 'ok' | 'degraded';
  readonly reasons: readonly BlobHealthReason[];
}

/** The same fault is recorded at most once in this window (a failing shard fails every put). */
const REPEAT_MS = 60_000;

/** Where the blob store's faults are recorded (PostgreSQL, so every process sees them) and what health makes of them. */
export class BlobFaults {
  private readonly recent = new Map<string, number>();
  private pending: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {}

  /** Records a fault (logged at once, written in the background, repeats within a minute dropped). */
  record(fault: BlobFault): void {
    const key = `${fault.kind}\0${fault.shard ?? ''}\0${fault.detail}\0${fault.cid ?? ''}`;
    const now = this.ctx.now().getTime();
    const last = this.recent.get(key);
    if (last !== undefined && now - last < REPEAT_MS) return;
    this.recent.set(key, now);
    if (this.recent.size > 1000) this.recent.clear();
    this.ctx.log.warn({ component: 'blobs', ...fault }, 'blob store fault');
    this.pending = this.pending
      .then(() =>
        this.ctx.pool.query('insert into blob_faults (at, kind, shard, detail, cid, item_id) values ($1, $2, $3, $4, $5, $6)', [
          this.ctx.now(),
          fault.kind,
          fault.shard ?? null,
          fault.detail.slice(0, 500),
          fault.cid ?? null,
          fault.itemId ?? null,
        ]),
      )
      .catch((error: unknown) => this.ctx.log.error({ component: 'blobs', err: error }, 'could not record a blob store fault'));
  }

  shardFault(fault: ShardFault): void {
    this.record({ kind: 'shard', shard: fault.shard, detail: `${fault.operation}: ${fault.reason}` });
  }

  /** Waits for the faults recorded so far to be written. */
  async flushed(): Promise<void> {
    await this.pending;
  }

  /** The faults recorded since the last clean scrub began, newest first. */
  async recentFaults(limit = 50) {
    await this.flushed();
    const { rows } = await this.ctx.pool.query<{
      at: Date;
      kind: BlobFaultKind;
      shard: string | null;
      detail: string;
      cid: string | null;
      item_id: string | null;
    }>(`select at, kind, shard, detail, cid, item_id from blob_faults where at >= $1 order by id desc limit $2`, [await this.settledAt(), limit]);
    return rows.map((r) => ({ at: r.at.toISOString(), kind: r.kind, shard: r.shard, detail: r.detail, cid: r.cid, itemId: r.item_id }));
  }

  /** When the last scrub that found nothing wrong began: faults before it are settled. */
  private async settledAt(): Promise<Date> {
    const { rows } = await this.ctx.pool.query<{ started_at: Date }>(
      `select started_at from blob_scrubs
       where (report->>'lost')::int = 0 and coalesce((report->>'failed')::int, 0) = 0
         and coalesce(jsonb_array_length(report->'shardFaults'), 0) = 0
       order by id desc limit 1`,
    );
    return rows[0]?.started_at ?? new Date(0);
  }

  /**
   * Degraded, with the reasons, while replicas are missing or may be: a shard's folder is gone or was
   * made again since a scrub checked it, a shard refused operations, a read or the last scrub found
   * chunks without an intact replica or could not repair some, an upkeep run failed. Cheap enough
   * for `/api/health` (a stat per shard, two queries).
   */
  async status(blobs: ReplicatedBlobStore): Promise<BlobHealthStatus> {
    const reasons: BlobHealthReason[] = [];
    for (const shard of blobs.shards) {
      const problem = await shard.check?.().catch(() => 'check failed');
      if (problem) reasons.push({ code: 'shard-problem', shard: shard.name, detail: problem, count: 1, at: null });
    }
    await this.flushed();
    const since = await this.settledAt();
    const { rows } = await this.ctx.pool.query<{ kind: BlobFaultKind; shard: string | null; detail: string; count: string; at: Date }>(
      `select kind, shard, case when kind = 'chunk-lost' then 'read' else detail end as detail, count(*) as count, max(at) as at
       from blob_faults where at >= $1 group by 1, 2, 3 order by max(at) desc limit 20`,
      [since],
    );
    for (const r of rows) {
      const code = r.kind === 'shard' ? 'shard-fault' : r.kind === 'chunk-lost' ? 'chunk-lost' : 'upkeep-failed';
      reasons.push({ code, shard: r.shard, detail: r.kind === 'chunk-lost' ? null : r.detail, count: Number(r.count), at: r.at.toISOString() });
    }
    const { rows: last } = await this.ctx.pool.query<{ report: { lost: number; failed?: number; finishedAt: string } }>(
      'select report from blob_scrubs order by id desc limit 1',
    );
    const scrub = last[0]?.report;
    if (scrub?.lost) reasons.push({ code: 'chunks-lost', shard: null, detail: null, count: scrub.lost, at: scrub.finishedAt });
    if (scrub?.failed) reasons.push({ code: 'repairs-failed', shard: null, detail: null, count: scrub.failed, at: scrub.finishedAt });
    return { status: reasons.length ? 'degraded' : 'ok', reasons };
  }
}

import type { FileKeys, ReplicatedBlobStore } from '@axel/platform/blobs/index';
import type { AppContext } from '../../context';

/** A chunk or key is only collected once it has been seen unreferenced for at least this long. */
export const COLLECT_GRACE_MS = 60 * 60_000;
/** How long a collection waits for the storage read model to reach the store's head before it deletes nothing. */
const CATCH_UP_MS = 30_000;

export interface CollectReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Distinct chunks stored on any shard. */
  readonly stored: number;
  /** Stored chunks no file version or upload names. */
  readonly unreferenced: number;
  readonly chunksDeleted: number;
  readonly keysDestroyed: number;
  /** Unreferenced chunks and keys kept for now: seen too recently, or while an upload that may own them was live. */
  readonly waiting: number;
  /** Set when nothing could be deleted this time (the storage read model lagged behind the event store). */
  readonly skipped: string | null;
}

export const blobCollectMigrations = [
  {
    id: 'api-files-004-blob-collect',
    sql: `
      -- chunks ('chunk') and file keys ('key') no manifest or upload named when a collection last looked
      create table blob_orphans (
        kind text not null check (kind in ('chunk', 'key')),
        id text not null,
        first_seen_at timestamptz not null,
        primary key (kind, id)
      );
      create table blob_collections (
        id bigserial primary key,
        started_at timestamptz not null,
        finished_at timestamptz not null,
        report jsonb not null
      );
    `,
  },
];

/**
 * Collects what no file version and no upload uses any more: chunks left by deleted versions,
 * purged storages, uploads that expired or were cut off, and content whose deletion was recorded
 * but never carried out (a crash between the delete event and the removal). It is idempotent and
 * resumable: every run recomputes what is unreferenced from the manifests, so a run cut off at any
 * point is simply finished by the next one.
 *
 * Safe against uploads in progress, in two phases. A chunk is stored before its upload records it,
 * so a run only marks what it finds unreferenced (`blob_orphans`, with the time first seen); a
 * later run deletes a mark only when it is still unreferenced, older than the grace period, and
 * older than the oldest live upload (every chunk of a live upload is stored after that upload was
 * created, so it can never have been seen before it). References are read from the uploads first
 * and then from the storage read model once it has reached the event store's head as of after
 * that read: a file made from an upload (its event appended before the upload row goes) is always
 * seen in one place or the other.
 *
 * Keys follow the same rule: a data key is destroyed when no upload and no manifest names it.
 */
export const collectUnreferenced = async (
  ctx: AppContext,
  blobs: ReplicatedBlobStore,
  keys: FileKeys,
  options: { graceMs?: number } = {},
): Promise<CollectReport> => {
  const started = ctx.now();
  const graceMs = options.graceMs ?? COLLECT_GRACE_MS;
  const report = (fields: Omit<CollectReport, 'startedAt' | 'finishedAt'>): CollectReport => ({
    startedAt: started.toISOString(),
    finishedAt: ctx.now().toISOString(),
    ...fields,
  });

  // 1. the uploads: their chunks, their keys, and the oldest of them still live
  const uploads = await ctx.pool.query<{ oldest: Date | null; cids: string[] | null; keys: string[] | null }>(
    `select (select min(created_at) from uploads) as oldest,
            (select array_agg(cid) from upload_chunks) as cids,
            (select array_agg(key_id) from uploads) as keys`,
  );
  const referencedChunks = new Set(uploads.rows[0]?.cids ?? []);
  const referencedKeys = new Set(uploads.rows[0]?.keys ?? []);
  const oldestUpload = uploads.rows[0]?.oldest ?? null;

  // 2. the file versions, from a storage read model that has seen every event stored by now
  const head = await ctx.store.headPosition();
  const caughtUp = await ctx.runner.waitFor(head, { names: ['storage'], timeoutMs: CATCH_UP_MS });
  if (!caughtUp) {
    return report({ stored: 0, unreferenced: 0, chunksDeleted: 0, keysDestroyed: 0, waiting: 0, skipped: 'the storage read model is behind the event store' });
  }
  const files = await ctx.pool.query<{ cid: string | null; key_id: string }>(
    `select c->>'cid' as cid, manifest->>'keyId' as key_id
       from storage_items left join lateral jsonb_array_elements(manifest->'chunks') c on true
      where manifest is not null`,
  );
  for (const r of files.rows) {
    if (r.cid) referencedChunks.add(r.cid);
    referencedKeys.add(r.key_id);
  }

  // 3. what is stored and named by nobody
  const stored = new Set<string>();
  for (const shard of blobs.shards) for await (const cid of shard.list()) stored.add(cid);
  const orphanChunks = [...stored].filter((cid) => !referencedChunks.has(cid));
  const liveKeys = await ctx.pool.query<{ key_id: string }>('select key_id from file_keys where wrapped_key is not null');
  const orphanKeys = liveKeys.rows.map((r) => r.key_id).filter((k) => !referencedKeys.has(k));

  // 4. marks: what is no longer unreferenced loses its mark, what is newly unreferenced gets one
  const now = ctx.now();
  const marks = new Map<string, Date>();
  await ctx.pool.query(
    `delete from blob_orphans o where not (
       (o.kind = 'chunk' and o.id = any($1::text[])) or (o.kind = 'key' and o.id = any($2::text[])))`,
    [orphanChunks, orphanKeys],
  );
  await ctx.pool.query(
    `insert into blob_orphans (kind, id, first_seen_at)
     select 'chunk', unnest($1::text[]), $3::timestamptz union all select 'key', unnest($2::text[]), $3::timestamptz
     on conflict do nothing`,
    [orphanChunks, orphanKeys, now],
  );
  const { rows: markRows } = await ctx.pool.query<{ kind: string; id: string; first_seen_at: Date }>('select kind, id, first_seen_at from blob_orphans');
  for (const m of markRows) marks.set(`${m.kind}:${m.id}`, m.first_seen_at);

  // 5. collected: marked long enough ago, and before any upload still live was created
  const cutoff = Math.min(now.getTime() - graceMs, oldestUpload ? oldestUpload.getTime() : Number.POSITIVE_INFINITY);
  const due = (kind: string, id: string) => {
    const seen = marks.get(`${kind}:${id}`);
    return seen !== undefined && seen.getTime() < cutoff;
  };
  let keysDestroyed = 0;
  let chunksDeleted = 0;
  let waiting = 0;
  // keys first: from that moment whatever chunks remain are unreadable
  for (const keyId of orphanKeys) {
    if (!due('key', keyId)) {
      waiting++;
      continue;
    }
    await keys.destroy(keyId);
    await ctx.pool.query(`delete from blob_orphans where kind = 'key' and id = $1`, [keyId]);
    keysDestroyed++;
  }
  for (const cid of orphanChunks) {
    if (!due('chunk', cid)) {
      waiting++;
      continue;
    }
    await blobs.delete(cid);
    await ctx.pool.query(`delete from blob_orphans where kind = 'chunk' and id = $1`, [cid]);
    chunksDeleted++;
  }
  return report({ stored: stored.size, unreferenced: orphanChunks.length, chunksDeleted, keysDestroyed, waiting, skipped: null });
};

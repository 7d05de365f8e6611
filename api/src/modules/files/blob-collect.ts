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

/** Chunk ids sent to PostgreSQL at once while listing the shards, and chunks or keys deleted per page. */
export const COLLECT_PAGE_SIZE = 2_000;

/**
 * Collects what no file version and no upload uses any more: chunks left by deleted versions,
 * purged storages, uploads that expired or were cut off, and content whose deletion was recorded
 * but never carried out (a crash between the delete event and the removal). It is idempotent and
 * resumable: every run recomputes what is unreferenced from the manifests, so a run cut off at any
 * point is simply finished by the next one.
 *
 * Its memory does not grow with the number of chunks: the sets are temporary tables of its own
 * connection (what the uploads and manifests name, what the shards hold, listed and sent in pages
 * of `pageSize`), the unreferenced set is an anti-join in PostgreSQL, and deletions go by pages.
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
  options: { graceMs?: number; pageSize?: number } = {},
): Promise<CollectReport> => {
  const started = ctx.now();
  const graceMs = options.graceMs ?? COLLECT_GRACE_MS;
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? COLLECT_PAGE_SIZE));
  const report = (fields: Omit<CollectReport, 'startedAt' | 'finishedAt'>): CollectReport => ({
    startedAt: started.toISOString(),
    finishedAt: ctx.now().toISOString(),
    ...fields,
  });

  const db = await ctx.pool.connect();
  try {
    await db.query(`
      drop table if exists pg_temp.collect_chunk_refs, pg_temp.collect_key_refs, pg_temp.collect_stored, pg_temp.collect_orphans;
      create temp table collect_chunk_refs (cid text primary key);
      create temp table collect_key_refs (key_id text primary key);
      create temp table collect_stored (cid text primary key);
      create temp table collect_orphans (kind text not null, id text not null, primary key (kind, id));
    `);

    // 1. the uploads: their chunks, their keys, and the oldest of them still live (one snapshot)
    await db.query('begin isolation level repeatable read');
    let oldestUpload: Date | null;
    try {
      await db.query('insert into collect_chunk_refs select distinct cid from upload_chunks');
      await db.query('insert into collect_key_refs select distinct key_id from uploads where key_id is not null');
      oldestUpload = (await db.query<{ oldest: Date | null }>('select min(created_at) as oldest from uploads')).rows[0]?.oldest ?? null;
      await db.query('commit');
    } catch (error) {
      await db.query('rollback');
      throw error;
    }

    // 2. the file versions, from a storage read model that has seen every event stored by now
    const head = await ctx.store.headPosition();
    const caughtUp = await ctx.runner.waitFor(head, { names: ['storage'], timeoutMs: CATCH_UP_MS });
    if (!caughtUp) {
      return report({
        stored: 0,
        unreferenced: 0,
        chunksDeleted: 0,
        keysDestroyed: 0,
        waiting: 0,
        skipped: 'the storage read model is behind the event store',
      });
    }
    await db.query(
      `insert into collect_chunk_refs
       select c->>'cid' from storage_items cross join lateral jsonb_array_elements(manifest->'chunks') c
        where manifest is not null and c->>'cid' is not null
       on conflict do nothing`,
    );
    await db.query(`insert into collect_key_refs select manifest->>'keyId' from storage_items where manifest->>'keyId' is not null on conflict do nothing`);

    // 3. what the shards hold, listed page by page (a chunk has R replicas: it is counted once)
    let page: string[] = [];
    const flush = async () => {
      if (page.length) await db.query('insert into collect_stored select unnest($1::text[]) on conflict do nothing', [page]);
      page = [];
    };
    for (const shard of blobs.shards) {
      for await (const cid of shard.list()) {
        page.push(cid);
        if (page.length >= pageSize) await flush();
      }
    }
    await flush();
    await db.query('analyze collect_chunk_refs; analyze collect_key_refs; analyze collect_stored');

    // ... and named by nobody
    await db.query(
      `insert into collect_orphans select 'chunk', s.cid from collect_stored s where not exists (select 1 from collect_chunk_refs r where r.cid = s.cid)`,
    );
    await db.query(
      `insert into collect_orphans select 'key', k.key_id from file_keys k
        where k.wrapped_key is not null and not exists (select 1 from collect_key_refs r where r.key_id = k.key_id)`,
    );
    await db.query('analyze collect_orphans');
    const counts = (
      await db.query<{ stored: number; chunks: number; keys: number }>(
        `select (select count(*)::int from collect_stored) as stored,
                (select count(*)::int from collect_orphans where kind = 'chunk') as chunks,
                (select count(*)::int from collect_orphans where kind = 'key') as keys`,
      )
    ).rows[0]!;

    // 4. marks: what is no longer unreferenced loses its mark, what is newly unreferenced gets one
    const now = ctx.now();
    await db.query('delete from blob_orphans o where not exists (select 1 from collect_orphans x where x.kind = o.kind and x.id = o.id)');
    await db.query('insert into blob_orphans (kind, id, first_seen_at) select kind, id, $1 from collect_orphans on conflict do nothing', [now]);

    // 5. collected: marked long enough ago, and before any upload still live was created
    const cutoff = new Date(Math.min(now.getTime() - graceMs, oldestUpload ? oldestUpload.getTime() : Number.POSITIVE_INFINITY));
    /** Every due mark of a kind, a page at a time; `remove` deletes each, then its marks go. */
    const sweep = async (kind: 'chunk' | 'key', remove: (id: string) => Promise<void>): Promise<number> => {
      let done = 0;
      let after = '';
      for (;;) {
        const { rows } = await db.query<{ id: string }>(
          `select o.id from blob_orphans o join collect_orphans x on x.kind = o.kind and x.id = o.id
            where o.kind = $1 and o.first_seen_at < $2 and o.id > $3
            order by o.id limit $4`,
          [kind, cutoff, after, pageSize],
        );
        if (!rows.length) return done;
        const ids = rows.map((r) => r.id);
        for (const id of ids) await remove(id);
        await db.query('delete from blob_orphans where kind = $1 and id = any($2::text[])', [kind, ids]);
        done += ids.length;
        after = ids.at(-1)!;
      }
    };
    // keys first: from that moment whatever chunks remain are unreadable
    const keysDestroyed = await sweep('key', (keyId) => keys.destroy(keyId));
    const chunksDeleted = await sweep('chunk', (cid) => blobs.delete(cid));
    const waiting = counts.chunks + counts.keys - keysDestroyed - chunksDeleted;
    return report({ stored: counts.stored, unreferenced: counts.chunks, chunksDeleted, keysDestroyed, waiting, skipped: null });
  } finally {
    // a connection that cannot drop its tables is not given back to the pool
    const dropped = await db
      .query('drop table if exists pg_temp.collect_chunk_refs, pg_temp.collect_key_refs, pg_temp.collect_stored, pg_temp.collect_orphans')
      .then(
        () => true,
        () => false,
      );
    db.release(!dropped);
  }
};

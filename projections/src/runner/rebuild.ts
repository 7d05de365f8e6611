import type { EventRegistry } from '@axel/domain';
import { withTransaction, type EventStore, type Pool, type PoolClient } from '@axel/platform';
import { applyPage, decodeEvents, ensureTables } from './apply';
import { readCheckpoint } from './checkpoints';
import { liveTables, nextTables, type Projection } from './projection';

export interface RebuildOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly registry: EventRegistry;
  readonly projection: Projection;
  readonly pageSize?: number;
  readonly onProgress?: (position: number, events: number) => void;
}

export interface RebuildResult {
  readonly position: number;
  readonly events: number;
  readonly ms: number;
}

const replay = async (
  options: RebuildOptions,
  from: number,
  write: (page: { events: ReturnType<typeof decodeEvents>; checkpoint: number }) => Promise<void>,
): Promise<{ position: number; events: number }> => {
  let position = from;
  let count = 0;
  for (;;) {
    const page = await options.store.readAll({ from: position, limit: options.pageSize ?? 2000, types: options.projection.handles });
    if (page.events.length || page.checkpoint > position) {
      await write({ events: decodeEvents(options.registry, page.events), checkpoint: page.checkpoint });
      count += page.events.length;
      position = Math.max(position, page.checkpoint);
      options.onProgress?.(position, count);
    }
    if (page.isEnd) return { position, events: count };
  }
};

/**
 * Rebuilds a projection from position 0 into `<table>__next` copies while the live tables keep
 * serving, then swaps them in one transaction that holds the live checkpoint row: the live runner
 * waits for the swap and then continues from the rebuilt checkpoint.
 */
export const rebuildProjection = async (options: RebuildOptions): Promise<RebuildResult> => {
  const started = Date.now();
  const { pool, projection } = options;
  const next = nextTables(projection);
  const live = liveTables(projection);
  const nextCheckpoint = `${projection.name}__next`;

  await withTransaction(pool, async (tx) => {
    for (const table of Object.values(next)) await tx.query(`drop table if exists "${table}"`);
    await tx.query('delete from projection_checkpoints where name = $1', [nextCheckpoint]);
    await ensureTables(tx, projection, next, nextCheckpoint);
    await ensureTables(tx, projection, live, projection.name);
  });

  const bulk = await replay(options, 0, ({ events, checkpoint }) =>
    withTransaction(pool, async (tx) => {
      await tx.query('set local synchronous_commit = off');
      await applyPage(tx, projection, next, nextCheckpoint, events, checkpoint);
    }),
  );

  const tail = await withTransaction(pool, async (tx: PoolClient) => {
    await tx.query('select position from projection_checkpoints where name = $1 for update', [projection.name]);
    const from = await readCheckpoint(tx, nextCheckpoint);
    const caughtUp = await replay(options, from, async ({ events, checkpoint }) => {
      await applyPage(tx, projection, next, nextCheckpoint, events, checkpoint);
    });
    const position = Math.max(caughtUp.position, await readCheckpoint(tx, nextCheckpoint));
    for (const [logical, table] of Object.entries(next)) {
      await tx.query(`drop table if exists "${live[logical]}"`);
      await tx.query(`alter table "${table}" rename to "${live[logical]}"`);
    }
    await tx.query('delete from projection_checkpoints where name = $1', [nextCheckpoint]);
    await tx.query('update projection_checkpoints set position = $2, updated_at = now(), rebuilt_at = now() where name = $1', [projection.name, position]);
    return { position, events: caughtUp.events };
  });

  return { position: tail.position, events: bulk.events + tail.events, ms: Date.now() - started };
};

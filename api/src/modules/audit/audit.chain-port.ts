import { chainEvent, GENESIS_LINK, type SealedEvent } from '@axel/platform/audit/chain';
import { exportEventLine, type ExportCheckpointLine } from '@axel/platform/audit/export-format';
import type { AuditKeys, AuditSigningKey } from '@axel/platform/audit/keys';
import { PostgresEventStore, type EventStore, type GlobalPosition, type Migration, type Pool, type Queryable, type RecordedEvent } from '@axel/platform';
import type { AppContext } from '../../context';
import type { Logger } from '../../logger';
import {
  ChainWalk,
  checkpointsBetween,
  exportEnd,
  exportHeaderLine,
  keyset,
  sealedUpTo,
  sealLocked,
  sealUntilDone,
  writeCheckpoint,
  type ChainTables,
  type ChainVerification,
  type CheckpointRow,
  type ExportRange,
  type WalkedPosition,
} from './audit.chain';
import { SealerLoop } from './sealer-loop';

/**
 * The audit chain over the event store port, for a store whose events are not in this database
 * (KurrentDB at EVENTSTORE_URL). Events are read with the port's `readAll` in global order (its
 * readers never see a lower position after a higher one, so a late commit is never skipped),
 * chained with version 1 canonical bytes (`chainEvent`), and the links and signed checkpoints are
 * kept in this PostgreSQL database keyed by the port's global position. Verify and export read the
 * store through the same port, so the same code runs against every adapter.
 */
export const portChainMigrations: Migration[] = [
  {
    id: 'audit-port-001-chain',
    sql: `
create table audit_port_links (
  position bigint primary key,
  link bytea not null,
  recorded_at timestamptz not null
);
create index audit_port_links_recorded_at on audit_port_links (recorded_at);
create table audit_port_checkpoints (
  upto_position bigint primary key,
  link bytea not null,
  signature bytea not null,
  key_id text not null,
  created_at timestamptz not null default now()
);`,
  },
];

const PORT_CHAIN: ChainTables = {
  links: 'audit_port_links',
  checkpoints: 'audit_port_checkpoints',
  /** Serialises sealers across processes (not the lock of the PostgreSQL store's chain). */
  sealLock: 7_310_013,
  versioned: false,
  eventAtCheckpointSql: 'null::boolean',
};
export const PORT_SEAL_BATCH = 2000;
const PAGE = 2000;

/** The event exactly as the store holds it: personal fields stay sealed, so an erasure never breaks the chain. */
const sealedEvent = (e: RecordedEvent): SealedEvent => ({
  id: e.id,
  stream: e.streamName,
  revision: e.revision,
  position: e.position,
  type: e.type,
  schemaVersion: e.schemaVersion,
  data: e.data,
  metadata: e.metadata,
});

export interface PortSealResult {
  /** Events chained (null when another process holds the sealing lock). */
  readonly sealed: number | null;
  /** Where the port's read ended: the next batch reads after it. */
  readonly readUpTo: GlobalPosition;
  /** Nothing more to read for now. */
  readonly isEnd: boolean;
}

/**
 * Chains the events after the last sealed one (or after `after`, when the sealer has already read
 * past events-free positions) and ends the batch with a signed checkpoint, in one transaction.
 */
export const sealPortBatch = async (
  pool: Pool,
  store: EventStore,
  key: AuditSigningKey,
  { limit = PORT_SEAL_BATCH, after = 0 }: { limit?: number; after?: GlobalPosition } = {},
): Promise<PortSealResult> =>
  sealLocked<PortSealResult>(pool, PORT_CHAIN, { sealed: null, readUpTo: after, isEnd: true }, async (db, last) => {
    let previous = last?.link ?? GENESIS_LINK;
    const from = Math.max(after, last?.position ?? 0);
    const page = await store.readAll({ from, limit });
    if (page.events.length > 0) {
      const positions: number[] = [];
      const links: Buffer[] = [];
      const times: string[] = [];
      for (const event of page.events) {
        previous = chainEvent(previous, sealedEvent(event));
        positions.push(event.position);
        links.push(previous);
        times.push(event.recordedAt.toISOString());
      }
      await db.query('insert into audit_port_links (position, link, recorded_at) select * from unnest($1::bigint[], $2::bytea[], $3::timestamptz[])', [
        positions,
        links,
        times,
      ]);
      await writeCheckpoint(db, PORT_CHAIN, key, positions[positions.length - 1]!, previous, 1);
    }
    return { sealed: page.events.length, readUpTo: Math.max(from, page.checkpoint), isEnd: page.isEnd };
  });

/** Seals until the port has nothing more to read (tests and the command line); each batch reads on from where the last one ended. */
export const sealPortAll = (pool: Pool, store: EventStore, key: AuditSigningKey, limit = PORT_SEAL_BATCH): Promise<number> => {
  let after = 0;
  return sealUntilDone(async () => {
    const result = await sealPortBatch(pool, store, key, { limit, after });
    if (result.sealed === null) return null;
    after = result.readUpTo;
    return { sealed: result.sealed, done: result.isEnd };
  });
};

interface LinkRow extends Record<string, unknown> {
  position: number;
  link: Buffer;
}

const linksBetween = (db: Queryable, after: number, upto: number, pageSize: number) =>
  keyset<LinkRow>(
    db,
    'select position, link from audit_port_links where position > $1 and position <= $2 order by position limit $3',
    'position',
    after,
    upto,
    pageSize,
  );

/** The store's events after `after` up to `upto`, read through the port a page at a time. */
async function* eventsBetween(store: EventStore, after: number, upto: number, pageSize: number): AsyncGenerator<RecordedEvent> {
  let from = after;
  for (;;) {
    const page = await store.readAll({ from, limit: pageSize });
    for (const event of page.events) {
      if (event.position > upto) return;
      yield event;
    }
    if (page.isEnd || page.checkpoint <= from || page.checkpoint >= upto) return;
    from = page.checkpoint;
  }
}

/** The events read through the port beside the stored links, one position at a time. */
async function* positionsBetween(store: EventStore, db: Queryable, after: number, upto: number, pageSize: number): AsyncGenerator<WalkedPosition> {
  const events = eventsBetween(store, after, upto, pageSize);
  const links = linksBetween(db, after, upto, pageSize);
  let e = await events.next();
  let l = await links.next();
  while (!e.done || !l.done) {
    if (l.done || (!e.done && e.value.position < l.value.position)) {
      yield { position: e.value!.position, event: sealedEvent(e.value!), link: null };
      e = await events.next();
    } else if (e.done || l.value.position < e.value.position) {
      yield { position: l.value.position, event: null, link: l.value.link };
      l = await links.next();
    } else {
      yield { position: e.value.position, event: sealedEvent(e.value), link: l.value.link };
      e = await events.next();
      l = await links.next();
    }
  }
}

/**
 * Re-reads the sealed range through the port beside the stored links and checkpoints and
 * recomputes the chain from the start, with the same answer as the PostgreSQL store's verify: an
 * event changed or moved breaks its own link, one deleted leaves a link without an event, one
 * inserted an event without a link, and links rewritten to match break the next signed checkpoint.
 */
export const verifyPortChain = async (
  db: Queryable,
  store: EventStore,
  keys: AuditKeys,
  { pageSize = PAGE }: { pageSize?: number } = {},
): Promise<ChainVerification> => {
  const upto = await sealedUpTo(db, PORT_CHAIN);
  const walk = await ChainWalk.start(keys, checkpointsBetween(db, PORT_CHAIN, 0, upto, pageSize));
  for await (const position of positionsBetween(store, db, 0, upto, pageSize)) {
    const bad = await walk.step(position);
    if (bad) return bad;
  }
  return walk.end();
};

/** An instant as the first (`from`) or last (`to`) sealed position recorded from or until it. */
export const portPositionAt = async (db: Queryable, instant: string, side: 'from' | 'to'): Promise<number> => {
  const { rows } = await db.query<{ p: string | null }>(
    side === 'from'
      ? 'select min(position) as p from audit_port_links where recorded_at >= $1'
      : 'select max(position) as p from audit_port_links where recorded_at <= $1',
    [instant],
  );
  const p = rows[0]?.p;
  return p === null || p === undefined ? (side === 'from' ? Number.MAX_SAFE_INTEGER : 0) : Number(p);
};

const checkpointLine = (c: CheckpointRow): string =>
  JSON.stringify({
    kind: 'checkpoint',
    upto: Number(c.upto_position),
    link: c.link.toString('hex'),
    signature: c.signature.toString('base64'),
    keyId: c.key_id,
    createdAt: c.created_at.toISOString(),
  } satisfies ExportCheckpointLine);

/**
 * The export of a range as JSON Lines in the format `verify-offline` reads (chain version 1
 * lines), streamed: the header, the events read through the port each with its link, and the
 * checkpoints among them, extended to the first checkpoint at or after `to`.
 */
export async function* exportPortRange(
  db: Queryable,
  store: EventStore,
  keys: AuditKeys,
  range: ExportRange,
  { pageSize = PAGE }: { pageSize?: number } = {},
): AsyncGenerator<string> {
  const from = range.from ?? 0;
  const upto = await exportEnd(db, PORT_CHAIN, range);
  yield await exportHeaderLine(db, PORT_CHAIN, keys, from);
  const after = Math.max(0, from - 1);
  const links = linksBetween(db, after, upto, pageSize);
  const checkpoints = checkpointsBetween(db, PORT_CHAIN, after, upto, pageSize);
  let l = await links.next();
  let c = await checkpoints.next();
  let chunk = '';
  for await (const event of eventsBetween(store, after, upto, pageSize)) {
    while (!l.done && l.value.position < event.position) l = await links.next();
    while (!c.done && c.value.upto_position < event.position) {
      chunk += `${checkpointLine(c.value)}\n`;
      c = await checkpoints.next();
    }
    const link = !l.done && l.value.position === event.position ? l.value.link : null;
    chunk += link ? `${exportEventLine(sealedEvent(event), link)}\n` : `${JSON.stringify({ kind: 'event', ...sealedEvent(event), link: null })}\n`;
    while (!c.done && c.value.upto_position === event.position) {
      chunk += `${checkpointLine(c.value)}\n`;
      c = await checkpoints.next();
    }
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  for (; !c.done; c = await checkpoints.next()) chunk += `${checkpointLine(c.value)}\n`;
  if (chunk) yield chunk;
}

/**
 * Chains the store's new events in batches while the worker role runs; one sealer at a time across
 * processes. A batch that did not reach the end of the store is followed at once.
 */
const portSealer = (pool: Pool, store: EventStore, key: AuditSigningKey, log: Logger): SealerLoop => {
  let readUpTo = 0;
  return new SealerLoop(
    async () => {
      const result = await sealPortBatch(pool, store, key, { after: readUpTo });
      readUpTo = result.readUpTo;
      return result.sealed !== null && !result.isEnd;
    },
    log,
    'audit sealing through the event store port failed',
  );
};

/**
 * The store as it is written, personal fields still sealed (the context's store opens them, and
 * the chain must hash what is stored, so an erasure never breaks it).
 */
export const openSealedStore = async (ctx: Pick<AppContext, 'config' | 'pool' | 'databaseUrl'>): Promise<EventStore> => {
  if (!ctx.config.EVENTSTORE_URL) return new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
  const { KurrentEventStore } = await import('@axel/platform/eventstore/eventstoredb');
  return new KurrentEventStore({ connectionString: ctx.config.EVENTSTORE_URL });
};

/** The port path as the audit module uses it: one sealed store, opened on first use, and the sealer. */
export const createPortChain = () => {
  let store: Promise<EventStore> | undefined;
  let sealer: SealerLoop | undefined;
  const storeOf = (ctx: AppContext) => (store ??= openSealedStore(ctx));
  return {
    verify: async (ctx: AppContext, keys: AuditKeys) => verifyPortChain(ctx.pool, await storeOf(ctx), keys),
    export: async (ctx: AppContext, keys: AuditKeys, range: ExportRange) => exportPortRange(ctx.pool, await storeOf(ctx), keys, range),
    /** Instants become the first and last sealed positions recorded within them. */
    positionsOf: async (ctx: AppContext, from: number | string | undefined, to: number | string | undefined) => ({
      from: typeof from === 'string' ? await portPositionAt(ctx.pool, from, 'from') : from,
      to: typeof to === 'string' ? await portPositionAt(ctx.pool, to, 'to') : to,
    }),
    async start(ctx: AppContext, key: AuditSigningKey): Promise<void> {
      sealer = portSealer(ctx.pool, await storeOf(ctx), key, ctx.log);
      sealer.start();
    },
    async stop(): Promise<void> {
      await sealer?.stop();
      sealer = undefined;
      const opened = store;
      store = undefined;
      await (await opened)?.close();
    },
    get sealing(): boolean {
      return sealer !== undefined;
    },
    get lastError(): string | null {
      return sealer?.lastError ?? null;
    },
  };
};

import { MINIMUM_SEND } from '@axel/domain';
import type { AuditVerifyingKey } from '@axel/platform/audit/keys';
import { anchorPayload, parseAnchorPayload, type CheckpointRecord } from '@axel/platform/audit/record';
import type { Migration } from '@axel/platform';
import type { AppContext } from '../../context';
import type { WalletOf } from '../wallet/wallet.service';
import type { HeldCheckpoint } from './audit.chain';

/**
 * Anchors: now and then the treasury sends itself the smallest amount in an AXEL transaction that
 * carries the last signed checkpoint (`anchorPayload`: its position and link) as its data (an
 * OP_RETURN output on a node, the transfer's payload on the development chain), so a rewrite of
 * the log below it is visible to anyone holding the chain. The transaction id is kept in the record
 * beside the signing key and here (for staff); verify reads the payloads back from the chain.
 */
export const anchorMigrations: Migration[] = [
  {
    id: 'audit-003-anchors',
    sql: `create table if not exists audit_anchors (
  upto_position bigint primary key,
  link bytea not null,
  txid text not null,
  created_at timestamptz not null default now()
);`,
  },
];

/** How often the last checkpoint is anchored (when it moved since the last anchor). */
export const ANCHOR_INTERVAL_MS = 60 * 60 * 1000;

/** Anchors the last recorded checkpoint unless it already is; answers the anchored position (null when nothing to anchor). */
export const anchorLatest = async (ctx: AppContext, walletOf: WalletOf, record: CheckpointRecord, key: AuditVerifyingKey): Promise<number | null> => {
  record.refresh();
  const last = record.last;
  if (!last) return null;
  if (record.anchors().some((a) => a.upto >= last.upto)) return null;
  const wallet = await walletOf(ctx);
  const treasury = await wallet.treasury();
  const { txid } = await wallet.chain.send({
    from: treasury,
    to: treasury,
    amount: MINIMUM_SEND,
    idempotencyKey: `audit-anchor:${key.keyId}:${last.upto}`,
    requireSettled: false,
    data: anchorPayload(last.upto, last.link),
    actor: { id: null, kind: 'system' },
  });
  record.appendAnchor({ upto: last.upto, link: last.link, txid });
  await ctx.pool.query('insert into audit_anchors (upto_position, link, txid) values ($1, $2, $3) on conflict (upto_position) do nothing', [
    last.upto,
    last.link,
    txid,
  ]);
  return last.upto;
};

/**
 * The checkpoints the AXEL chain holds: each anchor transaction named in the record (or in the
 * database) read back from the chain, its payload decoded. An anchor the chain does not know (or
 * whose payload is not an anchor) holds nothing. Empty when the chain cannot be reached.
 */
export const anchoredCheckpoints = async (ctx: AppContext, walletOf: WalletOf, record: CheckpointRecord): Promise<HeldCheckpoint[]> => {
  const txids = new Set(
    record
      .refresh()
      .anchors()
      .map((a) => a.txid),
  );
  const { rows } = await ctx.pool.query<{ txid: string }>('select txid from audit_anchors');
  for (const r of rows) txids.add(r.txid);
  if (txids.size === 0) return [];
  try {
    const { chain } = await walletOf(ctx);
    const held: HeldCheckpoint[] = [];
    for (const txid of txids) {
      const payload = parseAnchorPayload((await chain.transaction(txid))?.data);
      // an anchor of a checkpoint an accepted restore left behind holds nothing any more
      if (payload && !record.superseded(payload.upto, payload.link)) held.push(payload);
    }
    return held;
  } catch (error) {
    ctx.log.warn({ err: error }, 'the audit anchors could not be read from the chain');
    return [];
  }
};

/** Anchors the last checkpoint every ANCHOR_INTERVAL_MS while the worker role runs; a failure is kept for staff and retried next time. */
export class AnchorLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  lastError: string | null = null;
  anchoredUpTo: number | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly walletOf: WalletOf,
    private readonly record: CheckpointRecord,
    private readonly key: AuditVerifyingKey,
    private readonly intervalMs = ANCHOR_INTERVAL_MS,
  ) {}

  /** One anchoring attempt (the timer's, or a test's). */
  async tick(): Promise<void> {
    try {
      const upto = await anchorLatest(this.ctx, this.walletOf, this.record, this.key);
      if (upto !== null) this.anchoredUpTo = upto;
      this.lastError = null;
    } catch (error) {
      const message = (error as Error).message;
      if (message !== this.lastError) this.ctx.log.warn({ err: error }, 'anchoring the audit chain on the AXEL chain failed');
      this.lastError = message;
    }
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

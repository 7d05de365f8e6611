import type { IpfsPinEvent } from '@axel/domain/ipfs/ipfs.events';
import { evolveIpfsPin, isPin, type IpfsPinState, type Pin } from '@axel/domain/ipfs/ipfs.state';
import { defineRowProjection } from '../runner/row-projection';

/** A row of `ipfs_pins`; timestamps are Dates when read and ISO strings when folded. */
export interface IpfsPinRow<D = Date> {
  id: string;
  owner_id: string;
  fetch_id: string;
  item_id: string;
  tx_id: string;
  service: string;
  status: string;
  cid: string | null;
  /** Bigints: strings when read. */
  size: string | number;
  dag_size: string | number | null;
  blocks: number | null;
  attempts: number;
  failure: string | null;
  removed_reason: string | null;
  requested_at: D;
  pinned_at: D | null;
  updated_at: D;
  /** The pin as the domain folds it. */
  record: Pin;
}

const PREFIX = 'ipfs-pin-';

/**
 * Every pin of a paid file with its status as the Pinning Service API names it, for the console's
 * IPFS pinning section and the owner's links; folded by the domain's own `evolveIpfsPin`.
 */
export const ipfsPinsProjection = defineRowProjection<IpfsPinRow<Date | string>, IpfsPinEvent>({
  name: 'ipfs_pins',
  table: 'ipfs_pins',
  handles: ['IpfsPinRequested', 'IpfsPinStarted', 'IpfsPinPinned', 'IpfsPinFailed', 'IpfsPinRetried', 'IpfsPinRemoved'],
  ddl: (t) => `create table "${t}" (
      id text primary key,
      owner_id text not null,
      fetch_id text not null,
      item_id text not null,
      tx_id text not null,
      service text not null,
      status text not null,
      cid text,
      size bigint not null,
      dag_size bigint,
      blocks integer,
      attempts integer not null,
      failure text,
      removed_reason text,
      requested_at timestamptz not null,
      pinned_at timestamptz,
      updated_at timestamptz not null,
      record jsonb not null
    );
    create index on "${t}" (requested_at desc, id desc);
    create index on "${t}" (owner_id);
    create index on "${t}" (fetch_id);
    create index on "${t}" (cid);`,
  keyOf: (e) => e.streamName.slice(PREFIX.length),
  evolve: (row, e) => {
    const before: IpfsPinState = row?.record ?? { status: 'none' };
    const after = evolveIpfsPin(before, e);
    if (after === before || !isPin(after)) return row;
    const at = e.recordedAt instanceof Date ? e.recordedAt.toISOString() : String(e.recordedAt);
    return {
      id: after.pinId,
      owner_id: after.ownerId,
      fetch_id: after.source.fetchId,
      item_id: after.source.itemId,
      tx_id: after.txId,
      service: after.service,
      status: after.status,
      cid: after.cid,
      size: after.size,
      dag_size: e.type === 'IpfsPinPinned' ? e.data.dagSize : (row?.dag_size ?? null),
      blocks: e.type === 'IpfsPinPinned' ? e.data.blocks : (row?.blocks ?? null),
      attempts: after.attempts,
      failure: after.failure,
      removed_reason: after.removedReason,
      requested_at: row?.requested_at ?? at,
      pinned_at: e.type === 'IpfsPinPinned' ? at : (row?.pinned_at ?? null),
      updated_at: at,
      record: after,
    };
  },
});

import type { CartEvent } from '@axel/domain/sharing/cart';
import { defineRowProjection } from '../runner/row-projection';

export interface CartRow {
  id: string;
  owner_id: string;
  storage_id: string;
  status: 'open' | 'sharing' | 'shared';
  file_ids: string[];
  share_id: string | null;
  created_at: Date | string;
  modified_at: Date | string;
}

/** Upload-and-share carts by owner, and the share each became (`GET /shares/{id}/cart/`). */
export const cartsProjection = defineRowProjection<CartRow, CartEvent>({
  name: 'carts',
  table: 'carts',
  ddl: (t) => `create table "${t}" (
    id text primary key,
    owner_id text not null,
    storage_id text not null,
    status text not null,
    file_ids jsonb not null default '[]',
    share_id text,
    created_at timestamptz not null,
    modified_at timestamptz not null
  );
  create index on "${t}" (owner_id, created_at desc);
  create index on "${t}" (share_id) where share_id is not null;`,
  handles: ['CartOpened', 'CartEntriesAdded', 'CartEntryRemoved', 'CartShareStarted', 'CartShareAbandoned', 'CartShared'],
  keyOf: (e) => e.streamName.slice('cart-'.length),
  evolve: (row, e) => {
    if (e.type === 'CartOpened')
      return (
        row ?? {
          id: e.data.cartId,
          owner_id: e.data.ownerId,
          storage_id: e.data.storageId,
          status: 'open',
          file_ids: [],
          share_id: null,
          created_at: e.recordedAt,
          modified_at: e.recordedAt,
        }
      );
    if (!row) return row;
    const at = { modified_at: e.recordedAt };
    switch (e.type) {
      case 'CartEntriesAdded':
        return { ...row, ...at, file_ids: [...row.file_ids, ...e.data.fileIds.filter((id) => !row.file_ids.includes(id))] };
      case 'CartEntryRemoved':
        return { ...row, ...at, file_ids: row.file_ids.filter((id) => id !== e.data.fileId) };
      case 'CartShareStarted':
        return { ...row, ...at, status: 'sharing' };
      case 'CartShareAbandoned':
        return { ...row, ...at, status: 'open' };
      case 'CartShared':
        return { ...row, ...at, status: 'shared', share_id: e.data.shareId };
      default:
        return row;
    }
  },
});

import type { AccountPurged } from '@axel/domain/accounts/accounts.events';
import type { SecureFetchEvent } from '@axel/domain/secure-fetch/secure-fetch.events';
import type { StorageEvent } from '@axel/domain/storage/storage.events';
import { defineProjection } from '../runner/projection';

type Source = StorageEvent | AccountPurged | Extract<SecureFetchEvent, { type: 'SecureFetchSubmitted' }>;

/**
 * The DDL of the items a Secure Fetch link received (its folder and its files), by id: written when
 * the link is used, before the storage makes them, and read when it does. Shared with the migration
 * that brings an older read model to it.
 */
export const receivedItemsTable = (t: string) => `create table "${t}" (
      id text primary key,
      storage_id text not null,
      label text not null
    );
    create index on "${t}" (storage_id);`;

const storageIdOf = (streamName: string) => streamName.slice('storage-'.length);

/**
 * Storages with their sizes, and their items (folders and files) with the trash state. Every value
 * comes from the events (times included), so a rebuild writes the very same rows. `folder` is the
 * parent id or '' for the root, so the same indexes serve the listing of any folder; `in_trash` is true
 * for an item in the trash itself or inside a folder that is (`trashed_at` only on the former,
 * which is what the trash lists).
 *
 * `label` is what an item is (file or folder: the listing's indexes and every rule read it);
 * `sf_label` is how a Secure Fetch link's folder and the files it received are shown (`sfFolder`,
 * `sfFile`), null for every other item. It is set when the item is made, from
 * `storage_received`, which `SecureFetchSubmitted` (always stored before the storage makes the
 * items) fills with the link's folder and file ids; a copy is a new item and is shown as it is.
 */
export const storageProjection = defineProjection<'storages' | 'storage_items' | 'storage_received', Source>({
  name: 'storage',
  handles: [
    'SecureFetchSubmitted',
    'StorageOpened',
    'StorageQuotaChanged',
    'FolderCreated',
    'FileAdded',
    'ItemRenamed',
    'ItemDetailsChanged',
    'ItemMoved',
    'ItemTrashed',
    'ItemRestored',
    'ItemDeleted',
    'StoragePurged',
    'AccountPurged',
  ],
  tables: {
    storages: (t) => `create table "${t}" (
      id text primary key,
      owner_id text not null,
      type text not null,
      size_total bigint not null,
      size_used bigint not null default 0,
      size_trashed bigint not null default 0,
      opened_at timestamptz not null
    );
    create index on "${t}" (owner_id);`,
    storage_items: (t) => `create table "${t}" (
      id text primary key,
      storage_id text not null,
      folder text not null,
      label text not null,
      name text not null,
      size bigint not null default 0,
      hash text,
      mime text,
      manifest jsonb,
      encrypted boolean not null default false,
      e2ee_enabled boolean not null default false,
      details jsonb not null default '{}',
      copied_from text,
      created_at timestamptz not null,
      modified_at timestamptz not null,
      trashed_at timestamptz,
      in_trash boolean not null default false,
      sf_label text,
      pgpmessage text
    );
    -- a folder's listing reads its folders, then its files, each in the order of one of these for
    -- every sort (name, size, times, label), forwards or backwards: never sorted, and a deep page
    -- walks index entries only (name is included so that walk needs no row)
    create index on "${t}" (storage_id, folder, label, lower(name), id) include (name) where not in_trash;
    create index on "${t}" (storage_id, folder, label, size, id) where not in_trash;
    create index on "${t}" (storage_id, folder, label, created_at, id) where not in_trash;
    create index on "${t}" (storage_id, folder, label, modified_at, id) where not in_trash;
    create index on "${t}" (storage_id, folder, label, id) where not in_trash;
    create index on "${t}" (storage_id, trashed_at) where trashed_at is not null;
    create index on "${t}" ((manifest->>'keyId')) where manifest is not null;`,
    storage_received: receivedItemsTable,
  },
  async apply(tx, events, t) {
    const S = `"${t.storages}"`;
    const I = `"${t.storage_items}"`;
    const R = `"${t.storage_received}"`;
    const received = (id: string) => `(select label from ${R} where id = ${id})`;
    for (const e of events) {
      if (e.type === 'SecureFetchSubmitted') {
        const { storageId, folderId, itemIds } = e.data;
        await tx.query(
          `insert into ${R} (id, storage_id, label)
           select id, $1, case when id = $2 then 'sfFolder' else 'sfFile' end from unnest($3::text[]) id
           on conflict (id) do nothing`,
          [storageId, folderId, [folderId, ...itemIds]],
        );
        // the items are made after this event; should any be there already, they are labelled now
        await tx.query(`update ${I} i set sf_label = r.label from ${R} r where r.id = i.id and i.id = any($1) and i.storage_id = $2`, [
          [folderId, ...itemIds],
          storageId,
        ]);
        continue;
      }
      if (e.type === 'AccountPurged') {
        const ownerId = e.streamName.slice('user-'.length);
        await tx.query(`delete from ${R} where storage_id in (select id from ${S} where owner_id = $1)`, [ownerId]);
        await tx.query(`delete from ${I} where storage_id in (select id from ${S} where owner_id = $1)`, [ownerId]);
        await tx.query(`delete from ${S} where owner_id = $1`, [ownerId]);
        continue;
      }
      const storageId = storageIdOf(e.streamName);
      switch (e.type) {
        case 'StorageOpened':
          await tx.query(`insert into ${S} (id, owner_id, type, size_total, opened_at) values ($1, $2, $3, $4, $5) on conflict (id) do nothing`, [
            storageId,
            e.data.ownerId,
            e.data.type,
            e.data.sizeTotal,
            e.data.openedAt,
          ]);
          break;
        case 'StorageQuotaChanged':
          await tx.query(`update ${S} set size_total = $2 where id = $1`, [storageId, e.data.sizeTotal]);
          break;
        case 'FolderCreated':
          await tx.query(
            `insert into ${I} (id, storage_id, folder, label, name, copied_from, created_at, modified_at, sf_label)
             values ($1, $2, $3, 'folder', $4, $5, $6, $6, ${received('$1')}) on conflict (id) do nothing`,
            [e.data.itemId, storageId, e.data.parentId ?? '', e.data.name, e.data.copiedFrom, e.data.createdAt],
          );
          break;
        case 'FileAdded':
          await tx.query(
            `insert into ${I} (id, storage_id, folder, label, name, size, hash, mime, manifest, encrypted, e2ee_enabled, copied_from, created_at, modified_at, sf_label, pgpmessage)
             values ($1, $2, $3, 'file', $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, ${received('$1')}, $13) on conflict (id) do nothing`,
            [
              e.data.itemId,
              storageId,
              e.data.parentId ?? '',
              e.data.name,
              e.data.size,
              e.data.hash,
              e.data.mime,
              JSON.stringify(e.data.manifest),
              e.data.encrypted,
              e.data.e2eeEnabled,
              e.data.copiedFrom,
              e.data.createdAt,
              e.data.pgpmessage ?? null,
            ],
          );
          await tx.query(`update ${S} set size_used = size_used + $2 where id = $1`, [storageId, e.data.size]);
          break;
        case 'ItemRenamed':
          await tx.query(`update ${I} set name = $2, modified_at = $3 where id = $1`, [e.data.itemId, e.data.name, e.data.modifiedAt]);
          break;
        case 'ItemDetailsChanged':
          await tx.query(`update ${I} set details = details || $2::jsonb, modified_at = $3 where id = $1`, [
            e.data.itemId,
            JSON.stringify(e.data.details),
            e.data.modifiedAt,
          ]);
          break;
        case 'ItemMoved':
          await tx.query(`update ${I} set folder = $2, modified_at = $3 where id = $1`, [e.data.itemId, e.data.parentId ?? '', e.data.modifiedAt]);
          break;
        case 'ItemTrashed':
          await tx.query(`update ${I} set trashed_at = $2, in_trash = true where id = $1`, [e.data.itemId, e.data.trashedAt]);
          await tx.query(`update ${I} set in_trash = true where id = any($1)`, [e.data.descendantIds]);
          await tx.query(`update ${S} set size_trashed = size_trashed + $2 where id = $1`, [storageId, e.data.size]);
          break;
        case 'ItemRestored':
          await tx.query(`update ${I} set trashed_at = null, in_trash = false, folder = $2, name = $3 where id = $1`, [
            e.data.itemId,
            e.data.parentId ?? '',
            e.data.name,
          ]);
          await tx.query(`update ${I} set in_trash = false where id = any($1)`, [e.data.descendantIds]);
          await tx.query(`update ${S} set size_trashed = size_trashed - $2 where id = $1`, [storageId, e.data.size]);
          break;
        case 'ItemDeleted':
          await tx.query(`delete from ${I} where id = $1 or id = any($2)`, [e.data.itemId, e.data.descendantIds]);
          await tx.query(`delete from ${R} where id = $1 or id = any($2)`, [e.data.itemId, e.data.descendantIds]);
          await tx.query(`update ${S} set size_used = size_used - $2, size_trashed = size_trashed - $3 where id = $1`, [
            storageId,
            e.data.size,
            e.data.trashedSize,
          ]);
          break;
        case 'StoragePurged':
          await tx.query(`delete from ${I} where storage_id = $1`, [storageId]);
          await tx.query(`delete from ${R} where storage_id = $1`, [storageId]);
          await tx.query(`delete from ${S} where id = $1`, [storageId]);
          break;
        default:
          break;
      }
    }
  },
});

import type { Migration } from '@axel/platform';
import { receivedItemsTable } from '@axel/projections/storage/storage.projection';

/** A text as a PostgreSQL string literal (dollar-quoted, for DDL run by `execute`). */
const sqlText = (text: string) => `$ddl$${text}$ddl$`;

/**
 * The storage read model's own tables are made by its projection (projections/src/storage): a
 * fresh or rebuilt `storage_items` already has the indexes its DDL names. These migrations bring a
 * table made before to the same indexes, in place (no rebuild), and do nothing where the table does
 * not exist yet. A rebuild's `__next` copy in progress gets them too, so its swap keeps them.
 */
export const storageListingMigrations: Migration[] = [
  {
    id: 'storage-002-listing-indexes',
    sql: `do $$
      declare
        t text;
        old text;
      begin
        foreach t in array array['storage_items', 'storage_items__next'] loop
          if to_regclass(format('%I', t)) is null then
            continue;
          end if;
          -- the one index of the default order (folders first, then by name), now served by the first below
          for old in
            select indexname from pg_indexes
             where schemaname = current_schema() and tablename = t
               and indexdef like '%(storage_id, folder, ((label = ''folder''::text)) DESC, lower(name), id) WHERE (NOT in_trash)'
          loop
            execute format('drop index %I', old);
          end loop;
          execute format('create index on %I (storage_id, folder, label, lower(name), id) include (name) where not in_trash', t);
          execute format('create index on %I (storage_id, folder, label, size, id) where not in_trash', t);
          execute format('create index on %I (storage_id, folder, label, created_at, id) where not in_trash', t);
          execute format('create index on %I (storage_id, folder, label, modified_at, id) where not in_trash', t);
          execute format('create index on %I (storage_id, folder, label, id) where not in_trash', t);
        end loop;
      end $$;`,
  },
];

/**
 * Secure Fetch labels (spec §3 Entry: sfFolder, sfFile) on a storage read model made before they
 * were stored: the `sf_label` column, and the `storage_received` table the projection fills from
 * `SecureFetchSubmitted`, filled here from the secure_fetches read model (each used link's folder
 * and files, unless collected), then the items already made are labelled from it. A rebuild of the
 * projection writes the same. Nothing is done where the storage read model has no table yet.
 */
export const storageLabelMigrations: Migration[] = [
  {
    id: 'storage-003-secure-fetch-labels',
    sql: `do $$
      declare
        t text;
      begin
        if to_regclass('storage_items') is null then
          return;
        end if;
        foreach t in array array['storage_items', 'storage_items__next'] loop
          if to_regclass(format('%I', t)) is not null then
            execute format('alter table %I add column if not exists sf_label text', t);
          end if;
        end loop;
        if to_regclass('storage_received') is null then
          execute ${sqlText(receivedItemsTable('storage_received'))};
        end if;
        if to_regclass('secure_fetches') is not null then
          insert into storage_received (id, storage_id, label)
          select f.record->'submission'->>'folderId', f.record->'submission'->>'storageId', 'sfFolder'
            from secure_fetches f where f.record->'submission'->>'folderId' is not null and f.collected_at is null
          union all
          select item.id, f.record->'submission'->>'storageId', 'sfFile'
            from secure_fetches f, jsonb_array_elements_text(f.record->'submission'->'itemIds') item(id)
           where jsonb_typeof(f.record->'submission'->'itemIds') = 'array' and f.collected_at is null
          on conflict (id) do nothing;
        end if;
        update storage_items i set sf_label = r.label from storage_received r where r.id = i.id and r.storage_id = i.storage_id and i.sf_label is null;
      end $$;`,
  },
];

/**
 * End-to-end files' key packets (spec §3 Entry `pgpmessage`) on a storage read model made before
 * they were kept: the column, empty for the files made before (none of which carried any).
 */
export const storageKeyPacketMigrations: Migration[] = [
  {
    id: 'storage-004-e2ee-key-packets',
    sql: `do $$
      declare
        t text;
      begin
        foreach t in array array['storage_items', 'storage_items__next'] loop
          if to_regclass(format('%I', t)) is null then
            continue;
          end if;
          execute format('alter table %I add column if not exists pgpmessage text', t);
        end loop;
      end $$;`,
  },
];

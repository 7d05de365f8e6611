import type { Migration } from '@axel/platform';

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

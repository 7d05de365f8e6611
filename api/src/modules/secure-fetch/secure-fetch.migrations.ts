import type { Migration } from '@axel/platform';

/*
 * The secure_fetches read model's tables are made by its projection on a fresh database; one made
 * before an index was added to their definition gets it here (an applied migration is never
 * edited: a later change is a migration of its own).
 */
export const secureFetchMigrations: Migration[] = [
  {
    // storage listings look up which folders are Secure Fetch folders (labelled sfFolder) by this
    // index. A fresh database has no table yet here (the projection makes it with the index); a
    // rebuilt table may hold it under another name: it is made only when no such index exists.
    id: 'api-secure-fetch-001-folder-index',
    sql: `
do $$
begin
  if to_regclass('secure_fetches') is not null and not exists (
    select 1 from pg_indexes where tablename = 'secure_fetches' and indexdef like '%folderId%'
  ) then
    create index on secure_fetches ((record->'submission'->>'folderId'));
  end if;
end $$;
`,
  },
];

import type { Migration } from '@axel/platform';

/**
 * The embedded pinning service's own tables: which roots it holds pinned, and the blocks of their
 * DAGs: inner nodes kept as they are (small), leaves named by the chunk of the file that holds them
 * (their bytes are never stored a second time).
 */
export const ipfsMigrations: Migration[] = [
  {
    id: 'api-ipfs-001-embedded-pins',
    sql: `
create table if not exists ipfs_embedded_pins (
  request_id text primary key,
  root text not null,
  name text not null,
  origin jsonb not null,
  blocks integer not null,
  size bigint not null,
  pinned_at timestamptz not null
);
create index if not exists ipfs_embedded_pins_root on ipfs_embedded_pins (root);
create table if not exists ipfs_embedded_blocks (
  request_id text not null references ipfs_embedded_pins (request_id) on delete cascade,
  cid text not null,
  position integer not null,
  node bytea,
  leaf_index integer,
  primary key (request_id, cid),
  check ((node is null) <> (leaf_index is null))
);
create index if not exists ipfs_embedded_blocks_cid on ipfs_embedded_blocks (cid);
`,
  },
];

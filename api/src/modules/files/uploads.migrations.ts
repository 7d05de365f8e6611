import type { Migration } from '@axel/platform';

export const uploadMigrations: Migration[] = [
  {
    id: 'api-files-001-uploads',
    sql: `
      create table uploads (
        id text primary key,
        user_id text not null,
        storage_id text not null,
        -- the server node that took the upload (a stable id per DATA_DIR)
        node_id text not null,
        key_id text not null,
        size bigint not null,
        "offset" bigint not null default 0,
        -- the bytes after the last whole chunk, sealed with the upload's file key (never plaintext)
        tail bytea,
        status text not null default 'receiving' check (status in ('receiving', 'finished')),
        sha256 text,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        finished_at timestamptz
      );
      create index uploads_expiry on uploads (expires_at);
      create table upload_chunks (
        upload_id text not null references uploads (id) on delete cascade,
        index int not null,
        cid text not null,
        size int not null,
        primary key (upload_id, index)
      );
    `,
  },
  {
    id: 'api-files-002-blob-scrubs',
    sql: `
      create table blob_scrubs (
        id bigserial primary key,
        started_at timestamptz not null,
        finished_at timestamptz not null,
        report jsonb not null
      );
    `,
  },
  {
    id: 'api-files-003-secure-fetch-uploads',
    sql: `
      -- an upload sent through a Secure Fetch link (its public linkId), anonymous, into the link owner's storage
      alter table uploads add column secure_fetch_link_id text;
      -- MD5, SHA-1 and SHA3-512 states after the first "offset" bytes, sealed with the upload's file key
      -- (a state may hold plaintext bytes): written in the same statement as "offset", so they always agree
      alter table uploads add column hash_state bytea;
      -- the finished digests, lowercase hex: { md5, sha1, sha3_512 }
      alter table uploads add column hashes jsonb;
    `,
  },
  {
    id: 'api-files-004-upload-claims',
    sql: `
      -- claimed: being made into a file or a Secure Fetch submission; it can no longer be discarded
      alter table uploads drop constraint uploads_status_check;
      alter table uploads add constraint uploads_status_check check (status in ('receiving', 'finished', 'claimed'));
      create index uploads_secure_fetch_link on uploads (secure_fetch_link_id) where secure_fetch_link_id is not null;
    `,
  },
  {
    id: 'api-files-005-upload-claim-times',
    sql: `
      -- when the upload was last claimed: a Secure Fetch submission's claims whose process stopped are given back after a bound
      alter table uploads add column claimed_at timestamptz;
      create index uploads_claimed_at on uploads (claimed_at) where status = 'claimed';
      -- claims made before the time was kept count from now
      update uploads set claimed_at = now() where status = 'claimed';
    `,
  },
  {
    id: 'api-files-006-upload-region',
    sql: `
      -- the account's region when the upload was made: its chunks are kept on that region's shards
      alter table uploads add column region text;
    `,
  },
];

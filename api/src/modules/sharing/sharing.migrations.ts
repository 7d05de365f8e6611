import type { Migration } from '@axel/platform';

/*
 * The shares read model's tables are made by its projection on a fresh database; a database that
 * had them before a column or an index was added to their definition gets it here (an applied
 * migration is never edited: a later change is a migration of its own).
 */
export const sharingMigrations: Migration[] = [
  {
    // the recipient lookups (shared-with-me, the owner's e-mail filter) read this index; tables made
    // before it was part of the projection lack it. Fresh databases have no `shares` table yet here:
    // the projection makes it with the same index under the same name.
    id: 'api-sharing-001-shares-recipient-index',
    sql: `
do $$
begin
  if to_regclass('shares') is not null then
    alter table shares add column if not exists recipient_emails text[] not null default '{}';
    update shares set recipient_emails = coalesce(
      (select array_agg(lower(r->>'email')) from jsonb_array_elements(record->'recipients') r), '{}')
     where kind = 'private' and recipient_emails = '{}';
    create index if not exists shares_recipient_emails_idx on shares using gin (recipient_emails);
  end if;
end $$;
`,
  },
  {
    // a shares table rebuilt after the index joined the projection holds it under the rebuild's
    // name (`shares__next_recipient_emails_idx`), and 001 then made a second, identical one: one is
    // enough (every write to the table updates each of them)
    id: 'api-sharing-002-shares-recipient-index-once',
    sql: `
do $$
begin
  if (select count(*) from pg_indexes where tablename = 'shares' and indexdef like '%USING gin (recipient_emails)%') > 1 then
    drop index if exists shares_recipient_emails_idx;
  end if;
end $$;
`,
  },
  {
    // the resend mails of the last 24 hours, for the caps on them (the address as a keyed hash;
    // older rows are dropped as new ones come)
    id: 'api-sharing-003-share-resend-mails',
    sql: `create table if not exists share_resend_mails (
      user_id text not null,
      share_id text not null,
      recipient text not null,
      sent_at timestamptz not null
    );
    create index if not exists share_resend_mails_user_idx on share_resend_mails (user_id, sent_at);`,
  },
];

/**
 * The SQL of the Grafana dashboard's PostgreSQL panels, over the read models only (they exist
 * whichever event store runs). Plain SQL without Grafana macros, so a test runs each one as is
 * against a populated database.
 */
export const GRAFANA_SQL = {
  accountsByStatus: `select case when deleted_at is not null then 'deleted' else status end as status, count(*) as accounts
from users group by 1 order by 2 desc`,
  signUpsPerDay: `select date_trunc('day', created_at) as time, count(*) as sign_ups
from users where created_at > now() - interval '30 days' group by 1 order by 1`,
  recentSignIns: `select count(*) filter (where last_login_at > now() - interval '1 day') as day,
  count(*) filter (where last_login_at > now() - interval '7 days') as week,
  count(*) filter (where last_login_at > now() - interval '30 days') as month
from users where deleted_at is null`,
  storageByType: `select type, count(*) as storages, sum(size_used) as used_bytes, sum(size_total) as total_bytes
from storages group by type order by type`,
  sharesByStatus: `select status, count(*) as shares, coalesce(sum(total_size), 0) as bytes from shares group by status order by status`,
  shareAccess: `select coalesce(sum(opened_count), 0) as opens, coalesce(sum(download_count), 0) as downloads from share_access_summary`,
  secureFetchByStatus: `select status, count(*) as links, count(*) filter (where paid) as paid, coalesce(sum(total_size), 0) as bytes
from secure_fetches group by status order by status`,
  dbsAccess: `select count(*) as accounts from dbs_access a join users u on u.id = a.id where a.active and u.deleted_at is null`,
  mailOutbox: `select status, count(*) as mails from mail_outbox group by status order by status`,
  projectionCheckpoints: `select name as projection, position, updated_at from projection_checkpoints order by name`,
} as const;

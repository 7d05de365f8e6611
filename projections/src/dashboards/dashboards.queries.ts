import type { Queryable } from '@axel/platform';

/**
 * The staff dashboards of AXEL website hosting and AXEL Drive Connect, read from the read models
 * (shares and their access summary, Secure Fetch links, storages, users, database access). Each
 * figure is a count the console links to the users or events behind it.
 */

const count = (v: unknown) => Number(v ?? 0);

export interface WebsiteHostingFigures {
  readonly shares: { readonly active: number; readonly revoked: number; readonly bytesShared: number; readonly byKind: { kind: string; count: number }[] };
  readonly access: { readonly opens: number; readonly downloads: number; readonly sharesOpened: number };
  readonly sharesByMonth: { month: string; created: number }[];
  readonly secureFetch: {
    readonly links: number;
    readonly paid: number;
    readonly bytesReceived: number;
    readonly byStatus: { status: string; count: number }[];
  };
  readonly topOwners: { userId: string; email: string | null; shares: number; opens: number }[];
}

/** Content published to visitors: shares and their opens and downloads, Secure Fetch links, who shares most. */
export const websiteHostingFigures = async (db: Queryable, now: Date): Promise<WebsiteHostingFigures> => {
  const [shares, kinds, access, months, fetches, fetchStatus, owners] = await Promise.all([
    db.query<{ active: string; revoked: string; bytes: string | null }>(
      `select count(*) filter (where status = 'active' and (expires_at is null or expires_at > $1)) as active,
              count(*) filter (where status = 'revoked') as revoked,
              sum(total_size) filter (where status = 'active' and (expires_at is null or expires_at > $1)) as bytes
       from shares`,
      [now],
    ),
    db.query<{ kind: string; count: string }>(`select kind, count(*) as count from shares where status = 'active' group by kind order by kind`),
    db.query<{ opens: string | null; downloads: string | null; opened: string }>(
      'select sum(opened_count) as opens, sum(download_count) as downloads, count(*) filter (where opened_count > 0) as opened from share_access_summary',
    ),
    db.query<{ month: string; created: string }>(
      `select to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM') as month, count(*) as created
       from shares where created_at >= date_trunc('month', $1::timestamptz at time zone 'UTC') at time zone 'UTC' - interval '11 months'
       group by 1 order by 1`,
      [now],
    ),
    db.query<{ links: string; paid: string; bytes: string | null }>(
      'select count(*) as links, count(*) filter (where paid) as paid, sum(total_size) as bytes from secure_fetches',
    ),
    db.query<{ status: string; count: string }>('select status, count(*) as count from secure_fetches group by status order by status'),
    db.query<{ user_id: string; email: string | null; shares: string; opens: string | null }>(
      `select s.owner_id as user_id, u.email, count(*) as shares, sum(a.opened_count) as opens
       from shares s left join users u on u.id = s.owner_id left join share_access_summary a on a.share_id = s.id
       where s.status = 'active' group by s.owner_id, u.email order by count(*) desc, s.owner_id limit 5`,
    ),
  ]);
  const s = shares.rows[0]!;
  const a = access.rows[0]!;
  const f = fetches.rows[0]!;
  return {
    shares: {
      active: count(s.active),
      revoked: count(s.revoked),
      bytesShared: count(s.bytes),
      byKind: kinds.rows.map((r) => ({ kind: r.kind, count: count(r.count) })),
    },
    access: { opens: count(a.opens), downloads: count(a.downloads), sharesOpened: count(a.opened) },
    sharesByMonth: months.rows.map((r) => ({ month: r.month, created: count(r.created) })),
    secureFetch: {
      links: count(f.links),
      paid: count(f.paid),
      bytesReceived: count(f.bytes),
      byStatus: fetchStatus.rows.map((r) => ({ status: r.status, count: count(r.count) })),
    },
    topOwners: owners.rows.map((r) => ({ userId: r.user_id, email: r.email, shares: count(r.shares), opens: count(r.opens) })),
  };
};

export interface DriveConnectFigures {
  readonly storagesByType: { type: string; count: number; usedBytes: number; totalBytes: number }[];
  readonly cloudLockers: number;
  readonly accountsByApp: { app: string; count: number }[];
  readonly signIns: { readonly day: number; readonly week: number; readonly month: number };
  readonly twoFactor: { method: string; count: number }[];
  readonly dbsAccess: number;
}

/** How accounts connect: the storages they use (CloudLockers among them), the apps they came from, recent sign-ins, second factors, database access. */
export const driveConnectFigures = async (db: Queryable, now: Date): Promise<DriveConnectFigures> => {
  const [storages, apps, signIns, twoFactor, dbs] = await Promise.all([
    db.query<{ type: string; count: string; used: string | null; total: string | null }>(
      `select s.type, count(*) as count, sum(s.size_used) as used, sum(s.size_total) as total
       from storages s join users u on u.id = s.owner_id where u.deleted_at is null group by s.type order by s.type`,
    ),
    db.query<{ app: string; count: string }>(
      `select coalesce(registration_app, 'unknown') as app, count(*) as count from users where deleted_at is null group by 1 order by 2 desc, 1`,
    ),
    db.query<{ day: string; week: string; month: string }>(
      `select count(*) filter (where last_login_at > $1::timestamptz - interval '1 day') as day,
              count(*) filter (where last_login_at > $1::timestamptz - interval '7 days') as week,
              count(*) filter (where last_login_at > $1::timestamptz - interval '30 days') as month
       from users where deleted_at is null`,
      [now],
    ),
    db.query<{ method: string; count: string }>(
      `select two_factor_method as method, count(*) as count from users
       where deleted_at is null and two_factor_enabled group by 1 order by 1`,
    ),
    db.query<{ n: string }>('select count(*) as n from dbs_access a join users u on u.id = a.id where a.active and u.deleted_at is null'),
  ]);
  const byType = storages.rows.map((r) => ({ type: r.type, count: count(r.count), usedBytes: count(r.used), totalBytes: count(r.total) }));
  const l = signIns.rows[0]!;
  return {
    storagesByType: byType,
    cloudLockers: byType.find((t) => t.type === 'cloudlocker')?.count ?? 0,
    accountsByApp: apps.rows.map((r) => ({ app: r.app, count: count(r.count) })),
    signIns: { day: count(l.day), week: count(l.week), month: count(l.month) },
    twoFactor: twoFactor.rows.map((r) => ({ method: r.method ?? 'unknown', count: count(r.count) })),
    dbsAccess: count(dbs.rows[0]?.n),
  };
};

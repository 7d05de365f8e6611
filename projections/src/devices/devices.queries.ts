import type { Queryable } from '@axel/platform';
import { conditions, likePattern, queryPage } from '../shared/paging';

export interface CloudLockerRow {
  id: string;
  serial: string;
  mac: string;
  public_key: string;
  external_ip: string | null;
  connection_checked_at: Date | null;
  owner_id: string | null;
  owner_email: string | null;
  storage_id: string | null;
  bound_at: Date | null;
  size_used: string;
  size_total: string;
  size_updated_at: Date | null;
  registered_at: Date;
  modified_at: Date;
  deleted_at: Date | null;
}

const SELECT = 'd.*, u.email as owner_email';
const FROM = 'cloudlockers d left join users u on u.id = d.owner_id';

export const findCloudLocker = async (db: Queryable, id: string): Promise<CloudLockerRow | undefined> =>
  (await db.query<CloudLockerRow>(`select ${SELECT} from ${FROM} where d.id = $1 and d.deleted_at is null`, [id])).rows[0];

/** A user's bound CloudLockers; with `onlineSince`, only those that checked in since then. */
export const listUserCloudLockers = async (db: Queryable, userId: string, onlineSince: Date | null): Promise<CloudLockerRow[]> => {
  const where = conditions('d.owner_id = $1 and d.deleted_at is null', [userId]);
  if (onlineSince) where.add((p) => `d.connection_checked_at > ${p}`, onlineSince);
  return (await db.query<CloudLockerRow>(`select ${SELECT} from ${FROM} where ${where.sql} order by d.bound_at, d.id`, where.params as unknown[])).rows;
};

export const CLOUDLOCKER_SORT_COLUMNS = {
  serial: 'd.serial',
  registeredAt: 'd.registered_at',
  boundAt: 'd.bound_at',
  connectionCheckedAt: 'd.connection_checked_at',
  modifiedAt: 'd.modified_at',
} as const;

export interface AdminCloudLockersQuery {
  /** `online` / `offline`, against the check-ins recorded since `onlineSince`. */
  readonly status: 'online' | 'offline' | null;
  readonly onlineSince: Date;
  readonly bound: boolean | null;
  /** Part of the serial number, MAC address, external IP or owner's e-mail, in any case. */
  readonly search: string | null;
  readonly sortField: keyof typeof CLOUDLOCKER_SORT_COLUMNS;
  readonly sortDir: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

export const listAdminCloudLockers = (db: Queryable, q: AdminCloudLockersQuery) => {
  const where = conditions('d.deleted_at is null');
  if (q.status === 'online') where.add((p) => `d.connection_checked_at > ${p}`, q.onlineSince);
  if (q.status === 'offline') where.add((p) => `(d.connection_checked_at is null or d.connection_checked_at <= ${p})`, q.onlineSince);
  if (q.bound !== null) where.add(() => (q.bound ? 'd.owner_id is not null' : 'd.owner_id is null'));
  if (q.search) {
    where.add(
      (p) => `(d.serial ilike ${p} or d.mac ilike ${p} or coalesce(d.external_ip, '') ilike ${p} or coalesce(u.email, '') ilike ${p})`,
      likePattern(q.search),
    );
  }
  return queryPage<CloudLockerRow>(db, {
    select: SELECT,
    from: FROM,
    where: where.sql,
    params: where.params,
    orderBy: `${CLOUDLOCKER_SORT_COLUMNS[q.sortField]} ${q.sortDir} nulls last, d.id`,
    limit: q.limit,
    offset: q.offset,
  });
};

/** The CloudLockers a purged account still holds: unbound by the purge. */
export const cloudLockersOwnedBy = async (db: Queryable, userId: string): Promise<string[]> =>
  (await db.query<{ id: string }>('select id from cloudlockers where owner_id = $1 and deleted_at is null', [userId])).rows.map((r) => r.id);

/** A live account's id by its e-mail, for staff binding a device to it. */
export const activeUserIdByEmail = async (db: Queryable, email: string): Promise<string | undefined> =>
  (await db.query<{ id: string }>('select id from users where lower(email) = lower($1) and deleted_at is null limit 1', [email])).rows[0]?.id;

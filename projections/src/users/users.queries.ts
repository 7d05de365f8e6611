import type { Queryable } from '@axel/platform';
import { conditions, likePattern, queryPage } from '../shared/paging';
import type { UsersRow } from './users.projection';

/** A users read-model row as the database returns it. */
export type UserRow = UsersRow<Date>;

export const findUser = async (db: Queryable, id: string): Promise<UserRow | undefined> => {
  const { rows } = await db.query<UserRow>('select * from users where id = $1', [id]);
  return rows[0];
};

/** The e-mail of each of these accounts that has one: one query for a page of them. */
export const emailsOfUsers = async (db: Queryable, ids: readonly string[]): Promise<Map<string, string>> => {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; email: string | null }>('select id, email from users where id = any($1::text[])', [ids]);
  return new Map(rows.filter((r) => r.email).map((r) => [r.id, r.email!]));
};

/** What the staff's user lists can be sorted by, and the column each sorts on. */
export const USER_SORT_COLUMNS = {
  createdAt: 'created_at',
  email: 'email',
  username: 'username',
  role: 'role',
  status: 'status',
  lastLoginAt: 'last_login_at',
  statusUpdatedAt: 'status_updated_at',
  deletedAt: 'deleted_at',
  id: 'id',
} as const;

export interface UsersRequest {
  readonly deleted: boolean;
  /** Text the e-mail, username, full name or id contains, in any case. */
  readonly search: string | null;
  readonly status: string | null;
  readonly role: string | null;
  /** The client the account signed up with (`web`, `console`, `ios`, `android`, `unknown`). */
  readonly registrationApp?: string | null;
  readonly sortField: keyof typeof USER_SORT_COLUMNS;
  readonly sortDir: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

/** A page of the accounts, deleted or not, for staff. */
export const listUsers = (db: Queryable, q: UsersRequest) => {
  const where = conditions(q.deleted ? 'deleted_at is not null' : 'deleted_at is null');
  if (q.search) {
    where.add(
      (p) =>
        `(email ilike ${p} or username ilike ${p} or coalesce(profile->>'firstName','') || ' ' || coalesce(profile->>'lastName','') ilike ${p} or id ilike ${p})`,
      likePattern(q.search),
    );
  }
  if (q.status !== null) where.add((p) => `status = ${p}`, q.status);
  if (q.role !== null) where.add((p) => `role = ${p}`, q.role);
  if (q.registrationApp) where.add((p) => `coalesce(registration_app, 'unknown') = ${p}`, q.registrationApp);
  return queryPage<UserRow>(db, {
    select: '*',
    from: 'users',
    where: where.sql,
    params: where.params,
    orderBy: `${USER_SORT_COLUMNS[q.sortField]} ${q.sortDir} nulls last, id`,
    limit: q.limit,
    offset: q.offset,
  });
};

/** The account (not deleted) that signs in with this address, if any. */
export const findUserByEmail = async (db: Queryable, email: string): Promise<UserRow | undefined> =>
  (await db.query<UserRow>('select * from users where lower(email) = lower($1) and deleted_at is null limit 1', [email])).rows[0];
/** Whether staff gave the account database access (`hasDbsAccess`). */
export const hasDbsAccess = async (db: Queryable, id: string): Promise<boolean> => {
  const { rows } = await db.query<{ active: boolean }>('select active from dbs_access where id = $1', [id]);
  return rows[0]?.active ?? false;
};

/** An account with database access, as the console's Databases section lists it. */
export interface DbsAccountRow {
  id: string;
  email: string | null;
  username: string | null;
  role: string;
  status: string;
  activated_at: Date;
  activated_by: string | null;
  activated_by_email: string | null;
}

export const DBS_SORT_COLUMNS = { activatedAt: 'a.activated_at', email: 'u.email', status: 'u.status', id: 'a.id' } as const;

/** A page of the accounts (not deleted) that have database access. */
export const listDbsAccounts = (
  db: Queryable,
  q: { search: string | null; sortField: keyof typeof DBS_SORT_COLUMNS; sortDir: 'asc' | 'desc'; limit: number; offset: number },
) => {
  const where = conditions('a.active and u.deleted_at is null');
  if (q.search) where.add((p) => `(u.email ilike ${p} or u.username ilike ${p} or a.id ilike ${p})`, likePattern(q.search));
  return queryPage<DbsAccountRow>(db, {
    select: 'a.id, u.email, u.username, u.role, u.status, a.activated_at, a.activated_by, s.email as activated_by_email',
    from: 'dbs_access a join users u on u.id = a.id left join users s on s.id = a.activated_by',
    where: where.sql,
    params: where.params,
    orderBy: `${DBS_SORT_COLUMNS[q.sortField]} ${q.sortDir} nulls last, a.id`,
    limit: q.limit,
    offset: q.offset,
  });
};

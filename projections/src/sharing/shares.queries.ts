import type { ShareRecord } from '@axel/domain';
import type { Queryable } from '@axel/platform';
import { conditions, likePattern, pageWindow, queryPage } from '../shared/paging';

/** What a list of shares can be sorted by, and the column each sorts on. */
export const SHARE_SORT_COLUMNS = {
  createdAt: 'created_at',
  modifiedAt: 'modified_at',
  expiresAt: 'expires_at',
  title: 'lower(title)',
  totalSize: 'total_size',
} as const;

export interface SharePageRequest {
  readonly sortBy: keyof typeof SHARE_SORT_COLUMNS;
  readonly sortOrder: 'ASC' | 'DESC';
  readonly page: number;
  readonly perPage: number;
}

export interface SharePage {
  readonly records: ShareRecord[];
  readonly total: number;
}

const sharePage = async (db: Queryable, where: { sql: string; params: readonly unknown[] }, q: SharePageRequest): Promise<SharePage> => {
  const { rows, total } = await queryPage<{ record: ShareRecord }>(db, {
    select: 'record',
    from: 'shares',
    where: where.sql,
    params: where.params,
    orderBy: `${SHARE_SORT_COLUMNS[q.sortBy]} ${q.sortOrder} nulls last, id ${q.sortOrder}`,
    ...pageWindow(q.page, q.perPage),
  });
  return { records: rows.map((r) => r.record), total };
};

export interface OwnSharesFilter {
  /** Shares sent to this (normalised) address. */
  readonly recipientEmail?: string;
  readonly expiresFrom?: string;
  readonly expiresTo?: string;
  /** Text the title contains, in any case. */
  readonly title?: string;
}

/** A page of an owner's shares. */
export const listOwnShares = (db: Queryable, ownerId: string, filter: OwnSharesFilter, q: SharePageRequest): Promise<SharePage> => {
  const where = conditions('owner_id = $1', [ownerId]);
  if (filter.recipientEmail !== undefined) where.add((p) => `recipient_emails @> array[${p}::text]`, filter.recipientEmail);
  if (filter.expiresFrom !== undefined) where.add((p) => `expires_at >= ${p}`, filter.expiresFrom);
  if (filter.expiresTo !== undefined) where.add((p) => `expires_at <= ${p}`, filter.expiresTo);
  if (filter.title) where.add((p) => `title ilike ${p}`, likePattern(filter.title));
  return sharePage(db, where, q);
};

/**
 * A page of the live private shares sent to an address by others, leaving out those whose owner
 * blocked it. `@>` (not `= any`) so the lookup reads the recipient index.
 */
export const listSharesSentTo = (db: Queryable, to: { email: string; userId: string; now: Date }, q: SharePageRequest): Promise<SharePage> =>
  sharePage(
    db,
    {
      sql: `kind = 'private' and recipient_emails @> array[$1::text] and owner_id <> $2 and (expires_at is null or expires_at > $3)
        and record->>'revokedAt' is null
        and not (record->'recipients' @> jsonb_build_array(jsonb_build_object('email', $1::text, 'blocked', true)))`,
      params: [to.email, to.userId, to.now],
    },
    q,
  );

/** Shares of a user counted against the plan since a date. */
export const countSharesSince = async (db: Queryable, userId: string, since: Date): Promise<number> => {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from share_counts where user_id = $1 and counted_at >= $2', [userId, since]);
  return rows[0]?.n ?? 0;
};

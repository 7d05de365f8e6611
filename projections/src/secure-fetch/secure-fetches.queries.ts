import type { SecureFetchLink } from '@axel/domain/secure-fetch/secure-fetch.state';
import type { Queryable } from '@axel/platform';
import { likePattern, pageWindow, queryPage } from '../shared/paging';
import type { SecureFetchRow } from './secure-fetches.projection';

/** What an owner's list of fetch links can be sorted by, and the column each sorts on. */
export const SECURE_FETCH_SORT_COLUMNS = { createdAt: 'created_at', expiresAt: 'expires_at', status: 'status', note: 'lower(note)' } as const;

export interface OwnSecureFetchesRequest {
  readonly expiresFrom?: string;
  readonly expiresTo?: string;
  /** Text the note contains, in any case. */
  readonly note?: string;
  readonly sortBy: keyof typeof SECURE_FETCH_SORT_COLUMNS;
  readonly sortOrder: 'ASC' | 'DESC';
  readonly page: number;
  readonly perPage: number;
}

/** A page of an owner's fetch links, leaving out those that expired still waiting for files. */
export const listOwnSecureFetches = async (
  db: Queryable,
  ownerId: string,
  now: Date,
  q: OwnSecureFetchesRequest,
): Promise<{ links: SecureFetchLink[]; total: number }> => {
  const { rows, total } = await queryPage<SecureFetchRow>(db, {
    select: '*',
    from: 'secure_fetches',
    where: `owner_id = $1 and (expires_at is null or expires_at > $2 or status <> 'pending')
        and ($3::timestamptz is null or expires_at >= $3) and ($4::timestamptz is null or expires_at <= $4)
        and ($5::text is null or note ilike $5 escape '\\')`,
    params: [ownerId, now, q.expiresFrom ?? null, q.expiresTo ?? null, q.note ? likePattern(q.note) : null],
    orderBy: `${SECURE_FETCH_SORT_COLUMNS[q.sortBy]} ${q.sortOrder} nulls last, id ${q.sortOrder}`,
    ...pageWindow(q.page, q.perPage),
  });
  return { links: rows.map((r) => r.record), total };
};

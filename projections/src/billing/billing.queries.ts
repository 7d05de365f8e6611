import type { PromoTerms } from '@axel/domain';
import type { Queryable } from '@axel/platform';
import { conditions, likePattern, queryPage } from '../shared/paging';

export interface PromoRow {
  code: string;
  title: string;
  status: string;
  product_ids: number[];
  terms: PromoTerms;
  used_times: number;
  created_at: Date;
  updated_at: Date;
}

/** What the promo code list can be sorted by, and the column each sorts on. */
export const PROMO_SORT_COLUMNS = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  code: 'code',
  title: 'title',
  status: 'status',
  usedTimes: 'used_times',
  id: 'code',
} as const;

/** A promo code not deleted, by its normalised code. */
export const findPromoCode = async (db: Queryable, code: string): Promise<PromoRow | undefined> =>
  (await db.query<PromoRow>('select * from billing_promocodes where code = $1 and not deleted', [code])).rows[0];

export interface PromoCodesRequest {
  /** Text the code or the title contains, in any case. */
  readonly search: string | null;
  readonly status: 'active' | 'inactive' | null;
  readonly sortField: keyof typeof PROMO_SORT_COLUMNS;
  readonly sortDir: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

/** A page of the promo codes not deleted. */
export const listPromoCodes = (db: Queryable, q: PromoCodesRequest) => {
  const where = conditions('not deleted');
  if (q.search) where.add((p) => `(code ilike ${p} or title ilike ${p})`, likePattern(q.search));
  if (q.status) where.add((p) => `status = ${p}`, q.status);
  return queryPage<PromoRow>(db, {
    select: '*',
    from: 'billing_promocodes',
    where: where.sql,
    params: where.params,
    orderBy: `${PROMO_SORT_COLUMNS[q.sortField]} ${q.sortDir}, code`,
    limit: q.limit,
    offset: q.offset,
  });
};

/** Revenue, subscriptions in effect and users behind on payment, for the staff dashboard. */
export const billingFigures = async (db: Queryable, now: Date) => {
  const revenue = await db.query<{ product_id: number; amount: string; payments: number }>(
    `select product_id, sum(amount)::text as amount, count(*)::int as payments from billing_payments where status = 'succeeded' group by product_id order by product_id`,
  );
  const active = await db.query<{ product_id: number; n: number }>(
    `select product_id, count(*)::int as n from billing_subscriptions where start_date <= $1 and (end_date is null or end_date > $1) group by product_id order by product_id`,
    [now],
  );
  const grace = await db.query<{ in_grace: number; unpaid: number }>(
    `select count(distinct user_id) filter (where grace_end_date > $1 and deactivated_at is null)::int as in_grace,
            count(distinct user_id) filter (where grace_end_date <= $1 or deactivated_at is not null)::int as unpaid
       from billing_subscriptions where grace_end_date is not null and (end_date is null or end_date > $1)`,
    [now],
  );
  return {
    revenueByPlan: revenue.rows,
    activeByPlan: active.rows,
    usersInGrace: grace.rows[0]?.in_grace ?? 0,
    unpaidUsers: grace.rows[0]?.unpaid ?? 0,
  };
};

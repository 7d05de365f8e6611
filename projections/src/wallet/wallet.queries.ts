import type { Queryable } from '@axel/platform';

/** How many users hold custodial addresses. */
export const countWalletAddresses = async (db: Queryable): Promise<number> =>
  (await db.query<{ n: number }>('select count(*)::int as n from wallet_addresses')).rows[0]?.n ?? 0;

/** Addresses created in each month (`YYYY-MM`), oldest first. */
export const walletAddressesByMonth = async (db: Queryable): Promise<{ month: string; count: number }[]> =>
  (
    await db.query<{ month: string; count: number }>(
      `select to_char(date_trunc('month', created_at), 'YYYY-MM') as month, count(*)::int as count from wallet_addresses group by 1 order by 1`,
    )
  ).rows;

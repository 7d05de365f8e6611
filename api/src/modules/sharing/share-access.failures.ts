import type { Migration } from '@axel/platform';
import type { AppContext } from '../../context';

/** Wrong passwords on one link, from every client, in LINK_FAILURE_WINDOW_MS before the link slows down. */
export const LINK_FAILURES_PER_WINDOW = 60;
export const LINK_FAILURE_WINDOW_MS = 15 * 60_000;

export const shareLinkFailureMigrations: Migration[] = [
  {
    id: 'api-share-access-001-link-failures',
    sql: `
      -- wrong share passwords per link in fixed windows, seen by every API process (lost in a crash
      -- of PostgreSQL, as a window of counts may be: unlogged)
      create unlogged table share_link_failures (
        link_id text primary key,
        count int not null,
        reset_at timestamptz not null
      );
      create index share_link_failures_reset_at on share_link_failures (reset_at);
    `,
  },
];

/**
 * Wrong share passwords per link in fixed 15-minute windows, kept in PostgreSQL so that every API
 * process counts into the same window and a restart forgets nothing. A window that ended is
 * dropped when another link's window starts.
 */
export const linkFailures = (ctx: Pick<AppContext, 'pool'>) => ({
  /** Counts a wrong password on the link; answers when the link's window ends (ms). */
  async fail(linkId: string, now: number): Promise<number> {
    const at = new Date(now);
    const { rows } = await ctx.pool.query<{ count: number; reset_at: Date }>(
      `insert into share_link_failures (link_id, count, reset_at) values ($1, 1, $3)
       on conflict (link_id) do update set
         count = case when share_link_failures.reset_at > $2 then share_link_failures.count + 1 else 1 end,
         reset_at = case when share_link_failures.reset_at > $2 then share_link_failures.reset_at else excluded.reset_at end
       returning count, reset_at`,
      [linkId, at, new Date(now + LINK_FAILURE_WINDOW_MS)],
    );
    const window = rows[0]!;
    if (window.count === 1) await ctx.pool.query('delete from share_link_failures where reset_at <= $1', [at]);
    return window.reset_at.getTime();
  },
  /** Whether the link has seen LINK_FAILURES_PER_WINDOW wrong passwords in its current window. */
  async over(linkId: string, now: number): Promise<boolean> {
    const { rows } = await ctx.pool.query<{ count: number }>('select count from share_link_failures where link_id = $1 and reset_at > $2', [
      linkId,
      new Date(now),
    ]);
    return (rows[0]?.count ?? 0) >= LINK_FAILURES_PER_WINDOW;
  },
});

import type { Migration, Pool } from '@axel/platform';

export const pushMigrations: Migration[] = [
  {
    id: 'push-001-subscriptions',
    sql: `create table push_subscriptions (
      endpoint text primary key,
      user_id text not null,
      p256dh text not null,
      auth text not null,
      created_at timestamptz not null
    );
    create index on push_subscriptions (user_id);
    create table push_dispatched (
      notification_id text primary key,
      at timestamptz not null
    );
    create table slack_links (
      user_id text primary key,
      slack_user_id text not null,
      webhook_url text,
      linked_at timestamptz not null
    )`,
  },
];

export interface PushSubscriptionRow {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
}

export interface PendingNotice {
  id: string;
  user_id: string;
  type: string;
  params: Record<string, unknown>;
  locale: string;
}

/**
 * Browsers' push subscriptions (web push stands for the spec's FCM tokens) and which notices were
 * pushed. A subscription belongs to one account: the same browser signing in to another account
 * moves it there.
 */
export const pushStore = (pool: Pool) => ({
  async bind(userId: string, s: { endpoint: string; p256dh: string; auth: string }, at: Date): Promise<void> {
    await pool.query(
      `insert into push_subscriptions (endpoint, user_id, p256dh, auth, created_at) values ($1, $2, $3, $4, $5)
       on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         created_at = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.created_at else excluded.created_at end`,
      [s.endpoint, userId, s.p256dh, s.auth, at],
    );
  },
  async unbind(userId: string, endpoint: string): Promise<void> {
    await pool.query('delete from push_subscriptions where user_id = $1 and endpoint = $2', [userId, endpoint]);
  },
  async drop(endpoint: string): Promise<void> {
    await pool.query('delete from push_subscriptions where endpoint = $1', [endpoint]);
  },
  async of(userId: string): Promise<PushSubscriptionRow[]> {
    return (await pool.query<PushSubscriptionRow>('select endpoint, user_id, p256dh, auth from push_subscriptions where user_id = $1', [userId])).rows;
  },
  /**
   * Notices of the last day not yet pushed, for accounts that had a way to hear of them when they
   * were made (a subscription or a Slack webhook then): a new subscription does not replay the past.
   */
  async pending(limit: number): Promise<PendingNotice[]> {
    return (
      await pool.query<PendingNotice>(
        `select n.id, n.user_id, n.type, n.params, u.locale from notifications n join users u on u.id = n.user_id
         where n.created_at > now() - interval '1 day' and not n.deleted
           and not exists (select 1 from push_dispatched d where d.notification_id = n.id)
           and (exists (select 1 from push_subscriptions s where s.user_id = n.user_id and s.created_at <= n.created_at)
             or exists (select 1 from slack_links l where l.user_id = n.user_id and l.webhook_url is not null and l.linked_at <= n.created_at))
         order by n.created_at limit $1`,
        [limit],
      )
    ).rows;
  },
  /** Claims a notice for pushing: true for exactly one caller, whichever process asks. */
  async claim(notificationId: string, at: Date): Promise<boolean> {
    const { rowCount } = await pool.query('insert into push_dispatched (notification_id, at) values ($1, $2) on conflict do nothing', [notificationId, at]);
    return (rowCount ?? 0) > 0;
  },
  async linkSlack(userId: string, slackUserId: string, at: Date): Promise<void> {
    await pool.query(
      `insert into slack_links (user_id, slack_user_id, linked_at) values ($1, $2, $3)
       on conflict (user_id) do update set slack_user_id = excluded.slack_user_id, linked_at = excluded.linked_at`,
      [userId, slackUserId, at],
    );
  },
  async setSlackWebhook(userId: string, url: string | null, at: Date): Promise<boolean> {
    const { rowCount } = await pool.query('update slack_links set webhook_url = $2, linked_at = $3 where user_id = $1', [userId, url, at]);
    return (rowCount ?? 0) > 0;
  },
  async slackOf(userId: string): Promise<{ slack_user_id: string; webhook_url: string | null } | undefined> {
    return (
      await pool.query<{ slack_user_id: string; webhook_url: string | null }>('select slack_user_id, webhook_url from slack_links where user_id = $1', [userId])
    ).rows[0];
  },
  async unlinkSlack(userId: string): Promise<void> {
    await pool.query('delete from slack_links where user_id = $1', [userId]);
  },
  async forget(userId: string): Promise<void> {
    await pool.query('delete from push_subscriptions where user_id = $1', [userId]);
    await pool.query('delete from slack_links where user_id = $1', [userId]);
  },
});
export type PushStore = ReturnType<typeof pushStore>;

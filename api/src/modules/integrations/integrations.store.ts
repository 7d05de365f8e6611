import type { App } from '@axel/domain';
import type { Migration, Pool } from '@axel/platform';

/**
 * Short-lived access tokens, sealed with the server key, kept between calls so that each call does
 * not refresh (Dropbox's last four hours, Clio's a few days). The long-lived refresh tokens live in
 * the integrations stream, sealed under the account's key. Forgetting the account drops these rows.
 */
export const integrationMigrations: Migration[] = [
  {
    id: 'api-integrations-001-access-tokens',
    sql: `
create table if not exists integration_access_tokens (
  user_id text not null,
  app text not null,
  sealed text not null,
  expires_at timestamptz not null,
  primary key (user_id, app)
);`,
  },
];

export const cachedAccessToken = async (pool: Pool, userId: string, app: App): Promise<{ sealed: string; expiresAt: Date } | undefined> => {
  const { rows } = await pool.query<{ sealed: string; expires_at: Date }>(
    'select sealed, expires_at from integration_access_tokens where user_id = $1 and app = $2',
    [userId, app],
  );
  return rows[0] && { sealed: rows[0].sealed, expiresAt: rows[0].expires_at };
};

export const keepAccessToken = async (pool: Pool, userId: string, app: App, sealed: string, expiresAt: Date): Promise<void> => {
  await pool.query(
    `insert into integration_access_tokens (user_id, app, sealed, expires_at) values ($1, $2, $3, $4)
     on conflict (user_id, app) do update set sealed = excluded.sealed, expires_at = excluded.expires_at`,
    [userId, app, sealed, expiresAt],
  );
};

export const dropAccessTokens = async (pool: Pool, userId: string, app?: App): Promise<void> => {
  if (app) await pool.query('delete from integration_access_tokens where user_id = $1 and app = $2', [userId, app]);
  else await pool.query('delete from integration_access_tokens where user_id = $1', [userId]);
};

/** Whether a team this user belongs to forbids them an action (spec §3 Member forbiddenActions). */
export const teamForbids = async (pool: Pool, userId: string, action: string): Promise<boolean> => {
  // the teams read model is there only where the teams slice runs
  const present = await pool.query<{ present: boolean }>("select to_regclass('team_members') is not null as present");
  if (!present.rows[0]?.present) return false;
  const { rows } = await pool.query('select 1 from team_members where user_id = $1 and $2 = any(forbidden_actions) limit 1', [userId, action]);
  return rows.length > 0;
};

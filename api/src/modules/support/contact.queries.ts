import type { Queryable } from '@axel/platform';

/**
 * Whether `receiverId` owns an open team or group `senderId` has joined: the one a member's
 * "contact an admin" reaches (spec §6). A pending or suspended member has not joined.
 */
export const ownsTeamOf = async (db: Queryable, receiverId: string, senderId: string): Promise<boolean> => {
  const exists = await db.query<{ t: string | null }>(`select to_regclass('team_members')::text as t`);
  if (!exists.rows[0]?.t) return false;
  const { rows } = await db.query(
    `select 1 from teams t join team_members m on m.team_id = t.id
     where t.owner_id = $1 and t.status = 'open' and m.user_id = $2 and m.status = 'joined' and m.user_id <> t.owner_id limit 1`,
    [receiverId, senderId],
  );
  return rows.length > 0;
};

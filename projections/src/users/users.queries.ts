import type { Queryable } from '@axel/platform';
import type { UsersRow } from '@axel/projections';

/** A users read-model row as the database returns it. */
export type UserRow = UsersRow<Date>;

export const findUser = async (db: Queryable, id: string): Promise<UserRow | undefined> => {
  const { rows } = await db.query<UserRow>('select * from users where id = $1', [id]);
  return rows[0];
};

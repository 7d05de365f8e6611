import type { Queryable } from '@axel/platform';

export interface UserRow {
  id: string;
  email: string | null;
  email_verified: boolean;
  username: string | null;
  role: string;
  status: string;
  locale: string;
  terms_accepted: boolean;
  session_timeout: number;
  two_factor_enabled: boolean;
  two_factor_method: string | null;
  auth_methods: string[];
  forbidden_actions: string[];
  profile: Record<string, string | null>;
  avatar_id: string | null;
  avatar_mime: string | null;
  registration_app: string | null;
  registration_user_agent: string | null;
  registration_ip: string | null;
  created_by_staff_id: string | null;
  first_login_at: Date | null;
  last_login_at: Date | null;
  locked_until: Date | null;
  blocked: boolean;
  blocked_until: Date | null;
  suspension_reason: string | null;
  created_at: Date;
  modified_at: Date;
  status_updated_at: Date;
  deleted_at: Date | null;
  deleter_id: string | null;
  deleted_by: string | null;
  purged_at: Date | null;
}

export const findUser = async (db: Queryable, id: string): Promise<UserRow | undefined> => {
  const { rows } = await db.query<UserRow>('select * from users where id = $1', [id]);
  return rows[0];
};

import { CommonErrors, DomainError } from '@axel/domain';
import type { Migration, Pool } from '@axel/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomToken, sha256 } from '../secrets';

export const SESSION_COOKIE = 'axel_session';

export const sessionMigrations: Migration[] = [
  {
    id: 'api-002-sessions',
    sql: `
create table sessions (
  id text primary key,
  user_id text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  ip text,
  user_agent text,
  revoked_at timestamptz,
  revoked_reason text
);
create index sessions_user on sessions (user_id) where revoked_at is null;`,
  },
];

export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
}

/** Only the token's hash is stored: a database leak yields no usable session. */
export class SessionStore {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
  ) {}

  async create(userId: string, meta: { ip: string | null; userAgent: string | null }, token: string = randomToken()): Promise<{ token: string; id: string }> {
    const id = sha256(token);
    const at = this.now();
    await this.pool.query('insert into sessions (id, user_id, created_at, last_seen_at, ip, user_agent) values ($1, $2, $3, $3, $4, $5)', [
      id,
      userId,
      at,
      meta.ip,
      meta.userAgent,
    ]);
    return { token, id };
  }

  /**
   * The live session for a cookie token, or why there is none. Inactivity longer than the user's
   * timeout ends the session; activity moves `last_seen_at` (at most every 10 s, to spare writes).
   */
  async touch(
    token: string,
    timeoutSeconds: (userId: string) => Promise<number>,
  ): Promise<{ ok: true; session: SessionRecord } | { ok: false; reason: 'unknown' | 'revoked' | 'inactive' }> {
    const id = sha256(token);
    const { rows } = await this.pool.query<{
      id: string;
      user_id: string;
      created_at: Date;
      last_seen_at: Date;
      revoked_at: Date | null;
    }>('select id, user_id, created_at, last_seen_at, revoked_at from sessions where id = $1', [id]);
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    const now = this.now();
    const timeout = await timeoutSeconds(row.user_id);
    if (now.getTime() - row.last_seen_at.getTime() > timeout * 1000) {
      await this.revoke(id, 'inactivity');
      return { ok: false, reason: 'inactive' };
    }
    if (now.getTime() - row.last_seen_at.getTime() > 10_000) {
      await this.pool.query('update sessions set last_seen_at = $2 where id = $1', [id, now]);
    }
    return { ok: true, session: { id, userId: row.user_id, createdAt: row.created_at, lastSeenAt: now } };
  }

  async revoke(id: string, reason: string): Promise<void> {
    await this.pool.query('update sessions set revoked_at = $2, revoked_reason = $3 where id = $1 and revoked_at is null', [id, this.now(), reason]);
  }

  /** Signs a user out everywhere (suspension, deletion, password change). */
  /** Forgets every session of an account, revoked ones included (their ip and user agent are personal). */
  async forget(userId: string): Promise<void> {
    await this.pool.query('delete from sessions where user_id = $1', [userId]);
  }

  async revokeAllFor(userId: string, reason: string, exceptId?: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      'update sessions set revoked_at = $2, revoked_reason = $3 where user_id = $1 and revoked_at is null and id is distinct from $4',
      [userId, this.now(), reason, exceptId ?? null],
    );
    return rowCount ?? 0;
  }
}

export const sessionCookieOptions = (secure: boolean) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure,
});

export const readSessionToken = (request: FastifyRequest): string | undefined => {
  const token = request.cookies[SESSION_COOKIE];
  return token && /^[\w-]{20,100}$/.test(token) ? token : undefined;
};

export const clearSessionCookie = (reply: FastifyReply, secure: boolean) => reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(secure));

export const unauthorized = (reason: 'unknown' | 'revoked' | 'inactive' | 'none') =>
  new DomainError(reason === 'inactive' ? CommonErrors.inactivity : CommonErrors.unauthorized);

import type { Queryable } from '@axel/platform';
import type { TeamActivityType } from './team-activity.projection';

export interface TeamActivityRow {
  readonly id: string;
  readonly type: TeamActivityType;
  readonly source_path: string | null;
  readonly destination_path: string | null;
  readonly actor_id: string | null;
  readonly actor_email: string | null;
  readonly subject_member_id: string | null;
  readonly at: Date;
}

export interface TeamActivityFilter {
  readonly type?: TeamActivityType;
  /** Only what this person did. */
  readonly actorId?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly limit: number;
  readonly offset: number;
}

/** A page of a team's activity log, newest first, with the doer's address as it is now. */
export const teamActivityPage = async (db: Queryable, teamId: string, f: TeamActivityFilter): Promise<{ rows: TeamActivityRow[]; total: number }> => {
  const where = [
    'a.team_id = $1',
    '($2::text is null or a.type = $2)',
    '($3::text is null or a.actor_id = $3)',
    '($4::timestamptz is null or a.at >= $4)',
    '($5::timestamptz is null or a.at < $5)',
  ].join(' and ');
  const params = [teamId, f.type ?? null, f.actorId ?? null, f.from ?? null, f.to ?? null];
  const [page, count] = await Promise.all([
    db.query<TeamActivityRow>(
      `select a.id, a.type, a.source_path, a.destination_path, a.actor_id, u.email as actor_email, a.subject_member_id, a.at
         from team_activity a left join users u on u.id = a.actor_id
        where ${where} order by a.position desc limit $6 offset $7`,
      [...params, f.limit, f.offset],
    ),
    db.query<{ n: string }>(`select count(*) as n from team_activity a where ${where}`, params),
  ]);
  return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
};

/** Forgets what a purged person did in any team (the paths they touched are personal data). */
export const forgetTeamActivityOf = async (db: Queryable, userId: string): Promise<void> => {
  await db.query('delete from team_activity where actor_id = $1', [userId]);
};

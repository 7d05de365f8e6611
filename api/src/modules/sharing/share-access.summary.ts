import type { AppContext } from '../../context';

/** The share's access log, newest first. */
export const accessLogOf = async (ctx: AppContext, shareId: string, page: { page: number; perPage: number }) => {
  const { rows } = await ctx.pool.query<{
    id: string;
    action: string;
    visit_id: string;
    entry_id: string | null;
    entry_name: string | null;
    recipient_email: string | null;
    ip: string | null;
    user_agent: string | null;
    at: Date;
    total: number;
  }>(
    `select l.id, l.action, l.visit_id, l.entry_id, l.recipient_email, l.ip, l.user_agent, l.at, count(*) over ()::int as total,
            coalesce(i.name, t.archive_name) as entry_name
       from share_access_log l
       left join storage_items i on l.action = 'download' and i.id = l.entry_id
       left join storage_tasks t on l.action = 'archive' and t.id = l.entry_id
      where l.share_id = $1 order by l.at desc, l.position desc limit $2 offset $3`,
    [shareId, page.perPage, (page.page - 1) * page.perPage],
  );
  return {
    data: rows.map((r) => ({
      id: r.id,
      time: r.at.toISOString(),
      action: r.action,
      /** The visit (one access token): its open and its downloads share it. */
      visitId: r.visit_id,
      entryId: r.entry_id,
      /** The file's name now, or the archive's. */
      entryName: r.entry_name,
      recipientEmail: r.recipient_email,
      ip: r.ip,
      userAgent: r.user_agent,
    })),
    totalCount: rows[0]?.total ?? 0,
    page: page.page,
    perPage: page.perPage,
  };
};

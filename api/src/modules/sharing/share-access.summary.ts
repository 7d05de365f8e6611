import type { AppContext } from '../../context';
import { NO_ACCESS, type ShareAccessFigures } from './shares.read';

/** Opened count, first open and each recipient's first open of these shares, from the access read model. */
export const accessSummaryOf = async (ctx: AppContext, shareIds: readonly string[]): Promise<Map<string, ShareAccessFigures>> => {
  const figures = new Map<string, ShareAccessFigures>(shareIds.map((id) => [id, NO_ACCESS]));
  if (!shareIds.length) return figures;
  const [summaries, recipients] = await Promise.all([
    ctx.pool.query<{ share_id: string; opened_count: number; delivered_on: Date | null }>(
      'select share_id, opened_count, delivered_on from share_access_summary where share_id = any($1)',
      [shareIds],
    ),
    ctx.pool.query<{ share_id: string; email: string; opened_at: Date }>(
      'select share_id, email, opened_at from share_access_recipients where share_id = any($1)',
      [shareIds],
    ),
  ]);
  const openedAt = new Map<string, Record<string, string>>();
  for (const r of recipients.rows) openedAt.set(r.share_id, { ...openedAt.get(r.share_id), [r.email]: r.opened_at.toISOString() });
  for (const s of summaries.rows) {
    figures.set(s.share_id, {
      openedCount: s.opened_count,
      deliveredOn: s.delivered_on?.toISOString() ?? null,
      recipientsOpenedAt: openedAt.get(s.share_id) ?? {},
    });
  }
  return figures;
};

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

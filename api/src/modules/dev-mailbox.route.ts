import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';

const MailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string().nullable(),
  html: z.string().nullable(),
  status: z.string(),
  sentAt: z.string().nullable(),
  requestedAt: z.string(),
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const linkify = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * The development mailbox (only without SMTP_URL): mail that would have been sent, with its
 * links clickable, so a person can confirm an account on a laptop.
 */
export const devMailboxRoutes = (ctx: AppContext) => async (app: FastifyInstance) => {
  const list = async (to?: string) => {
    const { rows } = await ctx.pool.query<{
      id: string;
      recipient: string;
      subject: string;
      body_text: string | null;
      body_html: string | null;
      status: string;
      delivered_at: Date | null;
      requested_at: Date;
    }>(
      `select id, recipient, subject, body_text, body_html, status, delivered_at, requested_at from mail_outbox
       where ($1::text is null or recipient = $1) order by requested_at desc, id desc limit 200`,
      [to ?? null],
    );
    return rows.map((r) => ({
      id: r.id,
      to: r.recipient,
      subject: r.subject,
      text: r.body_text,
      html: r.body_html,
      status: r.status,
      sentAt: r.delivered_at?.toISOString() ?? null,
      requestedAt: r.requested_at.toISOString(),
    }));
  };

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/dev/mailbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Mail the development transport kept (newest first)',
        querystring: z.object({ to: z.string().optional() }),
        response: { 200: z.array(MailSchema) },
      },
    },
    async (request) => list(request.query.to?.toLowerCase()),
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await list();
    const items = mails
      .map(
        (m) => `<article data-testid="mail" data-to="${escapeHtml(m.to)}">
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.requestedAt)} · ${escapeHtml(m.status)}</p>
  <pre>${linkify(m.text ?? '')}</pre>
</article>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
<style>body{font-family:sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0}pre{white-space:pre-wrap}.meta{color:#666}</style>
</head><body><h1>Development mailbox</h1><p>Mail is not sent on this installation (no SMTP_URL); it is kept here.</p>${
      items || '<p>No mail yet.</p>'
    }</body></html>`;
  });
};

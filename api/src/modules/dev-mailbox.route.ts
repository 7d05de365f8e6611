import { CommonErrors, DomainError } from '@axel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { clientAddresses, isLoopbackAddress, isLoopbackHost } from '../http/loopback';
import { devAttachment, devAttachmentsOf } from '../mail/attachments.store';

const MailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string().nullable(),
  html: z.string().nullable(),
  status: z.string(),
  sentAt: z.string().nullable(),
  requestedAt: z.string(),
  /** Files the mail carried; each is read at `url`. */
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number(), url: z.string() })),
});

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const linkify = (text: string) => escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * Whether the mailbox is served at all: never with real mail (SMTP_URL) or DEV_MAILBOX=off;
 * `auto` only on a loopback HOST; `on` on any HOST (the start then warns).
 */
export const devMailboxMode = (config: Pick<Config, 'SMTP_URL' | 'DEV_MAILBOX' | 'HOST'>): 'off' | 'loopback' | 'exposed' => {
  if (config.SMTP_URL || config.DEV_MAILBOX === 'off') return 'off';
  if (isLoopbackHost(config.HOST)) return 'loopback';
  return config.DEV_MAILBOX === 'on' ? 'exposed' : 'off';
};

/**
 * Read-your-mail for whoever can reach it is an account takeover (a reset link is mail), so the
 * mailbox answers only when the connection and every address a proxy names are loopback: with
 * TRUST_PROXY a proxy on this machine forwarding a remote client is refused, as is a remote
 * client that claims to be 127.0.0.1 in a header.
 */
const loopbackOnly = async (request: FastifyRequest) => {
  if (!clientAddresses(request).every(isLoopbackAddress)) throw new DomainError(CommonErrors.notFound);
};

/**
 * The development mailbox (only without SMTP_URL): mail that would have been sent, with its
 * links clickable, so a person can confirm an account on a laptop.
 */
export const devMailboxRoutes = (ctx: AppContext) => async (app: FastifyInstance) => {
  app.addHook('onRequest', loopbackOnly);
  const list = async (to?: string) => {
    const { rows } = await ctx.pool.query<{
      id: string;
      recipient: string;
      subject: string;
      body_text: string | null;
      body_html: string | null;
      received_at: Date;
    }>(
      // the mailbox the development transport delivers into: the outbox keeps no bodies
      `select id, recipient, subject, body_text, body_html, received_at from dev_mailbox
       where ($1::text is null or recipient = $1) order by received_at desc, id desc limit 200`,
      [to ?? null],
    );
    const files = await devAttachmentsOf(
      ctx.pool,
      rows.map((r) => r.id),
    );
    const attachmentsOf = (id: string) =>
      files
        .filter((f) => f.mail_id === id)
        .map((f) => ({
          filename: f.filename,
          contentType: f.content_type,
          size: f.size,
          url: `/api/dev/mailbox/${encodeURIComponent(id)}/attachments/${f.idx}`,
        }));
    return rows.map((r) => ({
      attachments: attachmentsOf(r.id),
      id: r.id,
      to: r.recipient,
      subject: r.subject,
      text: r.body_text,
      html: r.body_html,
      status: 'delivered',
      sentAt: r.received_at.toISOString(),
      requestedAt: r.received_at.toISOString(),
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

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/dev/mailbox/:id/attachments/:index',
    {
      schema: {
        tags: ['development'],
        summary: 'A file a mail in the development mailbox carried',
        params: z.object({ id: z.string().min(1).max(100), index: z.coerce.number().int().min(0).max(100) }),
      },
    },
    async (request, reply) => {
      const file = await devAttachment(ctx.pool, request.params.id, request.params.index);
      if (!file) throw new DomainError(CommonErrors.notFound);
      const name = encodeURIComponent(file.filename);
      return reply
        .type(file.content_type)
        .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await list();
    const items = mails
      .map(
        (m) => `<article data-testid="mail" data-to="${escapeHtml(m.to)}">
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.requestedAt)} · ${escapeHtml(m.status)}</p>
  <pre>${linkify(m.text ?? '')}</pre>${m.attachments
    .map((a) => `\n  <p class="attachment">📎 <a href="${escapeHtml(a.url)}">${escapeHtml(a.filename)}</a> (${a.size} bytes)</p>`)
    .join('')}
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

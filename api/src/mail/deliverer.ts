import type { EventRegistry } from '@axel/domain';
import { mailStream } from '@axel/domain/mail/mail.events';
import { DrainLoop, deterministicId, expected, metadataFor, type EventStore, type Migration, type Pool } from '@axel/platform';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';
import { keepDevAttachments, mailAttachmentMigrations, type MailAttachment, type MailAttachmentStore } from './attachments.store';

export interface OutgoingMail {
  /** The outbox id: a mail sent again after a crash is the same mail. */
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments?: readonly MailAttachment[];
}

export interface MailTransport {
  readonly kind: 'smtp' | 'dev';
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
}

/**
 * Development transport: nothing leaves the machine. It delivers into `dev_mailbox`, which stands
 * for the recipients' own inboxes (the dev mailbox page reads it), so the outbox can forget a
 * mail's body once it is delivered, exactly as with SMTP.
 */
export const devMailboxTransport = (pool: Pool): MailTransport => ({
  kind: 'dev',
  send: async (mail) => {
    await pool.query(`insert into dev_mailbox (id, recipient, subject, body_text, body_html) values ($1, $2, $3, $4, $5) on conflict (id) do nothing`, [
      mail.id,
      mail.to.toLowerCase(),
      mail.subject,
      mail.text,
      mail.html,
    ]);
    if (mail.attachments?.length) await keepDevAttachments(pool, mail.id, mail.attachments);
    return { messageId: mail.id };
  },
});

export const smtpTransport = (url: string, from: string): MailTransport => {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    send: async (mail) => {
      const { attachments, ...rest } = mail;
      const info = await transporter.sendMail({
        from,
        ...rest,
        attachments: attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
      return { messageId: info.messageId ?? null };
    },
  };
};

export const mailDeliveryMigrations: Migration[] = [
  {
    id: 'api-001-mail-claims',
    sql: 'create table mail_claims (id text primary key, until timestamptz not null)',
  },
  {
    id: 'api-002-dev-mailbox',
    sql: `create table dev_mailbox (
      id text primary key,
      recipient text not null,
      subject text not null,
      body_text text not null,
      body_html text not null,
      received_at timestamptz not null default now()
    );
    create index on dev_mailbox (recipient, received_at desc)`,
  },
  {
    // bodies kept by earlier versions for delivered development mail
    id: 'api-003-forget-delivered-mail-bodies',
    sql: `do $$ begin
      if to_regclass('mail_outbox') is not null then
        update mail_outbox set body_text = null, body_html = null where status <> 'pending' and body_text is not null;
      end if;
    end $$`,
  },
  ...mailAttachmentMigrations,
];

const MAX_ATTEMPTS = 5;
const backoffMs = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000);

/**
 * Sends pending outbox mail. A claim row keeps two deliverers (or two processes) from sending the
 * same mail; the outcome is recorded as an event with an id derived from the mail, so a retry after
 * a crash does not record it twice.
 */
export class MailDeliverer {
  private readonly loop: DrainLoop;

  constructor(
    private readonly deps: {
      pool: Pool;
      store: EventStore;
      registry: EventRegistry;
      transport: MailTransport;
      attachments: MailAttachmentStore;
      log: Logger;
      now: () => Date;
    },
  ) {
    this.loop = new DrainLoop(() => this.drain(), { intervalMs: 5000, onError: (error) => deps.log.error({ err: error }, 'mail delivery failed') });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const { rows } = await this.deps.pool.query<{
        id: string;
        recipient: string;
        subject: string;
        body_text: string;
        body_html: string;
        attempts: number;
      }>(
        `select o.id, o.recipient, o.subject, o.body_text, o.body_html, o.attempts from mail_outbox o
         where o.status = 'pending' and o.body_text is not null and not exists (select 1 from mail_claims c where c.id = o.id and c.until > now())
         order by o.requested_at limit 10`,
      );
      if (!rows.length || this.loop.isStopped()) return;
      for (const mail of rows) {
        const { rowCount } = await this.deps.pool.query(
          `insert into mail_claims(id, until) values ($1, now() + interval '10 minutes')
           on conflict (id) do update set until = excluded.until where mail_claims.until <= now()`,
          [mail.id],
        );
        if (!rowCount) continue;
        await this.deliver(mail);
      }
    }
  }

  private async deliver(mail: { id: string; recipient: string; subject: string; body_text: string; body_html: string; attempts: number }) {
    const ctx = { actorId: 'mail-deliverer', actorKind: 'system' as const, client: 'mail' };
    const metadata = metadataFor(ctx, this.deps.now());
    const attempt = mail.attempts + 1;
    try {
      const { messageId } = await this.deps.transport.send({
        id: mail.id,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body_text,
        html: mail.body_html,
        attachments: await this.deps.attachments.of(mail.id),
      });
      const event = this.deps.registry.encode({
        type: 'MailDelivered',
        data: { mailId: mail.id, transport: this.deps.transport.kind, messageId },
      });
      await this.deps.store.append(mailStream(mail.id), [{ id: deterministicId('mail-delivered', mail.id), ...event, metadata }], expected.any);
      await this.deps.pool.query(`update mail_claims set until = now() + interval '1 day' where id = $1`, [mail.id]);
      await this.deps.attachments.drop(mail.id);
    } catch (error) {
      const final = attempt >= MAX_ATTEMPTS;
      this.deps.log.warn({ mailId: mail.id, attempt, err: error }, 'mail not sent');
      const event = this.deps.registry.encode({
        type: 'MailFailed',
        data: { mailId: mail.id, error: (error as Error).message.slice(0, 500), attempt, final },
      });
      await this.deps.store.append(mailStream(mail.id), [{ id: deterministicId('mail-failed', mail.id, String(attempt)), ...event, metadata }], expected.any);
      await this.deps.pool.query(`update mail_claims set until = now() + ($2::int * interval '1 millisecond') where id = $1`, [
        mail.id,
        final ? 365 * 86_400_000 : backoffMs(attempt),
      ]);
      if (final) await this.deps.attachments.drop(mail.id);
    }
  }
}

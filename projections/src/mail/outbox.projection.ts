import type { AccountPurged } from '@axel/domain/accounts/accounts.events';
import type { MailEvent, MailTemplate } from '@axel/domain/mail/mail.events';
import { ERASED } from '@axel/domain';
import { defineProjection } from '../runner/projection';

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export type MailRenderer = (template: MailTemplate, locale: string, sealedParams: string) => RenderedMail;

/**
 * The mail outbox: one row per requested mail, rendered in the recipient's locale. A body holds
 * live links and codes, so it is kept only until the mail is delivered (or finally fails): then
 * the row keeps its metadata only, whatever the transport (the development transport delivers
 * into its own mailbox table). A purge of the account erases its earlier mail.
 */
export const mailOutboxProjection = (render: MailRenderer) =>
  defineProjection<'mail_outbox', MailEvent | AccountPurged>({
    name: 'mail_outbox',
    handles: ['MailRequested', 'MailDelivered', 'MailFailed', 'AccountPurged'],
    tables: {
      mail_outbox: (t) => `create table "${t}" (
        id text primary key,
        recipient text not null,
        user_id text,
        template text not null,
        locale text not null,
        subject text not null,
        body_text text,
        body_html text,
        status text not null,
        transport text,
        attempts int not null default 0,
        last_error text,
        requested_at timestamptz not null,
        delivered_at timestamptz
      );
      create index on "${t}" (status, requested_at);`,
    },
    async apply(tx, events, t) {
      for (const e of events) {
        switch (e.type) {
          case 'MailRequested': {
            const m = render(e.data.template, e.data.locale, e.data.sealedParams);
            await tx.query(
              `insert into "${t.mail_outbox}" (id, recipient, user_id, template, locale, subject, body_text, body_html, status, requested_at)
               values ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9) on conflict (id) do nothing`,
              [e.data.mailId, e.data.to, e.data.userId, e.data.template, e.data.locale, m.subject, m.text, m.html, e.recordedAt],
            );
            break;
          }
          case 'MailDelivered':
            // the mail has left: like its event, the outbox forgets the address and the content
            await tx.query(
              `update "${t.mail_outbox}" set status = 'delivered', transport = $2, delivered_at = $3, recipient = '${ERASED}', body_text = null, body_html = null
               where id = $1`,
              [e.data.mailId, e.data.transport, e.recordedAt],
            );
            break;
          case 'AccountPurged':
            // a purged account's earlier mail keeps no address or content; mail still to be sent
            // (the purge confirmation is queued just before the purge) goes out first
            await tx.query(
              `update "${t.mail_outbox}" set recipient = '', subject = '', body_text = null, body_html = null where user_id = $1 and status <> 'pending'`,
              [e.streamName.slice('user-'.length)],
            );
            break;
          case 'MailFailed':
            await tx.query(
              `update "${t.mail_outbox}" set attempts = $2, last_error = $3, status = case when $4 then 'failed' else status end,
                 recipient = case when $4 then '${ERASED}' else recipient end,
                 body_text = case when $4 then null else body_text end, body_html = case when $4 then null else body_html end
               where id = $1`,
              [e.data.mailId, e.data.attempt, e.data.error, e.data.final],
            );
            break;
        }
      }
    },
  });

import type { Migration, Pool, Queryable } from '@axel/platform';
import type { Secrets } from '../secrets';

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export const mailAttachmentMigrations: Migration[] = [
  {
    // what a queued mail carries beside its body: sealed with the server key until it has left
    id: 'api-004-mail-attachments',
    sql: `create table mail_attachments (
      mail_id text not null,
      idx int not null,
      filename text not null,
      content_type text not null,
      size int not null,
      sealed bytea not null,
      primary key (mail_id, idx)
    );
    create table dev_mailbox_attachments (
      mail_id text not null,
      idx int not null,
      filename text not null,
      content_type text not null,
      size int not null,
      content bytea not null,
      primary key (mail_id, idx)
    )`,
  },
];

const label = (mailId: string, idx: number) => `mail-attachment\0${mailId}\0${idx}`;

/**
 * A queued mail's attachments. They stay outside the event log (the log is for ever, an
 * attachment is large and personal): sealed rows beside the outbox, read by the deliverer and
 * dropped once the mail has left or finally failed, as the outbox drops the body.
 */
export const mailAttachmentStore = (pool: Pool, secrets: Secrets) => ({
  async put(mailId: string, attachments: readonly MailAttachment[]): Promise<void> {
    for (const [idx, a] of attachments.entries()) {
      await pool.query(
        `insert into mail_attachments (mail_id, idx, filename, content_type, size, sealed) values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
        [mailId, idx, a.filename, a.contentType, a.content.length, secrets.sealBytes(a.content, label(mailId, idx))],
      );
    }
  },
  async of(mailId: string): Promise<MailAttachment[]> {
    const { rows } = await pool.query<{ idx: number; filename: string; content_type: string; sealed: Buffer }>(
      'select idx, filename, content_type, sealed from mail_attachments where mail_id = $1 order by idx',
      [mailId],
    );
    return rows.map((r) => ({ filename: r.filename, contentType: r.content_type, content: secrets.openBytes(r.sealed, label(mailId, r.idx)) }));
  },
  async drop(mailId: string): Promise<void> {
    await pool.query('delete from mail_attachments where mail_id = $1', [mailId]);
  },
});
export type MailAttachmentStore = ReturnType<typeof mailAttachmentStore>;

/** The development mailbox keeps what it received, attachments included, as a recipient's inbox would. */
export const keepDevAttachments = async (db: Queryable, mailId: string, attachments: readonly MailAttachment[]): Promise<void> => {
  for (const [idx, a] of attachments.entries()) {
    await db.query(
      `insert into dev_mailbox_attachments (mail_id, idx, filename, content_type, size, content) values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
      [mailId, idx, a.filename, a.contentType, a.content.length, a.content],
    );
  }
};

export interface DevAttachmentInfo {
  readonly mail_id: string;
  readonly idx: number;
  readonly filename: string;
  readonly content_type: string;
  readonly size: number;
}

export const devAttachmentsOf = async (db: Queryable, mailIds: readonly string[]): Promise<DevAttachmentInfo[]> =>
  (
    await db.query<DevAttachmentInfo>(
      'select mail_id, idx, filename, content_type, size from dev_mailbox_attachments where mail_id = any($1) order by mail_id, idx',
      [mailIds],
    )
  ).rows;

export const devAttachment = async (db: Queryable, mailId: string, idx: number) =>
  (
    await db.query<{ filename: string; content_type: string; content: Buffer }>(
      'select filename, content_type, content from dev_mailbox_attachments where mail_id = $1 and idx = $2',
      [mailId, idx],
    )
  ).rows[0];

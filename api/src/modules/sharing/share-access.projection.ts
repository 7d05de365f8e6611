import type { DomainEvent, ShareAccessEvent } from '@axel/domain';
import { defineProjection } from '@axel/projections';

type Source = ShareAccessEvent | DomainEvent<'ShareDeleted', { deletedAt: string }> | DomainEvent<'AccountPurged', { at: string }>;

/**
 * What the owner sees of a share's access, from the access events: a row per open and download
 * (time, recipient e-mail when known, ip and user agent from the event's metadata), and per share
 * its opened count, first open (delivered on) and each recipient's first open. A deleted share, a
 * forgotten access history and a purged owner take their rows with them (they hold visitors'
 * addresses and e-mails).
 */
export const shareAccessProjection = defineProjection<'share_access_log' | 'share_access_summary' | 'share_access_recipients', Source>({
  name: 'share_access',
  handles: ['ShareOpened', 'ShareDownloaded', 'ShareAccessForgotten', 'ShareDeleted', 'AccountPurged'],
  tables: {
    share_access_log: (t) => `create table "${t}" (
      id text primary key,
      position bigint not null,
      share_id text not null,
      owner_id text not null,
      action text not null,
      entry_id text,
      visit_id text not null,
      recipient_email text,
      ip text,
      user_agent text,
      at timestamptz not null
    );
    create index on "${t}" (share_id, at desc, position desc);
    create index on "${t}" (owner_id);`,
    share_access_summary: (t) => `create table "${t}" (
      share_id text primary key,
      owner_id text not null,
      opened_count int not null default 0,
      download_count int not null default 0,
      delivered_on timestamptz
    );
    create index on "${t}" (owner_id);`,
    share_access_recipients: (t) => `create table "${t}" (
      share_id text not null,
      email text not null,
      opened_at timestamptz not null,
      primary key (share_id, email)
    );`,
  },
  async apply(tx, events, t) {
    const LOG = `"${t.share_access_log}"`;
    const SUMMARY = `"${t.share_access_summary}"`;
    const RECIPIENTS = `"${t.share_access_recipients}"`;
    for (const e of events) {
      if (e.type === 'ShareDeleted' || e.type === 'ShareAccessForgotten') {
        const shareId = e.type === 'ShareAccessForgotten' ? e.data.shareId : e.streamName.slice('share-'.length);
        for (const table of [LOG, SUMMARY, RECIPIENTS]) await tx.query(`delete from ${table} where share_id = $1`, [shareId]);
        continue;
      }
      if (e.type === 'AccountPurged') {
        const ownerId = e.streamName.slice('user-'.length);
        await tx.query(`delete from ${RECIPIENTS} where share_id in (select share_id from ${SUMMARY} where owner_id = $1)`, [ownerId]);
        await tx.query(`delete from ${LOG} where owner_id = $1`, [ownerId]);
        await tx.query(`delete from ${SUMMARY} where owner_id = $1`, [ownerId]);
        continue;
      }
      const d = e.data;
      const download = e.type === 'ShareDownloaded' ? e.data : null;
      const action = download ? (download.archive ? 'archive' : 'download') : 'open';
      const inserted = await tx.query(
        `insert into ${LOG} (id, position, share_id, owner_id, action, entry_id, visit_id, recipient_email, ip, user_agent, at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (id) do nothing`,
        [e.id, e.position, d.shareId, d.ownerId, action, download?.entryId ?? null, d.visitId, d.recipientEmail, e.metadata.ip, e.metadata.userAgent, d.at],
      );
      if (!inserted.rowCount) continue;
      const opened = e.type === 'ShareOpened' ? 1 : 0;
      await tx.query(
        `insert into ${SUMMARY} (share_id, owner_id, opened_count, download_count, delivered_on) values ($1, $2, $3, $4, $5)
         on conflict (share_id) do update set
           opened_count = ${SUMMARY}.opened_count + excluded.opened_count,
           download_count = ${SUMMARY}.download_count + excluded.download_count,
           delivered_on = coalesce(${SUMMARY}.delivered_on, excluded.delivered_on)`,
        [d.shareId, d.ownerId, opened, 1 - opened, opened ? d.at : null],
      );
      if (e.type === 'ShareOpened' && d.recipientEmail) {
        await tx.query(`insert into ${RECIPIENTS} (share_id, email, opened_at) values ($1, $2, $3) on conflict do nothing`, [
          d.shareId,
          d.recipientEmail,
          d.at,
        ]);
      }
    }
  },
});

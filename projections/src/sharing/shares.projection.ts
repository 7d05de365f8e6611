import type { ShareCounterEvent } from '@axel/domain/sharing/share-counter';
import type { ShareEvent } from '@axel/domain/sharing/sharing.events';
import { evolveShare, type ShareRecord, type ShareState } from '@axel/domain/sharing/sharing.state';
import { defineProjection } from '../runner/projection';

type Source = ShareEvent | ShareCounterEvent;

/** The read model keeps whether a share has a password, never its hash. */
const PASSWORD_SET = 'set';

const shareIdOf = (streamName: string) => streamName.slice('share-'.length);

/**
 * Shares of their owners, one row per live share (a deleted share's row goes, its personal data
 * with it), folded by the domain's own `evolveShare`; and every counted share (`share_counts`),
 * which the plan counters read, deleted shares included, until the owner's purge forgets it.
 */
export const sharesProjection = defineProjection<'shares' | 'share_counts', Source>({
  name: 'shares',
  handles: [
    'ShareCreated',
    'ShareEdited',
    'ShareRevoked',
    'ShareDeleted',
    'ShareRecipientsResent',
    'ShareRecipientBlocked',
    'ShareRecipientUnblocked',
    'ShareCounted',
    'ShareForgotten',
  ],
  tables: {
    shares: (t) => `create table "${t}" (
      id text primary key,
      link_id text not null unique,
      owner_id text not null,
      kind text not null,
      status text not null,
      title text not null,
      expires_at timestamptz,
      created_at timestamptz not null,
      modified_at timestamptz not null,
      total_size bigint not null,
      recipient_emails text[] not null default '{}',
      record jsonb not null
    );
    create index on "${t}" (owner_id, created_at desc, id desc);
    create index on "${t}" using gin (recipient_emails);`,
    share_counts: (t) => `create table "${t}" (
      share_id text primary key,
      user_id text not null,
      counted_at timestamptz not null
    );
    create index on "${t}" (user_id, counted_at);`,
  },
  async apply(tx, events, t) {
    const S = `"${t.shares}"`;
    const C = `"${t.share_counts}"`;
    for (const e of events) {
      if (e.type === 'ShareForgotten') {
        // a purged owner's shares go one by one (the purge forgets each share it finds in share_counts)
        const shareId = shareIdOf(e.streamName);
        await tx.query(`delete from ${S} where id = $1`, [shareId]);
        await tx.query(`delete from ${C} where share_id = $1`, [shareId]);
        continue;
      }
      if (e.type === 'ShareCounted') {
        await tx.query(`insert into ${C} (share_id, user_id, counted_at) values ($1, $2, $3) on conflict (share_id) do nothing`, [
          e.data.shareId,
          e.data.userId,
          e.data.countedAt,
        ]);
        continue;
      }
      const id = shareIdOf(e.streamName);
      const { rows } = await tx.query<{ record: ShareRecord }>(`select record from ${S} where id = $1`, [id]);
      const before: ShareState = rows[0]?.record ?? { status: 'none' };
      if (before.status === 'none' && e.type !== 'ShareCreated') continue;
      const after = evolveShare(before, e);
      if (after.status === 'none') continue;
      if (after.status === 'deleted') {
        await tx.query(`delete from ${S} where id = $1`, [id]);
        continue;
      }
      const record: ShareRecord = { ...after, passwordHash: after.passwordHash === null ? null : PASSWORD_SET };
      await tx.query(
        `insert into ${S} (id, link_id, owner_id, kind, status, title, expires_at, created_at, modified_at, total_size, recipient_emails, record)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (id) do update set kind = excluded.kind, status = excluded.status, title = excluded.title, expires_at = excluded.expires_at,
           modified_at = excluded.modified_at, total_size = excluded.total_size, recipient_emails = excluded.recipient_emails, record = excluded.record`,
        [
          id,
          record.linkId,
          record.ownerId,
          record.kind,
          record.status,
          record.title,
          record.expiresAt,
          record.createdAt,
          record.modifiedAt,
          record.totalSize,
          record.recipients.map((r) => r.email),
          JSON.stringify(record),
        ],
      );
    }
  },
});

import type { UserEvent } from '@axel/domain/accounts/accounts.events';
import { ERASED } from '@axel/domain/shared/events';
import type { NotificationEvent } from '@axel/domain/notifications/notifications';
import type { ShareAccessEvent } from '@axel/domain/sharing/share-access';
import type { SecureFetchEvent } from '@axel/domain/secure-fetch/secure-fetch.events';
import type { ShareEvent } from '@axel/domain/sharing/sharing.events';
import type { NoticeKind, NoticeParams } from '@axel/domain/notifications/notification-texts';
import { describeUserAgent } from '@axel/domain/notifications/user-agent';
import { defineProjection } from '../runner/projection';

type Source = UserEvent | NotificationEvent | ShareAccessEvent | SecureFetchEvent | ShareEvent;

/**
 * Security notices a user should see: each comes from one account event (its id is the event's).
 * A row keeps the notice's kind and parameters, never words: they are rendered when read, in the
 * reader's language (`renderNotice`). A sign-in keeps the browser and system it came from, by name.
 */
const NOTICES: Partial<Record<Source['type'], { kind: NoticeKind; params?: (e: Source) => NoticeParams }>> = {
  SignInSucceeded: {
    kind: 'sign_in',
    params: (e) => {
      const device = describeUserAgent(e.type === 'SignInSucceeded' ? e.data.userAgent : null);
      return { browser: device.browser, system: device.system };
    },
  },
  PasswordChanged: { kind: 'password_changed' },
  EmailChanged: { kind: 'email_changed', params: (e) => ({ email: e.type === 'EmailChanged' ? e.data.newEmail : null }) },
  TwoFactorEnabled: { kind: 'two_factor_enabled' },
  TwoFactorDisabled: { kind: 'two_factor_disabled' },
  UserLocked: { kind: 'account_locked' },
};

export const notificationsProjection = defineProjection<'notifications', Source>({
  name: 'notifications',
  handles: [
    ...(Object.keys(NOTICES) as Source['type'][]),
    'NotificationsSeen',
    'NotificationsDeleted',
    'AccountPurged',
    'ShareOpened',
    'ShareDeleted',
    'SecureFetchSubmitted',
    'ShareExpiryReminded',
  ],
  tables: {
    notifications: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      type text not null,
      params jsonb not null default '{}',
      seen boolean not null default false,
      deleted boolean not null default false,
      created_at timestamptz not null
    );
    create index on "${t}" (user_id, created_at desc, id desc) where not deleted;`,
  },
  async apply(tx, events, t) {
    const T = `"${t.notifications}"`;
    for (const e of events) {
      if (e.type === 'NotificationsSeen' || e.type === 'NotificationsDeleted') {
        const userId = e.streamName.slice('notifications-'.length);
        const column = e.type === 'NotificationsSeen' ? 'seen' : 'deleted';
        await tx.query(`update ${T} set ${column} = true where user_id = $1 and id = any($2)`, [userId, e.data.ids]);
        continue;
      }
      if (e.type === 'AccountPurged') {
        await tx.query(`delete from ${T} where user_id = $1`, [e.streamName.slice('user-'.length)]);
        continue;
      }
      if (e.type === 'ShareOpened') {
        // the owner hears of each recipient's first open of a private share, never of public opens
        if (e.data.kind !== 'private' || !e.data.firstOpen) continue;
        // an address forgotten since (the share deleted, its owner purged) is not kept: "the recipient"
        const email = e.data.recipientEmail === ERASED ? null : e.data.recipientEmail;
        await tx.query(`insert into ${T} (id, user_id, type, params, created_at) values ($1, $2, 'share_opened', $3, $4) on conflict (id) do nothing`, [
          e.id,
          e.data.ownerId,
          JSON.stringify({ email, shareId: e.data.shareId }),
          e.recordedAt,
        ]);
        continue;
      }
      if (e.type === 'ShareDeleted') {
        // a deleted share's recipients are forgotten: its notices keep that it was opened, not by whom
        await tx.query(`update ${T} set params = params - 'email' where type = 'share_opened' and params->>'shareId' = $1`, [
          e.streamName.slice('share-'.length),
        ]);
        continue;
      }
      if (e.type === 'ShareExpiryReminded') {
        // the owner hears 7, 3 and 1 days before a share expires (the share's process decides when)
        await tx.query(`insert into ${T} (id, user_id, type, params, created_at) values ($1, $2, 'share_expiring', $3, $4) on conflict (id) do nothing`, [
          e.id,
          e.data.ownerId,
          JSON.stringify({ days: e.data.daysLeft }),
          e.recordedAt,
        ]);
        continue;
      }
      if (e.type === 'SecureFetchSubmitted') {
        // the link's owner hears that files arrived (they are collected unless paid within 2 hours)
        await tx.query(
          `insert into ${T} (id, user_id, type, params, created_at) values ($1, $2, 'secure_fetch_files_arrived', $3, $4) on conflict (id) do nothing`,
          [e.id, e.data.ownerId, JSON.stringify({ count: e.data.itemIds.length }), e.recordedAt],
        );
        continue;
      }
      const notice = NOTICES[e.type];
      if (!notice) continue;
      await tx.query(`insert into ${T} (id, user_id, type, params, created_at) values ($1, $2, $3, $4, $5) on conflict (id) do nothing`, [
        e.id,
        e.streamName.slice('user-'.length),
        notice.kind,
        JSON.stringify(notice.params?.(e) ?? {}),
        e.recordedAt,
      ]);
    }
  },
});

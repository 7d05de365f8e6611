import type { UserEvent } from '@axel/domain/accounts/accounts.events';
import type { NotificationEvent } from '@axel/domain/notifications/notifications';
import { defineProjection } from '../runner/projection';

type Source = UserEvent | NotificationEvent;

/** Security notices a user should see: each comes from one account event (its id is the event's). */
const NOTICES: Partial<Record<Source['type'], { type: string; title: string; body: (e: Source) => string }>> = {
  SignInSucceeded: {
    type: 'sign_in',
    title: 'New sign-in',
    body: (e) => `A new sign-in to your account${e.type === 'SignInSucceeded' && e.data.userAgent ? ` from ${e.data.userAgent.slice(0, 120)}` : ''}.`,
  },
  PasswordChanged: { type: 'password_changed', title: 'Password changed', body: () => 'The password of your account was changed.' },
  EmailChanged: {
    type: 'email_changed',
    title: 'E-mail changed',
    body: (e) => `Your sign-in e-mail is now ${e.type === 'EmailChanged' ? e.data.newEmail : ''}.`,
  },
  TwoFactorEnabled: { type: 'two_factor_enabled', title: 'Two-factor authentication on', body: () => 'Two-factor authentication was turned on.' },
  TwoFactorDisabled: { type: 'two_factor_disabled', title: 'Two-factor authentication off', body: () => 'Two-factor authentication was turned off.' },
  UserLocked: { type: 'account_locked', title: 'Sign-in locked', body: () => 'Too many failed sign-ins: sign-in was locked for a while.' },
};

export const notificationsProjection = defineProjection<'notifications', Source>({
  name: 'notifications',
  handles: [...(Object.keys(NOTICES) as Source['type'][]), 'NotificationsSeen', 'NotificationsDeleted', 'AccountPurged'],
  tables: {
    notifications: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      type text not null,
      title text not null,
      body text not null,
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
      const notice = NOTICES[e.type];
      if (!notice) continue;
      await tx.query(
        `insert into ${T} (id, user_id, type, title, body, created_at) values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing`,
        [e.id, e.streamName.slice('user-'.length), notice.type, notice.title, notice.body(e), e.recordedAt],
      );
    }
  },
});

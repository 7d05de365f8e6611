import type { UserEvent } from '@axel/domain/accounts/accounts.events';
import { defineProjection } from '../runner/projection';

/**
 * The users read model: what the session check, the user info call and the staff console read.
 * Every column derives from events (times from the events themselves), so a rebuild reproduces it
 * byte for byte.
 */
export const usersProjection = defineProjection<'users', UserEvent>({
  name: 'users',
  handles: [
    'UserRegistered',
    'EmailConfirmed',
    'SignInSucceeded',
    'UserLocked',
    'PasswordChanged',
    'EmailChanged',
    'ProfileUpdated',
    'AccountSettingsChanged',
    'AvatarChanged',
    'TermsAccepted',
    'TwoFactorEnabled',
    'TwoFactorDisabled',
    'UserSuspended',
    'UserUnsuspended',
    'UserBlocked',
    'UserUnblocked',
    'RoleChanged',
    'AccountDeleted',
    'AccountPurged',
  ],
  tables: {
    users: (t) => `create table "${t}" (
      id text primary key,
      email text,
      email_verified boolean not null,
      username text,
      role text not null,
      status text not null,
      status_before_suspension text,
      locale text not null,
      terms_accepted boolean not null,
      session_timeout int not null,
      two_factor_enabled boolean not null default false,
      two_factor_method text,
      auth_methods jsonb not null,
      forbidden_actions jsonb not null default '[]',
      profile jsonb not null default '{}',
      avatar_id text,
      avatar_mime text,
      registration_app text,
      registration_user_agent text,
      registration_ip text,
      created_by_staff_id text,
      first_login_at timestamptz,
      last_login_at timestamptz,
      locked_until timestamptz,
      blocked boolean not null default false,
      blocked_until timestamptz,
      suspension_reason text,
      created_at timestamptz not null,
      modified_at timestamptz not null,
      status_updated_at timestamptz not null,
      deleted_at timestamptz,
      deleter_id text,
      deleted_by text,
      purged_at timestamptz,
      last_position bigint not null
    );
    create index on "${t}" (lower(email));
    create index on "${t}" (created_at desc);
    create index on "${t}" (deleted_at desc) where deleted_at is not null;`,
  },
  async apply(tx, events, t) {
    const T = `"${t.users}"`;
    for (const e of events) {
      const id = e.streamName.slice('user-'.length);
      const at = e.recordedAt;
      const set = async (assignments: string, params: unknown[] = []) => {
        await tx.query(
          `update ${T} set ${assignments}, modified_at = $2, last_position = $3 where id = $1`,
          [id, at, e.position, ...params],
        );
      };
      switch (e.type) {
        case 'UserRegistered': {
          const d = e.data;
          await tx.query(
            `insert into ${T} (id, email, email_verified, role, status, locale, terms_accepted, session_timeout, auth_methods,
               registration_app, registration_user_agent, registration_ip, created_by_staff_id, created_at, modified_at,
               status_updated_at, last_position)
             values ($1, $2, $3, $4, $5, $6, $7, 1800, $8, $9, $10, $11, $12, $13, $13, $13, $14)
             on conflict (id) do nothing`,
            [
              id,
              d.email,
              d.emailVerified,
              d.role,
              d.emailVerified ? 'active' : 'inactive',
              d.locale,
              d.termsAccepted,
              JSON.stringify(d.authMethods),
              d.registrationApp,
              d.userAgent,
              d.ip,
              d.createdByStaffId,
              d.registeredAt,
              e.position,
            ],
          );
          break;
        }
        case 'EmailConfirmed':
          await set(`email_verified = true, status = case when status = 'inactive' then 'active' else status end, status_updated_at = $2`);
          break;
        case 'SignInSucceeded':
          await set(`last_login_at = $4, first_login_at = coalesce(first_login_at, $4), locked_until = null`, [e.data.at]);
          break;
        case 'UserLocked':
          await set(`locked_until = $4`, [e.data.until]);
          break;
        case 'PasswordChanged':
          await set(`auth_methods = case when auth_methods ? 'password' then auth_methods else auth_methods || '["password"]' end`);
          break;
        case 'EmailChanged':
          await set(`email = $4`, [e.data.newEmail]);
          break;
        case 'ProfileUpdated':
          await set(`profile = profile || $4::jsonb`, [JSON.stringify(e.data.changes)]);
          break;
        case 'AccountSettingsChanged':
          await set(
            `username = case when $4::boolean then $5 else username end,
             session_timeout = coalesce($6, session_timeout), locale = coalesce($7, locale)`,
            [e.data.username !== undefined, e.data.username ?? null, e.data.sessionTimeout ?? null, e.data.locale ?? null],
          );
          break;
        case 'AvatarChanged':
          await set(`avatar_id = $4, avatar_mime = $5`, [e.data.avatarId, e.data.mime]);
          break;
        case 'TermsAccepted':
          await set(`terms_accepted = true`);
          break;
        case 'TwoFactorEnabled':
          await set(`two_factor_enabled = true, two_factor_method = $4`, [e.data.method]);
          break;
        case 'TwoFactorDisabled':
          await set(`two_factor_enabled = false, two_factor_method = null`);
          break;
        case 'UserSuspended':
          await set(`status_before_suspension = status, status = 'suspended', suspension_reason = $4, status_updated_at = $2`, [
            e.data.reason,
          ]);
          break;
        case 'UserUnsuspended':
          await set(`status = coalesce(status_before_suspension, 'active'), status_before_suspension = null, suspension_reason = null, status_updated_at = $2`);
          break;
        case 'UserBlocked':
          await set(`blocked = true, blocked_until = $4`, [e.data.until]);
          break;
        case 'UserUnblocked':
          await set(`blocked = false, blocked_until = null`);
          break;
        case 'RoleChanged':
          await set(`role = $4`, [e.data.to]);
          break;
        case 'AccountDeleted':
          await set(`deleted_at = $4, deleter_id = $5, deleted_by = $6, status_updated_at = $2`, [
            e.data.at,
            e.data.deleterId,
            e.data.by,
          ]);
          break;
        case 'AccountPurged':
          await set(
            `purged_at = $4, email = null, username = null, profile = '{}', avatar_id = null, avatar_mime = null,
             registration_user_agent = null, registration_ip = null`,
            [e.data.at],
          );
          break;
        default:
          break;
      }
    }
  },
});

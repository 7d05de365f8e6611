import type { UserEvent } from '@axel/domain/accounts/accounts.events';
import type { ProjectedEvent } from '../runner/projection';
import { defineRowProjection } from '../runner/row-projection';

/**
 * A row of the users read model (column names as in the table). Timestamps are Dates when read
 * from the database and ISO strings when produced by `evolveUsersRow`.
 */
export interface UsersRow<D = Date | string> {
  id: string;
  email: string | null;
  email_verified: boolean;
  username: string | null;
  role: string;
  status: string;
  status_before_suspension: string | null;
  locale: string;
  terms_accepted: boolean;
  session_timeout: number;
  two_factor_enabled: boolean;
  two_factor_method: string | null;
  auth_methods: string[];
  forbidden_actions: string[];
  profile: Record<string, string | null>;
  avatar_id: string | null;
  avatar_mime: string | null;
  registration_app: string | null;
  registration_user_agent: string | null;
  registration_ip: string | null;
  created_by_staff_id: string | null;
  first_login_at: D | null;
  last_login_at: D | null;
  locked_until: D | null;
  blocked: boolean;
  blocked_until: D | null;
  suspension_reason: string | null;
  created_at: D;
  modified_at: D;
  status_updated_at: D;
  deleted_at: D | null;
  deleter_id: string | null;
  deleted_by: string | null;
  purged_at: D | null;
  last_position: number;
}

/** The next row for one event: pure, so a rebuild reproduces the table exactly. */
export const evolveUsersRow = (row: UsersRow | undefined, e: ProjectedEvent<UserEvent>): UsersRow | undefined => {
  const at = e.recordedAt.toISOString();
  if (e.type === 'UserRegistered') {
    if (row) return row;
    const d = e.data;
    return {
      id: e.streamName.slice('user-'.length),
      email: d.email,
      email_verified: d.emailVerified,
      username: null,
      role: d.role,
      status: d.emailVerified ? 'active' : 'inactive',
      status_before_suspension: null,
      locale: d.locale,
      terms_accepted: d.termsAccepted,
      session_timeout: 1800,
      two_factor_enabled: false,
      two_factor_method: null,
      auth_methods: [...d.authMethods],
      forbidden_actions: [],
      profile: {},
      avatar_id: null,
      avatar_mime: null,
      registration_app: d.registrationApp,
      registration_user_agent: d.userAgent,
      registration_ip: d.ip,
      created_by_staff_id: d.createdByStaffId,
      first_login_at: null,
      last_login_at: null,
      locked_until: null,
      blocked: false,
      blocked_until: null,
      suspension_reason: null,
      created_at: d.registeredAt,
      modified_at: d.registeredAt,
      status_updated_at: d.registeredAt,
      deleted_at: null,
      deleter_id: null,
      deleted_by: null,
      purged_at: null,
      last_position: e.position,
    };
  }
  if (!row) return row;
  const next = (changes: Partial<UsersRow>): UsersRow => ({ ...row, ...changes, modified_at: at, last_position: e.position });
  switch (e.type) {
    case 'EmailConfirmed':
      return next({ email_verified: true, status: row.status === 'inactive' ? 'active' : row.status, status_updated_at: at });
    case 'SignInSucceeded':
      return next({ last_login_at: e.data.at, first_login_at: row.first_login_at ?? e.data.at, locked_until: null });
    case 'UserLocked':
      // a lock of one trusted browser is not a lock of the account
      return e.data.deviceId ? row : next({ locked_until: e.data.until });
    case 'UserUnlocked':
      return next({ locked_until: null });
    case 'PasswordChanged':
      return next({ auth_methods: row.auth_methods.includes('password') ? row.auth_methods : [...row.auth_methods, 'password'] });
    case 'EmailChanged':
      return next({ email: e.data.newEmail });
    case 'ProfileUpdated':
      return next({ profile: { ...row.profile, ...e.data.changes } });
    case 'AccountSettingsChanged':
      return next({
        username: e.data.username !== undefined ? e.data.username : row.username,
        session_timeout: e.data.sessionTimeout ?? row.session_timeout,
        locale: e.data.locale ?? row.locale,
      });
    case 'AvatarChanged':
      return next({ avatar_id: e.data.avatarId, avatar_mime: e.data.mime });
    case 'TermsAccepted':
      return next({ terms_accepted: true });
    case 'TwoFactorEnabled':
      return next({ two_factor_enabled: true, two_factor_method: e.data.method });
    case 'TwoFactorDisabled':
      return next({ two_factor_enabled: false, two_factor_method: null });
    case 'UserSuspended':
      return next({ status_before_suspension: row.status, status: 'suspended', suspension_reason: e.data.reason, status_updated_at: at });
    case 'UserUnsuspended':
      return next({
        status: row.status_before_suspension ?? 'active',
        status_before_suspension: null,
        suspension_reason: null,
        status_updated_at: at,
      });
    case 'UserBlocked':
      return next({ blocked: true, blocked_until: e.data.until });
    case 'UserUnblocked':
      return next({ blocked: false, blocked_until: null });
    case 'RoleChanged':
      return next({ role: e.data.to });
    case 'AccountDeleted':
      return next({ deleted_at: e.data.at, deleter_id: e.data.deleterId, deleted_by: e.data.by, status_updated_at: at });
    case 'AccountPurged':
      return next({
        purged_at: e.data.at,
        email: null,
        username: null,
        profile: {},
        avatar_id: null,
        avatar_mime: null,
        registration_user_agent: null,
        registration_ip: null,
      });
    default:
      return row;
  }
};

/**
 * The users read model: what the session check, the user info call and the staff console read.
 * Every column derives from events (times from the events themselves), so a rebuild reproduces it
 * byte for byte.
 */
export const usersProjection = defineRowProjection<UsersRow, UserEvent>({
  name: 'users',
  table: 'users',
  handles: [
    'UserRegistered',
    'EmailConfirmed',
    'SignInSucceeded',
    'UserLocked',
    'UserUnlocked',
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
  keyOf: (e) => e.streamName.slice('user-'.length),
  evolve: evolveUsersRow,
  ddl: (t) => `create table "${t}" (
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
});

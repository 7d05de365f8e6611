import type { Locale, Profile, Role, SessionTimeout, TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';

export type { Locale, Profile, Role, SessionTimeout, TwoFactorMethod };

export type UserStatus = 'abandoned' | 'unpaid' | 'active' | 'suspended' | 'inactive';

/** The signed-in user as `GET /users/:id/` and `GET /sessions/this/` describe it (docs/api-accounts.md). */
export interface UserInfo {
  id: string;
  email: string;
  username: string | null;
  role: Role;
  status: UserStatus;
  locale: Locale;
  termsAccepted: boolean;
  emailVerified: boolean;
  sessionTimeout: SessionTimeout;
  twoFactor: { enabled: boolean; method: TwoFactorMethod | null };
  forbiddenActions: string[];
  permissions: string[];
  features: string[];
  avatarUrl: string | null;
  createdAt: string;
  isTeamOwner: boolean;
  isCoAdmin: boolean;
  isProfessional: boolean;
  isBusOwner: boolean;
  isGroupOwner: boolean;
  isAppVisible: boolean;
  isUnpaidUser: boolean;
  isGraceUnpaidUser: boolean;
  /** Features of the plan (esign, e2ee, two-factor, backup...). */
  planFeatures?: string[];
}

export interface SessionInfo {
  user: UserInfo;
  session: { id: string; timeout: number; lastSeenAt: string };
}

export type SignInAnswer = { user: UserInfo } | { twoFactorRequired: true; method: TwoFactorMethod };

export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

export interface AppNotification {
  id: string;
  type: string;
  title: string;
  body: string;
  seen: boolean;
  createdAt: string;
}

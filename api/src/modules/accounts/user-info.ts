import { z } from 'zod';
import { FEATURES_BY_ROLE } from './auth';
import type { UserRow } from './users.queries';
import type { Role } from '@axel/domain';

export const UserInfoSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: z.string(),
  status: z.string(),
  locale: z.string(),
  termsAccepted: z.boolean(),
  emailVerified: z.boolean(),
  sessionTimeout: z.number(),
  twoFactor: z.object({ enabled: z.boolean(), method: z.string().nullable() }),
  forbiddenActions: z.array(z.string()),
  permissions: z.array(z.string()),
  features: z.array(z.string()),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  isTeamOwner: z.boolean(),
  isCoAdmin: z.boolean(),
  isProfessional: z.boolean(),
  isBusOwner: z.boolean(),
  isGroupOwner: z.boolean(),
  isAppVisible: z.boolean(),
  isUnpaidUser: z.boolean(),
  isGraceUnpaidUser: z.boolean(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** What the web app knows of the signed-in user (plan flags stay false until plans exist). */
export const toUserInfo = (u: UserRow): UserInfo => ({
  id: u.id,
  email: u.email ?? '',
  username: u.username,
  role: u.role,
  status: u.status,
  locale: u.locale,
  termsAccepted: u.terms_accepted,
  emailVerified: u.email_verified,
  sessionTimeout: u.session_timeout,
  twoFactor: { enabled: u.two_factor_enabled, method: u.two_factor_method },
  forbiddenActions: u.forbidden_actions,
  permissions: [],
  features: [...(FEATURES_BY_ROLE[u.role as Role] ?? [])],
  avatarUrl: u.avatar_id ? `/api/users/${u.id}/avatar?v=${u.avatar_id}` : null,
  createdAt: u.created_at.toISOString(),
  isTeamOwner: false,
  isCoAdmin: false,
  isProfessional: false,
  isBusOwner: false,
  isGroupOwner: false,
  isAppVisible: false,
  isUnpaidUser: u.status === 'unpaid',
  isGraceUnpaidUser: false,
});

export const toProfile = (u: UserRow) => {
  const p = u.profile ?? {};
  const f = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : null);
  return {
    firstName: f('firstName'),
    lastName: f('lastName'),
    website: f('website'),
    twitter: f('twitter'),
    discord: f('discord'),
    telegram: f('telegram'),
    contactEmail: f('contactEmail'),
    phone: f('phone'),
    city: f('city'),
    addressLine1: f('addressLine1'),
    addressLine2: f('addressLine2'),
    state: f('state'),
    zip: f('zip'),
    company: f('company'),
    businessPhone: f('businessPhone'),
    vatNumber: f('vatNumber'),
  };
};

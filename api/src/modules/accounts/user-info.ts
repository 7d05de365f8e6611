import { z } from 'zod';
import type { Entitlements, Role } from '@axel/domain';
import type { AppContext } from '../../context';
import { FEATURES_BY_ROLE } from '../../http/auth';
import type { UserRow } from '@axel/projections/users/users.queries';
import { hasDbsAccess } from '@axel/projections/users/users.queries';
import { e2eeKeysOf } from '@axel/projections/e2ee/e2ee.queries';

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
  isBasic: z.boolean(),
  isStarter: z.boolean(),
  isEnterprise: z.boolean(),
  isGroupPremium: z.boolean(),
  isBusinessPremium: z.boolean(),
  isTeamMember: z.boolean(),
  hasSecureFetch: z.boolean(),
  hasE2EEAccess: z.boolean(),
  /** The end-to-end private key, armored and locked by the passphrase only the browser knows. */
  e2eePrivateKey: z.string().nullable(),
  e2eePublicKey: z.string().nullable(),
  e2eePassphraseHint: z.string().nullable(),
  /** New uploads are end-to-end encrypted unless the user says otherwise. */
  encryptionDefault: z.boolean(),
  /** The end-to-end switch of the settings. */
  e2eeEnabledGlobalDefault: z.boolean(),
  /** Staff gave the account the database-as-a-service offer (`ddbaas`). */
  hasDbsAccess: z.boolean(),
  /** The plan's paid features (esign, e2ee, two-factor, backup, ...). */
  planFeatures: z.array(z.string()),
  userPlanInfo: z.object({ productId: z.number(), productName: z.string(), startDate: z.string().nullable(), assets: z.record(z.string(), z.unknown()) }),
  freeSeats: z.number(),
  /** A custom plan staff set up for the user, waiting for payment at this link. */
  pendingProduct: z.object({ productId: z.number(), checkoutLink: z.string() }).nullable(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** The plan a user has now, as billing decides it: what the user info shows of it. */
export interface UserPlan {
  readonly entitlements: Entitlements;
  /** Assets as the specification names them (quota with sizeTotal, maxCountPerPeriod per counted feature). */
  readonly assets: Record<string, unknown>;
  /** A custom plan staff set up for the user, waiting for payment. */
  readonly pendingProduct: { readonly productId: number; readonly checkoutLink: string } | null;
}

/** Where the accounts find a user's plan: billing answers it (`app.ts` wires the one to the other). */
export type PlanOf = (ctx: AppContext, userId: string) => Promise<UserPlan>;

export const avatarUrlOf = (u: UserRow): string | null => (u.avatar_id ? `/api/users/${u.id}/avatar?v=${u.avatar_id}` : null);

/** What the web app knows of the signed-in user; plan flags, permissions and assets come from billing. */
/** What the user info shows of the end-to-end key (the e2ee read model's row; null before one was set). */
export interface UserKeys {
  readonly private_key: string | null;
  readonly public_key: string | null;
  readonly hint: string | null;
  readonly encryption_default: boolean;
  readonly global_default: boolean;
}

export const toUserInfo = (
  u: UserRow,
  { entitlements: plan, assets, pendingProduct }: UserPlan,
  { keys = null, dbsAccess = false }: { keys?: UserKeys | null; dbsAccess?: boolean } = {},
): UserInfo => ({
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
  permissions: [...plan.permissions],
  features: [...(FEATURES_BY_ROLE[u.role as Role] ?? [])],
  avatarUrl: avatarUrlOf(u),
  createdAt: u.created_at.toISOString(),
  isTeamOwner: plan.flags.isTeamOwner,
  isCoAdmin: false,
  isProfessional: plan.flags.isProfessional,
  isBusOwner: plan.flags.isBusOwner,
  isGroupOwner: plan.flags.isGroupOwner,
  isAppVisible: plan.flags.isAppVisible,
  isUnpaidUser: u.status === 'unpaid' || plan.flags.isUnpaidUser,
  isGraceUnpaidUser: plan.flags.isGraceUnpaidUser,
  isBasic: plan.flags.isBasic,
  isStarter: plan.flags.isStarter,
  isEnterprise: plan.flags.isEnterprise,
  isGroupPremium: plan.flags.isGroupPremium,
  isBusinessPremium: plan.flags.isBusinessPremium,
  isTeamMember: plan.flags.isTeamMember,
  hasSecureFetch: plan.flags.hasSecureFetch,
  hasE2EEAccess: plan.flags.hasE2EEAccess,
  e2eePrivateKey: keys?.private_key ?? null,
  e2eePublicKey: keys?.public_key ?? null,
  e2eePassphraseHint: keys?.hint ?? null,
  encryptionDefault: keys?.encryption_default ?? false,
  e2eeEnabledGlobalDefault: keys?.global_default ?? false,
  hasDbsAccess: dbsAccess,
  planFeatures: [...plan.features],
  userPlanInfo: { productId: plan.plan.productId, productName: plan.plan.name, startDate: plan.plan.startDate, assets },
  freeSeats: plan.freeSeats,
  pendingProduct,
  // grace ran out: the account is unpaid until it pays (the guard sends it to the plans page)
  ...(plan.flags.isUnpaidUser && u.status === 'active' ? { status: 'unpaid' } : {}),
});

/** The user info with the plan in effect now, and a custom plan waiting for payment. */
export const userInfo = async (ctx: AppContext, planOf: PlanOf, u: UserRow): Promise<UserInfo> => {
  const [plan, keys, dbsAccess] = await Promise.all([planOf(ctx, u.id), e2eeKeysOf(ctx.pool, u.id), hasDbsAccess(ctx.pool, u.id)]);
  return toUserInfo(u, plan, { keys, dbsAccess });
};

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

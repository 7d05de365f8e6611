import {
  BASIC,
  BASIC_AFTER_DOWNGRADE_BYTES,
  DELAY_CHECKED_KINDS,
  PAYMENT_DELAY_TOLERANCE_MS,
  productById,
  TEAM_PRODUCT_ID,
  type Cycle,
  type Permission,
  type PlanFeature,
  type PlanKind,
  type Product,
} from './billing.catalogue';
import { isRunning, subscriptionStatusAt, type SubscriptionRecord } from './billing.state';

export interface PlanFlags {
  readonly isBasic: boolean;
  readonly isStarter: boolean;
  readonly isPremium: boolean;
  readonly isProfessional: boolean;
  readonly isTeamOwner: boolean;
  readonly isBusOwner: boolean;
  readonly isGroupOwner: boolean;
  readonly isPartnerBusiness: boolean;
  readonly isEnterprise: boolean;
  readonly isGroupPremium: boolean;
  readonly isBusinessPremium: boolean;
  readonly isTeamMember: boolean;
  readonly hasSecureFetch: boolean;
  readonly hasE2EEAccess: boolean;
  readonly isAppVisible: boolean;
  /** In a grace period: the plan still runs, a payment is due. */
  readonly isGraceUnpaidUser: boolean;
  /** Grace ran out: the account must pay before it is used again. */
  readonly isUnpaidUser: boolean;
}

export interface GraceInfo {
  readonly subscriptionId: string;
  readonly productId: number;
  readonly graceStartDate: string;
  readonly gracePeriodEndDate: string;
  readonly scheduledStorageDeletionDate: string;
  readonly scheduledAccDeletionDate: string;
  readonly ended: boolean;
}

export interface Entitlements {
  readonly plan: {
    readonly productId: number;
    readonly name: string;
    readonly kind: PlanKind;
    readonly type: Product['type'];
    readonly weight: number;
    readonly cycle: Cycle | null;
    readonly subscriptionId: string | null;
    readonly startDate: string | null;
  };
  readonly flags: PlanFlags;
  readonly permissions: readonly Permission[];
  readonly features: readonly PlanFeature[];
  readonly quotaBytes: number;
  readonly extraGroupQuotaBytes: number;
  /** Per month; null: unlimited. */
  readonly secureShareMaxCountPerPeriod: number | null;
  readonly secureFetchMaxCountPerPeriod: number | null;
  readonly freeSeats: number;
  readonly extraMemberSeats: number;
  /** Basic because a paid plan ended (2 GB instead of 10). */
  readonly downgraded: boolean;
  readonly grace: GraceInfo | null;
}

export interface EntitlementInput {
  readonly subscriptions: readonly SubscriptionRecord[];
  readonly now: Date;
  /** Co-admins of a team have one free seat, as team owners do. */
  readonly isCoAdmin?: boolean;
}

const planProduct = (sub: SubscriptionRecord): Product | undefined => {
  const p = productById(sub.productId);
  return p?.plan ? p : undefined;
};

/** Of the plans running now, the heaviest (the newest on a tie): a user always has exactly one, Basic at least. */
export const effectivePlanSubscription = (subscriptions: readonly SubscriptionRecord[], now: Date): SubscriptionRecord | null => {
  let best: { sub: SubscriptionRecord; weight: number } | null = null;
  for (const sub of subscriptions) {
    const product = planProduct(sub);
    if (!product || !isRunning(sub, now)) continue;
    if (!best || product.weight > best.weight || (product.weight === best.weight && sub.startDate > best.sub.startDate)) {
      best = { sub, weight: product.weight };
    }
  }
  return best?.sub ?? null;
};

const ONE_SEAT_KINDS: readonly PlanKind[] = ['enterprise', 'team', 'business'];

/** What a user may do, from what they bought: pure, so every slice reads the same answer. */
export const entitlementsOf = ({ subscriptions, now, isCoAdmin = false }: EntitlementInput): Entitlements => {
  const current = effectivePlanSubscription(subscriptions, now);
  const product = current ? planProduct(current)! : BASIC;
  const grant = product.plan!;
  const kind = grant.kind;
  const downgraded = kind === 'basic' && subscriptions.some((s) => (planProduct(s)?.price ?? 0) > 0 && subscriptionStatusAt(s, now) === 'ended');
  const running = subscriptions.filter((s) => isRunning(s, now));
  const promoQuota = running.reduce((sum, s) => sum + (s.promo?.extraQuotaBytes ?? 0), 0);
  const extraMemberSeats = running.reduce((sum, s) => {
    const p = productById(s.productId);
    return p?.extraMembers && p.extraMembers.forKind === kind ? sum + p.extraMembers.seats * s.quantity : sum;
  }, 0);
  const permissions = [...grant.permissions];
  const grace = graceOf(running, now);
  const flags: PlanFlags = {
    isBasic: kind === 'basic',
    isStarter: kind === 'starter',
    isPremium: kind === 'premium',
    isProfessional: kind === 'professional' || permissions.includes('shared-storage-access'),
    isTeamOwner: (kind === 'team' && product.type !== 'child-plan') || product.id === TEAM_PRODUCT_ID || permissions.includes('team-storage-access'),
    isBusOwner: kind === 'business' && product.type !== 'child-plan',
    isGroupOwner: kind === 'group',
    isPartnerBusiness: kind === 'partner-business',
    isEnterprise: kind === 'enterprise',
    isGroupPremium: product.type === 'child-plan' && product.parentId === 300,
    isBusinessPremium: product.type === 'child-plan' && product.parentId === 400,
    isTeamMember: product.type === 'child-plan' && product.parentId === TEAM_PRODUCT_ID,
    hasSecureFetch: permissions.includes('secure-fetch'),
    hasE2EEAccess: grant.features.includes('e2ee'),
    isAppVisible: permissions.includes('dropbox'),
    isGraceUnpaidUser: grace !== null && !grace.ended,
    isUnpaidUser: grace !== null && grace.ended,
  };
  return {
    plan: {
      productId: product.id,
      name: product.name,
      kind,
      type: product.type,
      weight: product.weight,
      cycle: current?.cycle ?? null,
      subscriptionId: current?.id ?? null,
      startDate: current?.startDate ?? null,
    },
    flags,
    permissions,
    features: [...grant.features],
    quotaBytes: (downgraded ? BASIC_AFTER_DOWNGRADE_BYTES : grant.quotaBytes) + promoQuota,
    extraGroupQuotaBytes: grant.extraGroupQuotaBytes,
    secureShareMaxCountPerPeriod: grant.sharesPerMonth,
    secureFetchMaxCountPerPeriod: grant.fetchesPerMonth,
    freeSeats: (ONE_SEAT_KINDS.includes(kind) || isCoAdmin ? 1 : 5) + extraMemberSeats,
    extraMemberSeats,
    downgraded,
    grace,
  };
};

const graceOf = (running: readonly SubscriptionRecord[], now: Date): GraceInfo | null => {
  const sub = running.find((s) => s.grace);
  if (!sub?.grace) return null;
  const g = sub.grace;
  return {
    subscriptionId: sub.id,
    productId: sub.productId,
    graceStartDate: g.startedAt,
    gracePeriodEndDate: g.graceEndDate,
    scheduledStorageDeletionDate: g.storageDeletionDate,
    scheduledAccDeletionDate: g.accountDeletionDate,
    ended: g.deactivatedAt !== null || Date.parse(g.graceEndDate) <= now.getTime(),
  };
};

/** Starter, Professional, Team and Enterprise may not run over a day past their next payment date. */
export const paymentDelayed = (subscriptions: readonly SubscriptionRecord[], now: Date): boolean =>
  subscriptions.some((s) => {
    const kind = planProduct(s)?.plan?.kind;
    return (
      kind !== undefined &&
      DELAY_CHECKED_KINDS.includes(kind) &&
      s.provider !== 'staff' &&
      // a failed renewal is in the grace flow, which is where the user pays
      s.grace === null &&
      subscriptionStatusAt(s, now) === 'active' &&
      s.nextPaymentDate !== null &&
      now.getTime() - Date.parse(s.nextPaymentDate) > PAYMENT_DELAY_TOLERANCE_MS
    );
  });

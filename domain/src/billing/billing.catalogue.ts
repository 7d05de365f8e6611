/*
 * The product catalogue of §9: every plan, its prices in minor units (US cents), what it grants and
 * where it sits among the others. Figures the specification leaves open (most plan prices, ids,
 * weights) are chosen here once and documented in docs/api-billing.md.
 */

/** Plans are sold in decimal units, as storage counts them: 10 GB is 10,000,000,000 bytes. */
export const GB = 1_000_000_000;

export const PRODUCT_TYPES = ['plan', 'free-plan', 'child-plan', 'custom-plan', 'extra-members'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const CYCLES = ['month', 'year'] as const;
export type Cycle = (typeof CYCLES)[number];

/** The plan families: a monthly and a yearly product share one. */
export const PLAN_KINDS = ['basic', 'starter', 'premium', 'professional', 'group', 'business', 'partner-business', 'team', 'enterprise'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export const PERMISSIONS = [
  'dropbox',
  'secure-fetch',
  'unlimited-shared-file-size',
  'team-storage-access',
  'shared-storage-access',
  'storage-encryption',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Paid features beyond the permissions: what a plan page lists and what other slices check. */
export const PLAN_FEATURES = ['esign', 'e2ee', 'two-factor', 'backup', 'branding', 'custom-url', 'api'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export interface PlanGrant {
  readonly kind: PlanKind;
  readonly quotaBytes: number;
  /** Storage shared by a group's members, beside the owner's own quota. */
  readonly extraGroupQuotaBytes: number;
  /** Accounts included with the plan (the owner's members); 0 for single-user plans. */
  readonly includedAccounts: number;
  /** Per month; null: unlimited. */
  readonly sharesPerMonth: number | null;
  readonly fetchesPerMonth: number | null;
  readonly permissions: readonly Permission[];
  readonly features: readonly PlanFeature[];
}

export interface Product {
  readonly id: number;
  readonly name: string;
  readonly type: ProductType;
  /** Minor units (US cents) per cycle; 0 for free plans. */
  readonly price: number;
  readonly currency: 'usd';
  /** How long one payment lasts; null for free plans. */
  readonly validity: Cycle | null;
  readonly status: 'active' | 'inactive';
  readonly weight: number;
  readonly parentId: number | null;
  /** Plans only. */
  readonly plan: PlanGrant | null;
  /** Extra-member products only: how many seats one unit adds, and to which plan family. */
  readonly extraMembers: { readonly seats: number; readonly forKind: PlanKind } | null;
}

/** Yearly prices are ten months' worth: 2/12 = 16.6% off twelve monthly payments. */
export const yearlyPrice = (monthly: number): number => monthly * 10;
export const YEARLY_SAVING_PERCENT = 16.6;

const paid: readonly Permission[] = ['dropbox', 'secure-fetch'];
const pro: readonly Permission[] = ['dropbox', 'secure-fetch', 'unlimited-shared-file-size', 'shared-storage-access', 'storage-encryption'];
const proFeatures: readonly PlanFeature[] = ['esign', 'e2ee', 'two-factor', 'backup'];

const grants: Record<PlanKind, PlanGrant> = {
  basic: {
    kind: 'basic',
    quotaBytes: 10 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 0,
    sharesPerMonth: 5,
    fetchesPerMonth: 5,
    permissions: ['secure-fetch'],
    features: [],
  },
  starter: {
    kind: 'starter',
    quotaBytes: 100 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 0,
    sharesPerMonth: 20,
    fetchesPerMonth: 5,
    permissions: paid,
    features: [],
  },
  premium: {
    kind: 'premium',
    quotaBytes: 10 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 0,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: paid,
    features: ['two-factor'],
  },
  professional: {
    kind: 'professional',
    quotaBytes: 500 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 0,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: pro,
    features: proFeatures,
  },
  group: {
    kind: 'group',
    quotaBytes: 100 * GB,
    extraGroupQuotaBytes: 100 * GB,
    includedAccounts: 5,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: pro,
    features: proFeatures,
  },
  business: {
    kind: 'business',
    quotaBytes: 250 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 25,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: pro,
    features: proFeatures,
  },
  'partner-business': {
    kind: 'partner-business',
    quotaBytes: 150 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 5,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: pro,
    features: proFeatures,
  },
  team: {
    kind: 'team',
    quotaBytes: 1024 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 10,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: [...pro, 'team-storage-access'],
    features: proFeatures,
  },
  enterprise: {
    kind: 'enterprise',
    quotaBytes: 1024 * GB,
    extraGroupQuotaBytes: 0,
    includedAccounts: 10,
    sharesPerMonth: null,
    fetchesPerMonth: null,
    permissions: [...pro, 'team-storage-access'],
    features: [...proFeatures, 'branding', 'custom-url', 'api'],
  },
};

const plan = (id: number, name: string, kind: PlanKind, monthly: number, weight: number, type: ProductType = 'plan'): Product[] => [
  { id, name, type, price: monthly, currency: 'usd', validity: 'month', status: 'active', weight, parentId: null, plan: grants[kind], extraMembers: null },
  {
    id: id + 1,
    name,
    type,
    price: yearlyPrice(monthly),
    currency: 'usd',
    validity: 'year',
    status: 'active',
    weight,
    parentId: null,
    plan: grants[kind],
    extraMembers: null,
  },
];

const extra = (id: number, name: string, forKind: PlanKind, parentId: number, monthly: number, yearly: number): Product[] => [
  {
    id,
    name,
    type: 'extra-members',
    price: monthly,
    currency: 'usd',
    validity: 'month',
    status: 'active',
    weight: 0,
    parentId,
    plan: null,
    extraMembers: { seats: 1, forKind },
  },
  {
    id: id + 1,
    name,
    type: 'extra-members',
    price: yearly,
    currency: 'usd',
    validity: 'year',
    status: 'active',
    weight: 0,
    parentId,
    plan: null,
    extraMembers: { seats: 1, forKind },
  },
];

export const BASIC_PRODUCT_ID = 1;
/** The team plan's monthly id: the specification names it (a team owner "also when plan id is 500"). */
export const TEAM_PRODUCT_ID = 500;
export const ENTERPRISE_MONTHLY_ID = 1001;
export const ENTERPRISE_YEARLY_ID = 1002;

export const PRODUCTS: readonly Product[] = [
  {
    id: BASIC_PRODUCT_ID,
    name: 'Basic',
    type: 'free-plan',
    price: 0,
    currency: 'usd',
    validity: null,
    status: 'active',
    weight: 0,
    parentId: null,
    plan: grants.basic,
    extraMembers: null,
  },
  ...plan(100, 'Starter', 'starter', 999, 10),
  ...plan(150, 'Premium', 'premium', 999, 15),
  ...plan(200, 'Professional', 'professional', 1999, 20),
  ...plan(300, 'Group', 'group', 2999, 30),
  ...plan(400, 'Business', 'business', 4999, 40),
  ...plan(450, 'Partner Business', 'partner-business', 2999, 35, 'custom-plan'),
  ...plan(TEAM_PRODUCT_ID, 'Team', 'team', 3999, 50),
  // the Premium accounts a group owner hands out, and the member plans of business and team
  {
    id: 310,
    name: 'Group Premium',
    type: 'child-plan',
    price: 0,
    currency: 'usd',
    validity: null,
    status: 'active',
    weight: 15,
    parentId: 300,
    plan: grants.premium,
    extraMembers: null,
  },
  {
    id: 410,
    name: 'Business Member',
    type: 'child-plan',
    price: 0,
    currency: 'usd',
    validity: null,
    status: 'active',
    weight: 15,
    parentId: 400,
    plan: grants.premium,
    extraMembers: null,
  },
  {
    id: 510,
    name: 'Team Member',
    type: 'child-plan',
    price: 0,
    currency: 'usd',
    validity: null,
    status: 'active',
    weight: 15,
    parentId: 500,
    plan: grants.premium,
    extraMembers: null,
  },
  ...extra(520, 'Extra Team account', 'team', 500, 200, 2000),
  ...extra(320, 'Extra Group account', 'group', 300, 499, 4999),
  ...extra(420, 'Extra Business account', 'business', 400, 199, 1999),
  // the synthetic Enterprise plan: priced per contract, shown with these figures
  {
    id: ENTERPRISE_MONTHLY_ID,
    name: 'Enterprise',
    type: 'custom-plan',
    price: 40000,
    currency: 'usd',
    validity: 'month',
    status: 'active',
    weight: 300,
    parentId: null,
    plan: grants.enterprise,
    extraMembers: null,
  },
  {
    id: ENTERPRISE_YEARLY_ID,
    name: 'Enterprise',
    type: 'custom-plan',
    price: 400000,
    currency: 'usd',
    validity: 'year',
    status: 'active',
    weight: 300,
    parentId: null,
    plan: grants.enterprise,
    extraMembers: null,
  },
];

const byId = new Map(PRODUCTS.map((p) => [p.id, p]));
export const productById = (id: number): Product | undefined => byId.get(id);
export const BASIC: Product = byId.get(BASIC_PRODUCT_ID)!;

/** Basic after a paid plan ended: the specification's 2 GB. */
export const BASIC_AFTER_DOWNGRADE_BYTES = 2 * GB;

/** Products a user can buy on the web: plans and extra members (child plans come with a team). */
export const isPurchasable = (p: Product): boolean =>
  p.status === 'active' && (p.type === 'plan' || p.type === 'custom-plan' || p.type === 'extra-members') && p.price > 0;

/** The plans whose payments may not run late (a next payment date over a day past: PAYMENT_DELAY). */
export const DELAY_CHECKED_KINDS: readonly PlanKind[] = ['starter', 'professional', 'team', 'enterprise'];
export const PAYMENT_DELAY_TOLERANCE_MS = 24 * 60 * 60 * 1000;

import { STAFF_ROLES } from '@axel/domain/accounts/accounts.validation';

/** Where a signed-in user without a staff role is sent: the web app's home. */
export const WELCOME_PATH = '/welcome';

export type AccessDecision = 'enter' | 'welcome';

/** Only admin, super_admin and financial_admin enter the console; every other role goes to /welcome. */
export const decideAccess = (role: unknown): AccessDecision =>
  typeof role === 'string' && (STAFF_ROLES as readonly string[]).includes(role) ? 'enter' : 'welcome';

/** The staff features of the specification; the server decides which role holds which. */
export const Features = {
  ddbaas: 'ddbaas',
  cloudLockerUnbind: 'admin:cloudlocker:unbind',
  userDelete: 'admin:user:delete',
  userPasswordReset: 'admin:user:password:reset',
  promoCodeAdd: 'admin:promocode:add',
  promoCodeDelete: 'admin:promocode:delete',
} as const;
export type Feature = (typeof Features)[keyof typeof Features];

/** What `authProvider.getPermissions` resolves to (from `GET /api/admin/me`). */
export interface StaffPermissions {
  readonly role: string;
  readonly features: readonly string[];
}

const isStaffPermissions = (value: unknown): value is StaffPermissions =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StaffPermissions).role === 'string' &&
  Array.isArray((value as StaffPermissions).features);

/**
 * Whether the signed-in staff member may use a feature-gated action. Unknown or still-loading
 * permissions answer false, so a gated button never flashes into view before the answer arrives.
 */
export const hasFeature = (permissions: unknown, feature: Feature): boolean =>
  isStaffPermissions(permissions) && decideAccess(permissions.role) === 'enter' && permissions.features.includes(feature);

/** Only a super_admin may create staff accounts (the server enforces it; the form only offers what will pass). */
export const creatableRoles = (permissions: unknown): readonly string[] =>
  isStaffPermissions(permissions) && permissions.role === 'super_admin'
    ? ['user', 'admin', 'super_admin', 'financial_admin']
    : ['user'];

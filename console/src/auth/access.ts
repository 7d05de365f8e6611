import { ROLES, STAFF_ROLES } from '@axel/domain/accounts/accounts.validation';
import { staffMay, type StaffDecision } from '@axel/domain/accounts/staff-rank';

/** Where a signed-in user without a staff role is sent: the web app's home. */
export const WELCOME_PATH = '/welcome';

export type AccessDecision = 'enter' | 'welcome';

/** Only staff (admin, super_admin, financial_admin, auditor) enter the console; every other role goes to /welcome. */
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
  treasuryFill: 'admin:treasury:fill',
  ipfsUnpin: 'admin:ipfs:unpin',
} as const;
export type Feature = (typeof Features)[keyof typeof Features];

/** What `authProvider.getPermissions` resolves to (from `GET /api/admin/me`). */
export interface StaffPermissions {
  readonly role: string;
  readonly features: readonly string[];
}

const isStaffPermissions = (value: unknown): value is StaffPermissions =>
  typeof value === 'object' && value !== null && typeof (value as StaffPermissions).role === 'string' && Array.isArray((value as StaffPermissions).features);

/**
 * Whether the signed-in staff member may use a feature-gated action. Unknown or still-loading
 * permissions answer false, so a gated button never flashes into view before the answer arrives.
 */
export const hasFeature = (permissions: unknown, feature: Feature): boolean =>
  isStaffPermissions(permissions) && decideAccess(permissions.role) === 'enter' && permissions.features.includes(feature);

/**
 * The roles the signed-in staff member may give a new account: the staff hierarchy's own rule,
 * so the form offers exactly what the server will accept (nothing while permissions load).
 */
export const creatableRoles = (permissions: unknown): readonly string[] =>
  isStaffPermissions(permissions) ? ROLES.filter((role) => staffMay({ id: '', role: permissions.role }, { kind: 'create', role }).allowed) : [];

/**
 * Whether the signed-in staff member may act on this account, and if not why (the server refuses
 * the same way). `undefined` while who is signed in is still loading.
 */
export const decisionOn = (
  permissions: unknown,
  staffId: unknown,
  target: { readonly id: unknown; readonly role?: unknown } | undefined,
): StaffDecision | undefined => {
  if (!isStaffPermissions(permissions) || staffId === undefined || staffId === null || !target) return undefined;
  return staffMay({ id: String(staffId), role: permissions.role }, { kind: 'manage', target: { id: String(target.id), role: String(target.role ?? '') } });
};

/** Roles a super_admin may give this account (none for anyone else, or for an account they cannot manage). */
export const assignableRoles = (
  permissions: unknown,
  staffId: unknown,
  target: { readonly id: unknown; readonly role?: unknown } | undefined,
): readonly string[] => {
  if (!isStaffPermissions(permissions) || staffId === undefined || staffId === null || !target) return [];
  const subject = { id: String(target.id), role: String(target.role ?? '') };
  return ROLES.filter(
    (role) => role !== subject.role && staffMay({ id: String(staffId), role: permissions.role }, { kind: 'changeRole', target: subject, role }).allowed,
  );
};

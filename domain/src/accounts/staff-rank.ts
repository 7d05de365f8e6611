import { ROLES, type Role } from './accounts.validation';

/**
 * Staff hierarchy. A partial order, not a ladder: admin runs accounts and devices, financial_admin
 * runs money (promo codes, database offers); neither job is senior to the other, so they share a
 * rank and have no power over each other. Otherwise one department could lock the other out, and
 * a stolen admin session could silence the people who would notice it. Only a super_admin stands
 * above both, and nobody outranks a super_admin: a super_admin is never managed through staff
 * routes (a compromised one cannot lock out the others).
 */
export const STAFF_RANK: Readonly<Record<Role, number>> = {
  super_admin: 2,
  admin: 1,
  financial_admin: 1,
  // managed by a super_admin only, like the other staff; manages nobody (see staffMay)
  auditor: 1,
  user: 0,
};

/** A role this product does not know ranks above everyone: an unknown target is never managed. */
const UNKNOWN_ROLE_RANK = Number.POSITIVE_INFINITY;

export const rankOf = (role: string): number => ((ROLES as readonly string[]).includes(role) ? STAFF_RANK[role as Role] : UNKNOWN_ROLE_RANK);

export interface StaffSubject {
  readonly id: string;
  readonly role: string;
}

/**
 * What a staff member asks to do.
 * - `manage`: act on an existing account (suspend, unsuspend, block, unblock, password reset, delete).
 * - `create`: create an account with the given role.
 * - `changeRole`: give an existing account another role.
 */
export type StaffAct =
  | { readonly kind: 'manage'; readonly target: StaffSubject }
  | { readonly kind: 'create'; readonly role: string }
  | { readonly kind: 'changeRole'; readonly target: StaffSubject; readonly role: string };

export const STAFF_REFUSALS = ['not_staff', 'read_only', 'own_account', 'rank', 'create_users', 'create_staff', 'change_role'] as const;
export type StaffRefusal = (typeof STAFF_REFUSALS)[number];

export type StaffDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: StaffRefusal };

/** Why a staff act is refused, in words the API sends and the console shows. */
export const STAFF_REFUSAL_MESSAGES: Readonly<Record<StaffRefusal, string>> = {
  not_staff: 'Only staff can do this',
  read_only: 'An auditor can read but not change anything',
  own_account: 'Staff cannot act on their own account here',
  rank: 'Staff act only on accounts of lower rank',
  create_users: 'Your role cannot create accounts',
  create_staff: 'Only a super_admin can create staff accounts',
  change_role: 'Only a super_admin can change roles',
};

const ALLOWED: StaffDecision = { allowed: true };
const refuse = (reason: StaffRefusal): StaffDecision => ({ allowed: false, reason });

const isStaffRole = (role: string): boolean => rankOf(role) > 0 && Number.isFinite(rankOf(role));

const manage = (actor: StaffSubject, target: StaffSubject): StaffDecision => {
  if (actor.id === target.id) return refuse('own_account');
  if (rankOf(target.role) >= rankOf(actor.role)) return refuse('rank');
  return ALLOWED;
};

/**
 * The one rule every staff write goes through: staff act only on accounts of strictly lower rank,
 * never on their own account; only a super_admin creates staff accounts or changes roles; a
 * financial_admin creates no accounts at all; an auditor acts on nobody.
 */
export const staffMay = (actor: StaffSubject, act: StaffAct): StaffDecision => {
  if (!isStaffRole(actor.role)) return refuse('not_staff');
  // an auditor's word must be independent of what it audits: it never writes
  if (actor.role === 'auditor') return refuse('read_only');
  switch (act.kind) {
    case 'manage':
      return manage(actor, act.target);
    case 'create':
      if (actor.role === 'super_admin') return (ROLES as readonly string[]).includes(act.role) ? ALLOWED : refuse('create_staff');
      if (actor.role === 'financial_admin') return refuse('create_users');
      return act.role === 'user' ? ALLOWED : refuse('create_staff');
    case 'changeRole': {
      if (actor.role !== 'super_admin') return refuse('change_role');
      if (!(ROLES as readonly string[]).includes(act.role)) return refuse('change_role');
      return manage(actor, act.target);
    }
    default: {
      const unknown: never = act;
      return unknown;
    }
  }
};

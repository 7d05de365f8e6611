import type { ProgramAction } from './autopayApi';

export const PROGRAM_STATUSES = ['draft', 'submitted', 'approved', 'paying', 'paid', 'partially_failed', 'rejected', 'locked', 'cancelled'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];

/** Actions on the program's page besides editing: what each status offers (the server's state chart). */
const BY_STATUS: Record<ProgramStatus, readonly ProgramAction[]> = {
  draft: ['submit', 'lock', 'cancel'],
  submitted: ['approve', 'reject', 'lock', 'cancel'],
  approved: [],
  paying: [],
  paid: [],
  partially_failed: ['retry'],
  rejected: ['submit', 'cancel'],
  locked: ['unlock'],
  cancelled: [],
};

/** Statuses in which the program and its payees can still be changed (edit, edit payees, import). */
export const EDITABLE: ReadonlySet<string> = new Set(['draft', 'rejected']);

export type Refusal = 'four_eyes' | 'feature';

export interface ActionOffer {
  readonly action: ProgramAction;
  readonly allowed: boolean;
  readonly reason?: Refusal;
}

export interface ProgramLike {
  readonly [key: string]: unknown;
  readonly status?: unknown;
  readonly submittedBy?: unknown;
  /** The actions the server offers this staff member, when it says. */
  readonly actions?: unknown;
}

export interface StaffLike {
  readonly id?: unknown;
  readonly features?: readonly string[];
}

/** The feature a gated action needs, when the server gates auto-pay actions by feature at all. */
export const featureFor = (action: ProgramAction) => `admin:autopay:${action}`;

/**
 * The buttons a program shows. The server's own `actions` list wins when it sends one; otherwise
 * the status decides. Approving and rejecting are refused to the staff member who submitted (four
 * eyes), and when the staff member's features include any auto-pay feature, an action needs its own.
 */
export const actionOffers = (program: ProgramLike, staff: StaffLike): ActionOffer[] => {
  const status = String(program.status ?? '') as ProgramStatus;
  const fromServer = Array.isArray(program.actions) ? (program.actions.filter((a) => typeof a === 'string') as ProgramAction[]) : null;
  const offered = fromServer ?? BY_STATUS[status] ?? [];
  const gated = (staff.features ?? []).some((f) => f.startsWith('admin:autopay:'));
  return offered.map((action) => {
    if ((action === 'approve' || action === 'reject') && staff.id !== undefined && String(program.submittedBy ?? '') === String(staff.id)) {
      return { action, allowed: false, reason: 'four_eyes' as const };
    }
    if (gated && !(staff.features ?? []).includes(featureFor(action))) return { action, allowed: false, reason: 'feature' as const };
    return { action, allowed: true };
  });
};

export const canEdit = (program: ProgramLike) => EDITABLE.has(String(program.status ?? ''));

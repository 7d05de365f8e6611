import { ACTIONS_BY_STATUS, PROGRAM_STATUSES, type ProgramStatus } from '@axel/domain/autopay/autopay.decide';
import { payeeFromInput, type PayeeColumn } from '@axel/domain/autopay/payees';
import { PROGRAM_ACTIONS, type ProgramAction } from './autopayApi';

export { PROGRAM_STATUSES, type ProgramStatus };

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
  /** Staff who changed it since it was first submitted. */
  readonly changedBy?: unknown;
  /** The actions the server offers, when it says. */
  readonly actions?: unknown;
}

export interface StaffLike {
  readonly id?: unknown;
  readonly features?: readonly string[];
}

const allowedIn = (status: unknown) => ACTIONS_BY_STATUS[String(status ?? '') as ProgramStatus] ?? [];

/** The feature a staff member needs for an action (`admin:autopay:edit` covers editing, payees and import). */
export const featureFor = (action: ProgramAction | 'edit') => `admin:autopay:${action}`;

/** Whether the staff member's features gate auto-pay at all (an older server sends none). */
const gated = (staff: StaffLike) => (staff.features ?? []).some((f) => f.startsWith('admin:autopay:'));
const holds = (staff: StaffLike, action: ProgramAction | 'edit') => !gated(staff) || (staff.features ?? []).includes(featureFor(action));

/**
 * The action buttons a program shows: the server's own `actions` list when it sends one, otherwise
 * the domain's state chart. Approve and reject are refused to the staff member who submitted (four
 * eyes), and an action needs its `admin:autopay:*` feature.
 */
export const actionOffers = (program: ProgramLike, staff: StaffLike): ActionOffer[] => {
  const fromServer = Array.isArray(program.actions) ? program.actions.filter((a): a is string => typeof a === 'string') : null;
  const offered = (fromServer ?? allowedIn(program.status)).filter((a): a is ProgramAction => (PROGRAM_ACTIONS as readonly string[]).includes(a));
  return offered.map((action) => {
    if ((action === 'approve' || action === 'reject') && staff.id !== undefined && String(program.submittedBy ?? '') === String(staff.id)) {
      return { action, allowed: false, reason: 'four_eyes' as const };
    }
    // nor does anyone who changed it since it was submitted approve it
    if (action === 'approve' && staff.id !== undefined && Array.isArray(program.changedBy) && program.changedBy.map(String).includes(String(staff.id))) {
      return { action, allowed: false, reason: 'four_eyes' as const };
    }
    if (!holds(staff, action)) return { action, allowed: false, reason: 'feature' as const };
    return { action, allowed: true };
  });
};

/** Name, description, payees and import change only where the state chart allows `edit`, and for staff holding the edit feature. */
export const canEdit = (program: ProgramLike, staff: StaffLike = {}) => allowedIn(program.status).includes('edit') && holds(staff, 'edit');

/** A payee typed in the console, checked by the same rules as a CSV row: `{ field: message }`. */
export const payeeErrors = (values: Partial<Record<PayeeColumn, string | null>>): Record<string, string> =>
  Object.fromEntries(payeeFromInput(values, 1, 'new').errors.map((e) => [e.field, messageKey(e.message)]));

/** A row error's message key (`validation.email`, `wallet.invalidAmount`, `autopay.columnMissing`) in the console's texts. */
export const messageKey = (message: string) => `resources.auto-pay.messages.${message.replace(/\./g, '_')}`;

import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { AutoPayErrors } from './autopay.errors';
import type { AutoPayEvent, PayeeFields } from './autopay.events';

/*
 * The auto-pay program. The specification names the actions and leaves the statuses open; this is
 * the state chart (docs/wallet.md, "Auto-pay programs", draws it):
 *
 *   draft --submit--> submitted --approve (another staff member)--> approved --(payout)--> paying
 *   submitted --edit, payees or import--> draft (the submission is withdrawn)
 *   paying --> paid | partially_failed;  partially_failed --retry--> approved (pays the failed only)
 *   submitted --reject | approval expires--> rejected --edit/submit--> ...
 *   draft | submitted | rejected --lock--> locked --unlock--> draft
 *   draft | submitted | rejected | partially_failed --cancel--> cancelled
 */
export const PROGRAM_STATUSES = ['draft', 'submitted', 'approved', 'paying', 'paid', 'partially_failed', 'rejected', 'locked', 'cancelled'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];
export const PROGRAM_ACTIONS = ['edit', 'editPayees', 'import', 'export', 'submit', 'approve', 'reject', 'lock', 'unlock', 'cancel', 'retry'] as const;
export type ProgramAction = (typeof PROGRAM_ACTIONS)[number];

/** Which status allows which action. */
export const ACTIONS_BY_STATUS: Record<ProgramStatus, readonly ProgramAction[]> = {
  draft: ['edit', 'editPayees', 'import', 'export', 'submit', 'lock', 'cancel'],
  submitted: ['edit', 'editPayees', 'import', 'export', 'approve', 'reject', 'lock', 'cancel'],
  approved: ['export'],
  paying: ['export'],
  paid: ['export'],
  partially_failed: ['export', 'retry', 'cancel'],
  rejected: ['edit', 'editPayees', 'import', 'export', 'submit', 'lock', 'cancel'],
  locked: ['export', 'unlock'],
  cancelled: ['export'],
};

export type PayoutStatus = 'pending' | 'paid' | 'failed';
export interface Payee extends PayeeFields {
  readonly payout: PayoutStatus;
  readonly txid: string | null;
  readonly paidTo: string | null;
  readonly createdAddress: boolean;
  readonly failure: string | null;
}

export interface ProgramState {
  readonly status: ProgramStatus | 'none';
  readonly programId: string;
  readonly name: string;
  readonly description: string;
  readonly createdBy: string;
  readonly payees: Readonly<Record<string, Payee>>;
  readonly order: readonly string[];
  readonly imported: boolean;
  readonly submission: number;
  readonly submittedBy: string | null;
  /**
   * Staff who changed the program (name, description, payees) since it was first submitted: none of
   * them may approve it, whoever submits it next.
   */
  readonly changedBy: readonly string[];
  readonly approvedBy: string | null;
  readonly attempt: number;
  readonly reminders: number;
}

export type AutoPayCommand =
  | Command<'CreateProgram', { programId: string; name: string; description: string; by: string }>
  | Command<'EditProgram', { name: string; description: string; by: string }>
  | Command<'AddPayee', { payee: PayeeFields; by: string }>
  | Command<'ChangePayee', { payee: PayeeFields; by: string }>
  | Command<'RemovePayee', { payeeId: string; by: string }>
  | Command<'ImportPayees', { payees: PayeeFields[]; replace: boolean; by: string }>
  | Command<'SubmitProgram', { by: string }>
  | Command<'ApproveProgram', { by: string }>
  | Command<'RejectProgram', { by: string }>
  | Command<'ExpireApproval', { submission: number }>
  | Command<'RemindApprovers', { submission: number }>
  | Command<'LockProgram', { by: string }>
  | Command<'UnlockProgram', { by: string }>
  | Command<'CancelProgram', { by: string }>
  | Command<'RetryPayout', { by: string }>
  | Command<'StartPayout', { submission: number }>
  | Command<'RecordPayeePaid', { payeeId: string; txid: string; address: string; createdAddress: boolean }>
  | Command<'RecordPayeeFailed', { payeeId: string; failure: string }>
  | Command<'FinishPayout', { submission: number }>;

export const initialProgramState = (): ProgramState => ({
  status: 'none',
  programId: '',
  name: '',
  description: '',
  createdBy: '',
  payees: {},
  order: [],
  imported: false,
  submission: 0,
  submittedBy: null,
  changedBy: [],
  approvedBy: null,
  attempt: 0,
  reminders: 0,
});

export const payeesOf = (state: ProgramState): Payee[] => state.order.map((id) => state.payees[id]!).filter(Boolean);
export const totalTokens = (state: ProgramState): number => payeesOf(state).reduce((s, p) => s + p.amount, 0);

const allow = (state: ProgramState, action: ProgramAction) => {
  if (state.status === 'none') throw new DomainError(AutoPayErrors.notFound);
  if (!ACTIONS_BY_STATUS[state.status].includes(action)) throw new DomainError(AutoPayErrors.notAllowed, { action, status: state.status });
};

/** A change to a submitted program withdraws its submission first: what was submitted is no longer what would be paid. */
const change = (state: ProgramState, by: string, event: AutoPayEvent): AutoPayEvent[] =>
  state.status === 'submitted' ? [{ type: 'AutoPayProgramReturnedToDraft', data: { submission: state.submission, by } }, event] : [event];

const decide = (command: AutoPayCommand, state: ProgramState): AutoPayEvent[] => {
  switch (command.type) {
    case 'CreateProgram': {
      const d = command.data;
      // a retried create of the same program id is the same program
      if (state.status !== 'none') return [];
      return [{ type: 'AutoPayProgramCreated', data: { programId: d.programId, name: d.name, description: d.description, createdBy: d.by } }];
    }
    case 'EditProgram':
      allow(state, 'edit');
      if (state.name === command.data.name && state.description === command.data.description) return [];
      return change(state, command.data.by, { type: 'AutoPayProgramEdited', data: command.data });
    case 'AddPayee':
      allow(state, 'editPayees');
      if (state.payees[command.data.payee.payeeId]) return [];
      return change(state, command.data.by, { type: 'AutoPayPayeeAdded', data: { ...command.data.payee, by: command.data.by } });
    case 'ChangePayee':
      allow(state, 'editPayees');
      if (!state.payees[command.data.payee.payeeId]) throw new DomainError(AutoPayErrors.payeeNotFound);
      return change(state, command.data.by, { type: 'AutoPayPayeeChanged', data: { ...command.data.payee, by: command.data.by } });
    case 'RemovePayee':
      allow(state, 'editPayees');
      if (!state.payees[command.data.payeeId]) throw new DomainError(AutoPayErrors.payeeNotFound);
      return change(state, command.data.by, { type: 'AutoPayPayeeRemoved', data: command.data });
    case 'ImportPayees':
      allow(state, 'import');
      return change(state, command.data.by, {
        type: 'AutoPayPayeesImported',
        data: { payees: command.data.payees, replaced: command.data.replace, by: command.data.by },
      });
    case 'SubmitProgram':
      allow(state, 'submit');
      if (state.order.length === 0) throw new DomainError(AutoPayErrors.noPayees);
      return [{ type: 'AutoPayProgramSubmitted', data: { submission: state.submission + 1, by: command.data.by } }];
    case 'ApproveProgram':
    case 'RejectProgram': {
      allow(state, command.type === 'ApproveProgram' ? 'approve' : 'reject');
      // four eyes: whoever submitted cannot also decide, and whoever changed it since its first
      // submission cannot approve what they changed
      if (state.submittedBy === command.data.by) throw new DomainError(AutoPayErrors.fourEyes, { reason: 'four_eyes' });
      if (command.type === 'ApproveProgram' && changersOf(state).includes(command.data.by)) {
        throw new DomainError(AutoPayErrors.fourEyesChanged, { reason: 'four_eyes', changed: true });
      }
      return command.type === 'ApproveProgram'
        ? [{ type: 'AutoPayProgramApproved', data: { submission: state.submission, by: command.data.by } }]
        : [{ type: 'AutoPayProgramRejected', data: { submission: state.submission, by: command.data.by, cause: 'staff' } }];
    }
    case 'ExpireApproval':
      if (state.status !== 'submitted' || state.submission !== command.data.submission) return [];
      return [{ type: 'AutoPayProgramRejected', data: { submission: state.submission, by: null, cause: 'expired' } }];
    case 'RemindApprovers':
      if (state.status !== 'submitted' || state.submission !== command.data.submission) return [];
      return [{ type: 'AutoPayApprovalReminded', data: { submission: state.submission, reminder: state.reminders + 1 } }];
    case 'LockProgram':
      allow(state, 'lock');
      return [{ type: 'AutoPayProgramLocked', data: { submission: state.submission, by: command.data.by } }];
    case 'UnlockProgram':
      allow(state, 'unlock');
      return [{ type: 'AutoPayProgramUnlocked', data: command.data }];
    case 'CancelProgram':
      allow(state, 'cancel');
      return [{ type: 'AutoPayProgramCancelled', data: { submission: state.submission, by: command.data.by } }];
    case 'RetryPayout':
      allow(state, 'retry');
      return [{ type: 'AutoPayRetryRequested', data: { submission: state.submission, attempt: state.attempt + 1, by: command.data.by } }];
    case 'StartPayout':
      // a redelivered start while paying is the same payout
      if (state.status !== 'approved' || state.submission !== command.data.submission) return [];
      return [{ type: 'AutoPayPayoutStarted', data: { submission: state.submission, attempt: state.attempt + 1 } }];
    case 'RecordPayeePaid': {
      const payee = state.payees[command.data.payeeId];
      if (!payee) throw new DomainError(AutoPayErrors.payeeNotFound);
      if (payee.payout === 'paid' || state.status !== 'paying') return [];
      return [{ type: 'AutoPayPayeePaid', data: command.data }];
    }
    case 'RecordPayeeFailed': {
      const payee = state.payees[command.data.payeeId];
      if (!payee) throw new DomainError(AutoPayErrors.payeeNotFound);
      if (payee.payout !== 'pending' || state.status !== 'paying') return [];
      return [{ type: 'AutoPayPayeePayoutFailed', data: command.data }];
    }
    case 'FinishPayout': {
      if (state.status !== 'paying' || state.submission !== command.data.submission) return [];
      const payees = payeesOf(state);
      const paid = payees.filter((p) => p.payout === 'paid').length;
      const failed = payees.length - paid;
      return [
        {
          type: 'AutoPayPayoutFinished',
          data: { submission: state.submission, attempt: state.attempt, paid, failed, status: failed === 0 ? 'paid' : 'partially_failed' },
        },
      ];
    }
    default:
      return assertNever(command);
  }
};

const freshPayee = ({ by: _by, ...fields }: PayeeFields & { by?: string | undefined }): Payee => ({
  ...fields,
  payout: 'pending',
  txid: null,
  paidTo: null,
  createdAddress: false,
  failure: null,
});

/** A state folded before changes were recorded has none. */
export const changersOf = (state: ProgramState): readonly string[] => state.changedBy ?? [];

/** Records who changed a program once it has been submitted. */
const changed = (state: ProgramState, by: string | undefined): ProgramState =>
  state.submission > 0 && by && !changersOf(state).includes(by) ? { ...state, changedBy: [...changersOf(state), by] } : state;

const evolveContent = (state: ProgramState, event: AutoPayEvent): ProgramState => {
  switch (event.type) {
    case 'AutoPayProgramEdited':
      return { ...state, name: event.data.name, description: event.data.description };
    case 'AutoPayPayeeAdded':
      return { ...state, payees: { ...state.payees, [event.data.payeeId]: freshPayee(event.data) }, order: [...state.order, event.data.payeeId] };
    case 'AutoPayPayeeChanged':
      return { ...state, payees: { ...state.payees, [event.data.payeeId]: freshPayee(event.data) } };
    case 'AutoPayPayeeRemoved': {
      const { [event.data.payeeId]: _gone, ...payees } = state.payees;
      return { ...state, payees, order: state.order.filter((id) => id !== event.data.payeeId) };
    }
    case 'AutoPayPayeesImported': {
      const base = event.data.replaced ? { payees: {}, order: [] as string[] } : { payees: state.payees, order: [...state.order] };
      const payees: Record<string, Payee> = { ...base.payees };
      const order = [...base.order];
      for (const p of event.data.payees) {
        if (!payees[p.payeeId]) order.push(p.payeeId);
        payees[p.payeeId] = freshPayee(p);
      }
      return { ...state, payees, order, imported: true };
    }
    default:
      return state;
  }
};

const evolve = (state: ProgramState, event: AutoPayEvent): ProgramState => {
  switch (event.type) {
    case 'AutoPayProgramCreated':
      return {
        ...initialProgramState(),
        status: 'draft',
        programId: event.data.programId,
        name: event.data.name,
        description: event.data.description,
        createdBy: event.data.createdBy,
      };
    case 'AutoPayProgramEdited':
    case 'AutoPayPayeeAdded':
    case 'AutoPayPayeeChanged':
    case 'AutoPayPayeeRemoved':
    case 'AutoPayPayeesImported':
      return changed(evolveContent(state, event), event.data.by);
    case 'AutoPayProgramReturnedToDraft':
      return changed({ ...state, status: 'draft' }, event.data.by);
    case 'AutoPayProgramSubmitted':
      return { ...state, status: 'submitted', submission: event.data.submission, submittedBy: event.data.by, approvedBy: null, reminders: 0 };
    case 'AutoPayProgramApproved':
      return { ...state, status: 'approved', approvedBy: event.data.by };
    case 'AutoPayProgramRejected':
      return { ...state, status: 'rejected' };
    case 'AutoPayApprovalReminded':
      return { ...state, reminders: event.data.reminder };
    case 'AutoPayProgramLocked':
      return { ...state, status: 'locked' };
    case 'AutoPayProgramUnlocked':
      return { ...state, status: 'draft' };
    case 'AutoPayProgramCancelled':
      return { ...state, status: 'cancelled' };
    case 'AutoPayRetryRequested': {
      // only the failed ones are paid again
      const payees: Record<string, Payee> = {};
      for (const [id, p] of Object.entries(state.payees)) payees[id] = p.payout === 'failed' ? { ...p, payout: 'pending', failure: null } : p;
      return { ...state, status: 'approved', payees };
    }
    case 'AutoPayPayoutStarted':
      return { ...state, status: 'paying', attempt: event.data.attempt };
    case 'AutoPayPayeePaid': {
      const p = state.payees[event.data.payeeId];
      if (!p) return state;
      return {
        ...state,
        payees: {
          ...state.payees,
          [p.payeeId]: { ...p, payout: 'paid', txid: event.data.txid, paidTo: event.data.address, createdAddress: event.data.createdAddress, failure: null },
        },
      };
    }
    case 'AutoPayPayeePayoutFailed': {
      const p = state.payees[event.data.payeeId];
      if (!p) return state;
      return { ...state, payees: { ...state.payees, [p.payeeId]: { ...p, payout: 'failed', failure: event.data.failure } } };
    }
    case 'AutoPayPayoutFinished':
      return { ...state, status: event.data.status };
    default:
      return state;
  }
};

export const autopayDecider: Decider<AutoPayCommand, AutoPayEvent, ProgramState> = { decide, evolve, initialState: initialProgramState };

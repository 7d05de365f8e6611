/*
 * Auto-pay approval: once a program is submitted, it waits for a second staff member's decision
 * (the decider enforces four eyes), reminds the approvers while it waits and lets the submission
 * expire after a set time. On approval it asks for the payout, and again on each retry. Pure
 * (bundled into Temporal workflow code): only type imports from the domain.
 */
import { defineProcess, type ProcessCommand, type ProcessDefinition } from '../model/process';

export const AUTOPAY_APPROVAL_PROCESS = 'autopay-approval';
const HOUR_MS = 60 * 60 * 1000;
export const AUTOPAY_REMINDER_MS = 24 * HOUR_MS;
export const AUTOPAY_EXPIRY_MS = 7 * 24 * HOUR_MS;
export const REMIND_TIMER = 'remind';
export const EXPIRE_TIMER = 'expire';
/** The auto-pay program's stream (`autopayStreamName`): `autopay-<programId>`. */
const STREAM_PREFIX = 'autopay-';

export interface AutoPayApprovalSettings {
  readonly reminderMs: number;
  readonly expiryMs: number;
}

export type AutoPayApprovalState =
  | { readonly phase: 'new' }
  | { readonly phase: 'waiting'; readonly programId: string; readonly submission: number; readonly expiresAt: string; readonly reminders: number }
  | { readonly phase: 'paying'; readonly programId: string; readonly submission: number; readonly payouts: number }
  | { readonly phase: 'partially_failed'; readonly programId: string; readonly submission: number; readonly payouts: number }
  | { readonly phase: 'finished'; readonly programId: string; readonly submission: number; readonly outcome: string };

const command = (programId: string, type: string, data: unknown): ProcessCommand => ({ aggregate: 'autopay', aggregateId: programId, type, data });

const submissionOf = (data: unknown): number | null => {
  const s = (data as { submission?: unknown } | null)?.submission;
  return typeof s === 'number' && Number.isInteger(s) && s > 0 ? s : null;
};

export const createAutoPayApprovalProcess = (
  settings: AutoPayApprovalSettings = { reminderMs: AUTOPAY_REMINDER_MS, expiryMs: AUTOPAY_EXPIRY_MS },
): ProcessDefinition<AutoPayApprovalState> =>
  defineProcess<AutoPayApprovalState>({
    type: AUTOPAY_APPROVAL_PROCESS,
    startsOn: ['AutoPayProgramSubmitted'],
    reactsTo: [
      'AutoPayProgramApproved',
      'AutoPayProgramRejected',
      'AutoPayProgramReturnedToDraft',
      'AutoPayProgramLocked',
      'AutoPayProgramCancelled',
      'AutoPayPayoutFinished',
      'AutoPayRetryRequested',
    ],
    // one process per submission: a program rejected and submitted again waits afresh
    correlate: (event) => {
      if (!event.streamName.startsWith(STREAM_PREFIX)) return null;
      const submission = submissionOf(event.data);
      return submission ? `${event.streamName.slice(STREAM_PREFIX.length)}.${submission}` : null;
    },
    initialState: () => ({ phase: 'new' }),
    react: (state, input, now) => {
      if (input.kind === 'signal') return { state };
      if (input.kind === 'timer') {
        if (state.phase !== 'waiting') return { state };
        if (input.name === REMIND_TIMER) {
          return {
            state: { ...state, reminders: state.reminders + 1 },
            // the deadline goes along, so the reminder mail can name it
            commands: [command(state.programId, 'RemindApprovers', { submission: state.submission, expiresAt: state.expiresAt })],
            timers: { set: [{ name: REMIND_TIMER, at: new Date(now.getTime() + settings.reminderMs) }] },
          };
        }
        if (input.name === EXPIRE_TIMER) {
          return {
            state: { phase: 'finished', programId: state.programId, submission: state.submission, outcome: 'expired' },
            commands: [command(state.programId, 'ExpireApproval', { submission: state.submission })],
            done: true,
          };
        }
        return { state };
      }
      const { event } = input;
      const programId = event.streamName.slice(STREAM_PREFIX.length);
      const submission = submissionOf(event.data);
      if (!submission) return { state };
      switch (event.type) {
        case 'AutoPayProgramSubmitted': {
          if (state.phase !== 'new') return { state };
          const expiresAt = new Date(now.getTime() + settings.expiryMs);
          return {
            state: { phase: 'waiting', programId, submission, expiresAt: expiresAt.toISOString(), reminders: 0 },
            timers: {
              set: [
                { name: REMIND_TIMER, at: new Date(now.getTime() + settings.reminderMs) },
                { name: EXPIRE_TIMER, at: expiresAt },
              ],
            },
          };
        }
        case 'AutoPayProgramApproved':
          if (state.phase !== 'waiting') return { state };
          return {
            state: { phase: 'paying', programId, submission, payouts: 1 },
            commands: [command(programId, 'PayOut', { submission })],
            timers: { cancel: [REMIND_TIMER, EXPIRE_TIMER] },
          };
        case 'AutoPayRetryRequested':
          if (state.phase !== 'partially_failed') return { state };
          return { state: { phase: 'paying', programId, submission, payouts: state.payouts + 1 }, commands: [command(programId, 'PayOut', { submission })] };
        case 'AutoPayPayoutFinished': {
          if (state.phase !== 'paying') return { state };
          const status = (event.data as { status?: unknown }).status;
          if (status === 'paid') return { state: { phase: 'finished', programId, submission, outcome: 'paid' }, done: true };
          return { state: { phase: 'partially_failed', programId, submission, payouts: state.payouts } };
        }
        case 'AutoPayProgramRejected':
        case 'AutoPayProgramReturnedToDraft':
        case 'AutoPayProgramLocked':
        case 'AutoPayProgramCancelled':
          if (state.phase === 'new' || state.phase === 'finished') return { state };
          return { state: { phase: 'finished', programId, submission, outcome: event.type }, done: true };
        default:
          return { state };
      }
    },
  });

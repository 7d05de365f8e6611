/*
 * The grace period after a failed renewal, per subscription: warn at the start and before each
 * deadline, deactivate the account at the grace end, mark its storage for deletion, then delete the
 * account; a successful payment at any point ends the process and the account is whole again.
 * Pure (bundled into Temporal workflow code): only type imports from the domain. The deadlines are
 * the ones the failed renewal fixed (`RenewalFailed`), so the grace items users see and the
 * timers here can never disagree.
 */
import type { RenewalFailed } from '@axel/domain/billing/billing.events';
import type { EventOf } from '@axel/domain/shared/events';
import { defineProcess, type ProcessCommand, type ProcessDefinition } from '../model/process';
import { requestMailCommand } from '../account-deletion/account-deletion.process';

export const GRACE_PERIOD_PROCESS = 'grace-period';
const DAY_MS = 24 * 60 * 60 * 1000;
const BILLING_STREAM_PREFIX = 'billing-';
/** Reminders go out this long before the grace end and before each deletion. */
export const GRACE_REMINDER_DAYS = 3;
export const DELETION_REMINDER_DAYS = 7;

export const TIMERS = {
  graceReminder: 'grace-reminder',
  graceEnd: 'grace-end',
  storageReminder: 'storage-reminder',
  storageDeletion: 'storage-deletion',
  accountReminder: 'account-reminder',
  accountDeletion: 'account-deletion',
} as const;

interface Deadlines {
  readonly userId: string;
  readonly subscriptionId: string;
  readonly graceEndDate: string;
  readonly storageDeletionDate: string;
  readonly accountDeletionDate: string;
}

export type GracePeriodState =
  | { readonly phase: 'new' }
  | ({ readonly phase: 'grace' | 'deactivated' | 'storage_deleted' } & Deadlines)
  | ({ readonly phase: 'paid' | 'closed' | 'account_deleted'; readonly at: string } & Deadlines);

type Failed = EventOf<typeof RenewalFailed>['data'];

const failedEvent = (data: unknown): Failed | null => {
  const d = data as Partial<Failed> | null;
  const dates = [d?.graceEndDate, d?.storageDeletionDate, d?.accountDeletionDate];
  return d && typeof d.subscriptionId === 'string' && dates.every((x) => typeof x === 'string' && !Number.isNaN(Date.parse(x))) ? (d as Failed) : null;
};

const billingCommand = (userId: string, type: string, subscriptionId: string): ProcessCommand => ({
  aggregate: 'billing',
  aggregateId: userId,
  type,
  data: { subscriptionId },
});

/** Deleted by the product for non-payment; the account-deletion process then purges it as any deletion. */
export const deleteUnpaidAccountCommand = (userId: string): ProcessCommand => ({
  aggregate: 'user',
  aggregateId: userId,
  type: 'DeleteAccount',
  data: { by: 'non_payment' },
});

const mail = (
  d: Deadlines,
  template: 'payment-failed' | 'payment-reminder' | 'account-deactivated' | 'storage-deleted' | 'payment-restored',
  date: string | null,
) => requestMailCommand(d.userId, { template, to: null, userId: d.userId, locale: null, params: date ? { date: date.slice(0, 10) } : {} });

const before = (iso: string, days: number) => new Date(Date.parse(iso) - days * DAY_MS);

export const createGracePeriodProcess = (): ProcessDefinition<GracePeriodState> =>
  defineProcess<GracePeriodState>({
    type: GRACE_PERIOD_PROCESS,
    startsOn: ['RenewalFailed'],
    reactsTo: ['SubscriptionRenewed', 'SubscriptionCanceled'],
    // one process per subscription: `<userId>:<subscriptionId>`
    correlate: (event) => {
      if (!event.streamName.startsWith(BILLING_STREAM_PREFIX)) return null;
      const subscriptionId = (event.data as { subscriptionId?: unknown } | null)?.subscriptionId;
      const userId = event.streamName.slice(BILLING_STREAM_PREFIX.length);
      return userId && typeof subscriptionId === 'string' && subscriptionId ? `${userId}:${subscriptionId}` : null;
    },
    initialState: () => ({ phase: 'new' }),
    react: (state, input, now) => {
      if (input.kind === 'event') {
        if (input.event.type === 'RenewalFailed' && state.phase === 'new') {
          const failed = failedEvent(input.event.data);
          if (!failed) return { state };
          const d: Deadlines = {
            userId: input.event.streamName.slice(BILLING_STREAM_PREFIX.length),
            subscriptionId: failed.subscriptionId,
            graceEndDate: failed.graceEndDate,
            storageDeletionDate: failed.storageDeletionDate,
            accountDeletionDate: failed.accountDeletionDate,
          };
          return {
            state: { phase: 'grace', ...d },
            commands: [mail(d, 'payment-failed', d.graceEndDate)],
            timers: {
              set: [
                { name: TIMERS.graceReminder, at: before(d.graceEndDate, GRACE_REMINDER_DAYS) },
                { name: TIMERS.graceEnd, at: new Date(d.graceEndDate) },
                { name: TIMERS.storageReminder, at: before(d.storageDeletionDate, DELETION_REMINDER_DAYS) },
                { name: TIMERS.storageDeletion, at: new Date(d.storageDeletionDate) },
                { name: TIMERS.accountReminder, at: before(d.accountDeletionDate, DELETION_REMINDER_DAYS) },
                { name: TIMERS.accountDeletion, at: new Date(d.accountDeletionDate) },
              ],
            },
          };
        }
        if (input.event.type === 'SubscriptionRenewed' && (state.phase === 'grace' || state.phase === 'deactivated' || state.phase === 'storage_deleted')) {
          // paid: the renewal itself lifts the grace; the user hears their account is whole again
          return { state: { ...state, phase: 'paid', at: now.toISOString() }, commands: [mail(state, 'payment-restored', null)], done: true };
        }
        if (input.event.type === 'SubscriptionCanceled' && (state.phase === 'grace' || state.phase === 'deactivated' || state.phase === 'storage_deleted')) {
          // the unpaid subscription ended (cancelled, or replaced by a plan just paid): nothing is owed
          return { state: { ...state, phase: 'closed', at: now.toISOString() }, done: true };
        }
        return { state };
      }
      if (input.kind !== 'timer' || state.phase === 'new' || state.phase === 'paid' || state.phase === 'closed' || state.phase === 'account_deleted')
        return { state };
      switch (input.name) {
        case TIMERS.graceReminder:
          return { state, commands: state.phase === 'grace' ? [mail(state, 'payment-reminder', state.graceEndDate)] : [] };
        case TIMERS.graceEnd:
          return {
            state: { ...state, phase: 'deactivated' },
            commands: [
              billingCommand(state.userId, 'DeactivateForNonPayment', state.subscriptionId),
              mail(state, 'account-deactivated', state.storageDeletionDate),
            ],
          };
        case TIMERS.storageReminder:
          return { state, commands: [mail(state, 'payment-reminder', state.storageDeletionDate)] };
        case TIMERS.storageDeletion:
          return {
            state: { ...state, phase: 'storage_deleted' },
            commands: [
              billingCommand(state.userId, 'MarkUnpaidStorageDeletionDue', state.subscriptionId),
              mail(state, 'storage-deleted', state.accountDeletionDate),
            ],
          };
        case TIMERS.accountReminder:
          return { state, commands: [mail(state, 'payment-reminder', state.accountDeletionDate)] };
        case TIMERS.accountDeletion:
          return { state: { ...state, phase: 'account_deleted', at: now.toISOString() }, commands: [deleteUnpaidAccountCommand(state.userId)], done: true };
        default:
          return { state };
      }
    },
  });

/*
 * Account deletion: a deleted account's personal data and files are purged after a retention
 * period, then the owner gets a confirmation e-mail. Pure (bundled into Temporal workflow code):
 * only type imports from the domain.
 */
import type { AccountDeleted } from '@axel/domain/accounts/accounts.events';
import type { MailTemplate } from '@axel/domain/mail/mail.events';
import { defineProcess, type ProcessCommand, type ProcessDefinition } from '../model/process';

export const ACCOUNT_DELETION_PROCESS = 'account-deletion';
export const DEFAULT_ACCOUNT_RETENTION_DAYS = 30;
export const PURGE_TIMER = 'purge';
const DAY_MS = 24 * 60 * 60 * 1000;
/** The accounts context's stream of one user (`userStreamName`): `user-<id>`. */
const USER_STREAM_PREFIX = 'user-';

export interface AccountDeletionSettings {
  /** Days between the deletion and the purge (`ACCOUNT_RETENTION_DAYS`). */
  readonly retentionDays: number;
}

export type AccountDeletionState =
  | { readonly phase: 'new' }
  | { readonly phase: 'retaining'; readonly userId: string; readonly deletedAt: string; readonly purgeAt: string }
  | { readonly phase: 'purged'; readonly userId: string; readonly purgedAt: string };

/** `PurgeAccount` on `user-<id>`: the accounts decider answers `AccountPurged`. */
export const purgeAccountCommand = (userId: string): ProcessCommand => ({
  aggregate: 'user',
  aggregateId: userId,
  type: 'PurgeAccount',
  data: {},
});

export interface RequestMailData {
  readonly template: MailTemplate;
  /**
   * null: the account's own address, read by the dispatcher when the mail is sent. Processes hold
   * ids, never personal data (their inputs and state are kept, and Temporal keeps its history).
   */
  readonly to: string | null;
  readonly userId: string;
  /** null: the dispatcher uses the account's locale (the event does not carry it). */
  readonly locale: string | null;
  readonly params: Record<string, string | number>;
}

/** Queues an e-mail (`MailRequested`); the dispatcher derives the mail id from the idempotency key. */
export const requestMailCommand = (userId: string, data: RequestMailData): ProcessCommand => ({
  aggregate: 'mail',
  aggregateId: userId,
  type: 'RequestMail',
  data,
});

const deletedEvent = (data: unknown): AccountDeleted['data'] | null => {
  const d = data as Partial<AccountDeleted['data']> | null;
  return d && typeof d.at === 'string' && !Number.isNaN(Date.parse(d.at)) ? (d as AccountDeleted['data']) : null;
};

export const createAccountDeletionProcess = (
  settings: AccountDeletionSettings = { retentionDays: DEFAULT_ACCOUNT_RETENTION_DAYS },
): ProcessDefinition<AccountDeletionState> => {
  const { retentionDays } = settings;
  if (!Number.isInteger(retentionDays) || retentionDays < 0) {
    throw new Error(`ACCOUNT_RETENTION_DAYS must be a whole number of days, not ${retentionDays}`);
  }
  return defineProcess<AccountDeletionState>({
    type: ACCOUNT_DELETION_PROCESS,
    startsOn: ['AccountDeleted'],
    correlate: (event) =>
      event.streamName.startsWith(USER_STREAM_PREFIX) && event.streamName.length > USER_STREAM_PREFIX.length
        ? event.streamName.slice(USER_STREAM_PREFIX.length)
        : null,
    initialState: () => ({ phase: 'new' }),
    react: (state, input) => {
      switch (input.kind) {
        case 'event': {
          if (state.phase !== 'new' || input.event.type !== 'AccountDeleted') return { state };
          const deleted = deletedEvent(input.event.data);
          if (!deleted) return { state };
          const userId = input.event.streamName.slice(USER_STREAM_PREFIX.length);
          // counted from the deletion itself, not from when the process first saw the event
          const purgeAt = new Date(Date.parse(deleted.at) + retentionDays * DAY_MS);
          return {
            state: { phase: 'retaining', userId, deletedAt: deleted.at, purgeAt: purgeAt.toISOString() },
            timers: { set: [{ name: PURGE_TIMER, at: purgeAt }] },
          };
        }
        case 'timer': {
          if (state.phase !== 'retaining' || input.name !== PURGE_TIMER) return { state };
          return {
            state: { phase: 'purged', userId: state.userId, purgedAt: state.purgeAt },
            // the confirmation is queued first: the purge forgets the address it goes to
            commands: [
              requestMailCommand(state.userId, {
                template: 'account-purged',
                to: null,
                userId: state.userId,
                locale: null,
                params: { days: retentionDays },
              }),
              purgeAccountCommand(state.userId),
            ],
            done: true,
          };
        }
        case 'signal':
          return { state };
      }
    },
  });
};

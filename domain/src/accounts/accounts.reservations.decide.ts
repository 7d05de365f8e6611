import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { EmailReservationCommand, UsernameReservationCommand } from './accounts.commands';
import { AccountErrors } from './accounts.errors';
import type { EmailReservationEvent, UsernameReservationEvent } from './accounts.events';
import { evolveEmailReservation, evolveUsernameReservation, initialReservationState, type ReservationState } from './accounts.state';

/** The form of an address that uniqueness is decided on; hash this for the reservation stream. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
/**
 * Stream reserving one address: `email-<keyed hash of normalizeEmail(email)>`. Stream names stay in
 * the log for ever, so they never hold a personal value, nor a hash anyone could reverse by guessing.
 */
export const emailReservationStreamName = (emailKeyedHash: string): string => `email-${emailKeyedHash}`;
/** Stream reserving one username: `username-<keyed hash of the username>`. */
export const usernameReservationStreamName = (usernameKeyedHash: string): string => `username-${usernameKeyedHash}`;

/**
 * How long a reservation is protected even when its holder has no account yet: a sign-up (or an
 * e-mail change) reserves the address first and records the account right after, so a younger
 * reservation may simply be one still in flight.
 */
export const ABANDONED_RESERVATION_AFTER_MS = 2 * 60_000;

/**
 * A reservation left behind by a crash between the reservation and the account's own event would
 * block its address for ever. The next sign-up takes it over instead, here in the reservation
 * stream: the release of the abandoned holder and the new reservation are one append at the
 * stream's expected revision, so of two racing sign-ups only one can win; the other reloads, sees
 * a fresh reservation by someone else and gets EMAIL_EXISTS.
 */
const abandoned = (state: Extract<ReservationState, { status: 'held' }>, abandonedHolderId: string | undefined, now: Date): boolean =>
  abandonedHolderId === state.userId && (state.since == null || now.getTime() - state.since >= ABANDONED_RESERVATION_AFTER_MS);

export const decideEmailReservation = (command: EmailReservationCommand, state: ReservationState): EmailReservationEvent[] => {
  const { userId } = command.data;
  switch (command.type) {
    case 'ReserveEmail': {
      const reserved: EmailReservationEvent = { type: 'EmailReserved', data: { userId, at: command.metadata.now.toISOString() } };
      if (state.status === 'held') {
        if (state.userId === userId) return [];
        if (!abandoned(state, command.data.abandonedHolderId, command.metadata.now)) throw new DomainError(AccountErrors.emailExists);
        return [{ type: 'EmailReleased', data: { userId: state.userId } }, reserved];
      }
      return [reserved];
    }
    case 'ReleaseEmail':
      return state.status === 'held' && state.userId === userId ? [{ type: 'EmailReleased', data: { userId } }] : [];
    default:
      return assertNever(command);
  }
};

export const decideUsernameReservation = (command: UsernameReservationCommand, state: ReservationState): UsernameReservationEvent[] => {
  const { userId } = command.data;
  switch (command.type) {
    case 'ReserveUsername':
      if (state.status === 'held') {
        if (state.userId === userId) return [];
        throw new DomainError(AccountErrors.usernameTaken);
      }
      return [{ type: 'UsernameReserved', data: { userId } }];
    case 'ReleaseUsername':
      return state.status === 'held' && state.userId === userId ? [{ type: 'UsernameReleased', data: { userId } }] : [];
    default:
      return assertNever(command);
  }
};

export const emailReservationDecider: Decider<EmailReservationCommand, EmailReservationEvent, ReservationState> = {
  decide: decideEmailReservation,
  evolve: evolveEmailReservation,
  initialState: initialReservationState,
};

export const usernameReservationDecider: Decider<UsernameReservationCommand, UsernameReservationEvent, ReservationState> = {
  decide: decideUsernameReservation,
  evolve: evolveUsernameReservation,
  initialState: initialReservationState,
};

/*
 * Share expiry reminders: the owner is reminded 7, 3 and 1 days before a share expires. One
 * process per share, keyed by its id; an edit that moves the expiry moves the timers, a revocation
 * or deletion ends the process. Each timer sends `RemindShareExpiry` to the share, which drops a
 * reminder that no longer holds, and whose event the owner is mailed and notified of. Pure
 * (bundled into Temporal workflow code): only type imports.
 */
import type { EventOf } from '@axel/domain/shared/events';
import type { ShareCreated, ShareEdited } from '@axel/domain/sharing/sharing.events';
import { defineProcess, type ProcessDefinition, type ProcessEvent, type TimerRequest } from '../model/process';

export const SHARE_EXPIRY_PROCESS = 'share-expiry';
/** Days before the expiry (the domain's SHARE_EXPIRY_REMINDER_DAYS, repeated: this file imports types only). */
export const SHARE_REMINDER_DAYS = [7, 3, 1] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The share's own stream (`shareStreamName`): `share-<id>`; its access and counter streams are not it. */
const SHARE_STREAM = /^share-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const reminderTimer = (days: number) => `remind-${days}d`;

export interface ShareExpiryState {
  readonly shareId: string | null;
  readonly expiresAt: string | null;
}

type Created = EventOf<typeof ShareCreated>['data'];
type Edited = EventOf<typeof ShareEdited>['data'];

const shareIdOf = (event: ProcessEvent) => SHARE_STREAM.exec(event.streamName)?.[1] ?? null;

/** The reminders still ahead for this expiry; every other reminder timer is cancelled. */
const schedule = (expiresAt: string | null, now: Date): { set: TimerRequest[]; cancel: string[] } => {
  const set: TimerRequest[] = [];
  const cancel: string[] = [];
  for (const days of SHARE_REMINDER_DAYS) {
    const at = expiresAt ? new Date(Date.parse(expiresAt) - days * DAY_MS) : null;
    if (at && at.getTime() > now.getTime()) set.push({ name: reminderTimer(days), at });
    else cancel.push(reminderTimer(days));
  }
  return { set, cancel };
};

export const createShareExpiryProcess = (): ProcessDefinition<ShareExpiryState> =>
  defineProcess<ShareExpiryState>({
    type: SHARE_EXPIRY_PROCESS,
    startsOn: ['ShareCreated'],
    reactsTo: ['ShareEdited', 'ShareRevoked', 'ShareDeleted', 'ShareForgotten'],
    correlate: shareIdOf,
    initialState: () => ({ shareId: null, expiresAt: null }),
    react(state, input, now) {
      if (input.kind === 'event') {
        const { event } = input;
        switch (event.type) {
          case 'ShareCreated': {
            const { expiresAt } = event.data as Created;
            return { state: { shareId: shareIdOf(event), expiresAt }, timers: schedule(expiresAt, now) };
          }
          case 'ShareEdited': {
            const data = event.data as Edited;
            if (!('expiresAt' in data) || data.expiresAt === undefined) return { state };
            const expiresAt = data.expiresAt;
            return { state: { ...state, expiresAt }, timers: schedule(expiresAt, now) };
          }
          case 'ShareRevoked':
          case 'ShareDeleted':
          case 'ShareForgotten':
            return { state, done: true };
          default:
            return { state };
        }
      }
      if (input.kind === 'timer' && state.shareId && state.expiresAt) {
        const days = SHARE_REMINDER_DAYS.find((d) => reminderTimer(d) === input.name);
        if (days === undefined) return { state };
        return {
          state,
          commands: [{ aggregate: 'share', aggregateId: state.shareId, type: 'RemindShareExpiry', data: { daysLeft: days, expiresAt: state.expiresAt } }],
        };
      }
      return { state };
    },
  });

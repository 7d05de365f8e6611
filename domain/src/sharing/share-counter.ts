import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';
import { SharingErrors } from './sharing.errors';
import { sharePeriodOf } from './sharing.rules';

/*
 * The monthly share count of one user, one stream per user and UTC month
 * (`share-counter-<userId>-<YYYY-MM>`). Every create counts here first, appended with the expected
 * revision: two creates racing for the last share of the month cannot both pass.
 */

export const ShareCounted = defineEvent(
  'ShareCounted',
  z.object({ shareId: z.string().min(1), userId: z.string().min(1), period: z.string().regex(/^\d{4}-\d{2}$/), countedAt: z.iso.datetime() }),
);
export const shareCounterEventDefinitions = [ShareCounted];
export type ShareCounterEvent = EventOf<typeof ShareCounted>;

export type CountShare = Command<'CountShare', { shareId: string; userId: string /** null: unlimited. */; limit: number | null }>;
export type ShareCounterCommand = CountShare;

export interface ShareCounterState {
  readonly shareIds: readonly string[];
}

export const shareCounterStreamName = (userId: string, period: string): string => `share-counter-${userId}-${period}`;

export const shareCounterDecider: Decider<ShareCounterCommand, ShareCounterEvent, ShareCounterState> = {
  initialState: () => ({ shareIds: [] }),
  evolve: (state, event) => (event.type === 'ShareCounted' ? { shareIds: [...state.shareIds, event.data.shareId] } : state),
  decide: (command, state) => {
    switch (command.type) {
      case 'CountShare': {
        const { shareId, userId, limit } = command.data;
        // a retried create counts once
        if (state.shareIds.includes(shareId)) return [];
        if (limit !== null && state.shareIds.length >= limit) throw new DomainError(SharingErrors.limitReached, { limit, used: state.shareIds.length });
        const at = command.metadata.now;
        return [{ type: 'ShareCounted', data: { shareId, userId, period: sharePeriodOf(at), countedAt: at.toISOString() } }];
      }
      default:
        return assertNever(command.type);
    }
  },
};

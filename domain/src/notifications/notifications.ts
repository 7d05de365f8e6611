import { z } from 'zod';
import { DomainError, defineErrors } from '../shared/errors';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { defineEvent, type EventOf } from '../shared/events';

/** Notifications list: spec page size 20; the first 5 are shown as recent activity. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const MAX_IDS_PER_CALL = 100;

export const NotificationErrors = defineErrors({
  noIds: { code: 'NOTIFICATION_IDS_REQUIRED', status: 400, message: 'Name at least one notification' },
  tooManyIds: { code: 'NOTIFICATION_IDS_TOO_MANY', status: 400, message: 'At most 100 notifications at a time' },
});

export const NotificationsSeen = defineEvent('NotificationsSeen', z.object({ ids: z.array(z.string()), at: z.iso.datetime() }));
export const NotificationsDeleted = defineEvent('NotificationsDeleted', z.object({ ids: z.array(z.string()), at: z.iso.datetime() }));
export const notificationEventDefinitions = [NotificationsSeen, NotificationsDeleted];
export type NotificationEvent = EventOf<typeof NotificationsSeen> | EventOf<typeof NotificationsDeleted>;

export type NotificationCommand = Command<'MarkNotificationsSeen', { ids: string[] }> | Command<'DeleteNotifications', { ids: string[] }>;

/** What the stream remembers: ids already handled, so repeating a call appends nothing. */
export interface NotificationsState {
  readonly seen: ReadonlySet<string>;
  readonly deleted: ReadonlySet<string>;
}

export const notificationsStreamName = (userId: string) => `notifications-${userId}`;

const checkIds = (ids: readonly string[]) => {
  if (ids.length === 0) throw new DomainError(NotificationErrors.noIds);
  if (ids.length > MAX_IDS_PER_CALL) throw new DomainError(NotificationErrors.tooManyIds);
};

export const notificationsDecider: Decider<NotificationCommand, NotificationEvent, NotificationsState> = {
  initialState: () => ({ seen: new Set(), deleted: new Set() }),
  decide(command, state) {
    checkIds(command.data.ids);
    const at = command.metadata.now.toISOString();
    switch (command.type) {
      case 'MarkNotificationsSeen': {
        const ids = [...new Set(command.data.ids)].filter((id) => !state.seen.has(id) && !state.deleted.has(id));
        return ids.length ? [{ type: 'NotificationsSeen', data: { ids, at } }] : [];
      }
      case 'DeleteNotifications': {
        const ids = [...new Set(command.data.ids)].filter((id) => !state.deleted.has(id));
        return ids.length ? [{ type: 'NotificationsDeleted', data: { ids, at } }] : [];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationsSeen':
        return { ...state, seen: new Set([...state.seen, ...event.data.ids]) };
      case 'NotificationsDeleted':
        return { ...state, deleted: new Set([...state.deleted, ...event.data.ids]) };
      default:
        return state;
    }
  },
};

import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { NotificationErrors, notificationsDecider, type NotificationCommand, type NotificationEvent } from './notifications';

const now = new Date('2026-11-22T10:00:00Z');
const cmd = (type: NotificationCommand['type'], ids: string[]) => ({ type, data: { ids }, metadata: { now } }) as NotificationCommand;
const given = DeciderSpecification.for(notificationsDecider);
const seen = (ids: string[]): NotificationEvent => ({ type: 'NotificationsSeen', data: { ids, at: now.toISOString() } });

describe('notifications', () => {
  it('marks unseen notifications seen, once', () => {
    given([seen(['a'])])
      .when(cmd('MarkNotificationsSeen', ['a', 'b', 'b']))
      .then([seen(['b'])]);
  });
  it('does not mark deleted notifications seen', () => {
    given([{ type: 'NotificationsDeleted', data: { ids: ['a'], at: now.toISOString() } }])
      .when(cmd('MarkNotificationsSeen', ['a']))
      .thenNothingHappened();
  });
  it('refuses an empty or oversized list', () => {
    given([]).when(cmd('DeleteNotifications', [])).thenThrows(NotificationErrors.noIds);
    given([])
      .when(
        cmd(
          'DeleteNotifications',
          Array.from({ length: 101 }, (_, i) => `${i}`),
        ),
      )
      .thenThrows(NotificationErrors.tooManyIds);
  });
  test.prop([fc.array(fc.tuple(fc.boolean(), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })), { maxLength: 20 })])(
    'never reports an id seen or deleted twice, whatever the sequence of calls',
    (calls) => {
      let events: NotificationEvent[] = [];
      for (const [markSeen, ids] of calls) {
        const out = notificationsDecider.decide(cmd(markSeen ? 'MarkNotificationsSeen' : 'DeleteNotifications', ids), fold(notificationsDecider, events));
        events = [...events, ...out];
      }
      for (const type of ['NotificationsSeen', 'NotificationsDeleted'] as const) {
        const all = events.filter((e) => e.type === type).flatMap((e) => e.data.ids);
        expect(new Set(all).size).toBe(all.length);
      }
    },
  );
});

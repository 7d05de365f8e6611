import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { DomainError } from '../shared/errors';
import { fold } from '../shared/decider';
import { notificationsDecider, type NotificationCommand, type NotificationEvent } from './notifications';

const now = new Date('2026-11-22T10:00:00Z');
const cmd = (type: NotificationCommand['type'], ids: string[]) => ({ type, data: { ids }, metadata: { now } }) as NotificationCommand;
const given = (events: NotificationEvent[]) => fold(notificationsDecider, events);

describe('notifications', () => {
  it('marks unseen notifications seen, once', () => {
    const state = given([{ type: 'NotificationsSeen', data: { ids: ['a'], at: now.toISOString() } }]);
    expect(notificationsDecider.decide(cmd('MarkNotificationsSeen', ['a', 'b', 'b']), state)).toEqual([
      { type: 'NotificationsSeen', data: { ids: ['b'], at: now.toISOString() } },
    ]);
  });
  it('does not mark deleted notifications seen', () => {
    const state = given([{ type: 'NotificationsDeleted', data: { ids: ['a'], at: now.toISOString() } }]);
    expect(notificationsDecider.decide(cmd('MarkNotificationsSeen', ['a']), state)).toEqual([]);
  });
  it('refuses an empty or oversized list', () => {
    expect(() => notificationsDecider.decide(cmd('DeleteNotifications', []), given([]))).toThrow(DomainError);
    expect(() =>
      notificationsDecider.decide(
        cmd(
          'DeleteNotifications',
          Array.from({ length: 101 }, (_, i) => `${i}`),
        ),
        given([]),
      ),
    ).toThrow(DomainError);
  });
  test.prop([fc.array(fc.tuple(fc.boolean(), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })), { maxLength: 20 })])(
    'never reports an id seen or deleted twice, whatever the sequence of calls',
    (calls) => {
      let events: NotificationEvent[] = [];
      for (const [seen, ids] of calls) {
        const out = notificationsDecider.decide(cmd(seen ? 'MarkNotificationsSeen' : 'DeleteNotifications', ids), given(events));
        events = [...events, ...out];
      }
      for (const type of ['NotificationsSeen', 'NotificationsDeleted'] as const) {
        const all = events.filter((e) => e.type === type).flatMap((e) => e.data.ids);
        expect(new Set(all).size).toBe(all.length);
      }
    },
  );
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fold } from '../shared/decider';
import { shareAccessDecider, shareAccessSummaryOf, type ShareAccessCommand, type ShareAccessEvent } from './share-access';

/*
 * Invariant: the owner's opened count is the number of visits that were let in, and nothing else.
 * Whatever mix of refused and granted opens and downloads reaches the stream, a refused access never
 * appends an event, never counts an open, and never moves the delivered-on date.
 */

const attempt = fc.record({
  op: fc.constantFrom('open' as const, 'download' as const),
  ok: fc.boolean(),
  visitId: fc.constantFrom('v1', 'v2', 'v3', 'v4'),
  email: fc.constantFrom(null, 'a@example.com', 'B@example.com', 'b@example.com'),
  kind: fc.constantFrom('public' as const, 'private' as const),
  minute: fc.integer({ min: 0, max: 59 }),
});

type Attempt = typeof attempt extends fc.Arbitrary<infer T> ? T : never;

const command = (a: Attempt): ShareAccessCommand => {
  const data = {
    shareId: 's1',
    ownerId: 'o1',
    kind: a.kind,
    visitId: a.visitId,
    recipientEmail: a.email,
    access: a.ok ? ({ ok: true } as const) : ({ ok: false, error: 'refused' } as const),
  };
  const metadata = { now: new Date(Date.UTC(2026, 10, 23, 10, a.minute)) };
  return a.op === 'open'
    ? { type: 'RecordShareOpen', data, metadata }
    : { type: 'RecordShareDownload', data: { ...data, entryId: 'f1', archive: false }, metadata };
};

describe('share access events', () => {
  test.prop([fc.array(attempt, { maxLength: 40 })])('never count an open for a refused access', (attempts) => {
    let events: ShareAccessEvent[] = [];
    let granted = 0;
    for (const a of attempts) {
      const state = fold(shareAccessDecider, events);
      const before = shareAccessSummaryOf(state);
      const out = shareAccessDecider.decide(command(a), state);
      if (!a.ok) {
        expect(out).toEqual([]);
        continue;
      }
      events = [...events, ...out];
      const after = shareAccessSummaryOf(fold(shareAccessDecider, events));
      expect(after.openedCount).toBe(before.openedCount + (a.op === 'open' ? 1 : 0));
      if (a.op === 'open') granted++;
    }
    const summary = shareAccessSummaryOf(fold(shareAccessDecider, events));
    expect(summary.openedCount).toBe(granted);
    const opens = events.filter((e) => e.type === 'ShareOpened');
    expect(summary.deliveredOn).toBe(opens[0]?.data.at ?? null);
    expect(summary.downloadCount).toBe(attempts.filter((a) => a.ok && a.op === 'download').length);
  });

  test.prop([fc.array(attempt, { maxLength: 40 })])("names each recipient's first open of a private share once", (attempts) => {
    let events: ShareAccessEvent[] = [];
    for (const a of attempts)
      events = [...events, ...shareAccessDecider.decide({ ...command(a), type: 'RecordShareOpen' } as ShareAccessCommand, fold(shareAccessDecider, events))];
    const emails = events.flatMap((e) =>
      e.type === 'ShareOpened' && e.data.firstOpen && e.data.kind === 'private' && e.data.recipientEmail ? [e.data.recipientEmail] : [],
    );
    expect(new Set(emails).size).toBe(emails.length);
  });
});

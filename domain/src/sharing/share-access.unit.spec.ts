import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import {
  ShareAccessForgotten,
  shareAccessDecider,
  shareAccessStreamName,
  shareAccessSummaryOf,
  type ShareAccessCommand,
  type ShareAccessEvent,
} from './share-access';

const now = new Date('2026-11-23T10:00:00Z');
const visit = (visitId: string, recipientEmail: string | null, ok = true) => ({
  shareId: 's1',
  ownerId: 'o1',
  kind: 'private' as const,
  visitId,
  recipientEmail,
  access: ok ? ({ ok: true } as const) : ({ ok: false } as const),
});
const open = (v: ReturnType<typeof visit>): ShareAccessCommand => ({ type: 'RecordShareOpen', data: v, metadata: { now } });
const run = (commands: ShareAccessCommand[]) =>
  commands.reduce<ShareAccessEvent[]>((events, c) => [...events, ...shareAccessDecider.decide(c, fold(shareAccessDecider, events))], []);

describe('share access', () => {
  it("records each visit's open, the first of each recipient marked, e-mails in lower case", () => {
    const events = run([open(visit('v1', 'Ann@Example.com')), open(visit('v2', 'ann@example.com')), open(visit('v3', 'bob@example.com'))]);
    expect(events.map((e) => e.type === 'ShareOpened' && [e.type, e.data.visitId, e.data.recipientEmail, e.data.firstOpen])).toEqual([
      ['ShareOpened', 'v1', 'ann@example.com', true],
      ['ShareOpened', 'v2', 'ann@example.com', false],
      ['ShareOpened', 'v3', 'bob@example.com', true],
    ]);
    expect(shareAccessSummaryOf(fold(shareAccessDecider, events))).toEqual({ openedCount: 3, deliveredOn: now.toISOString(), downloadCount: 0 });
  });

  it('marks only the first open of a public share, and keeps no e-mails of its viewers in the state', () => {
    const publicOpen = (visitId: string, email: string | null): ShareAccessCommand => ({
      type: 'RecordShareOpen',
      data: { ...visit(visitId, email), kind: 'public' },
      metadata: { now },
    });
    const events = run([publicOpen('v1', 'ann@example.com'), publicOpen('v2', 'bob@example.com'), publicOpen('v3', null)]);
    expect(events.map((e) => e.type === 'ShareOpened' && e.data.firstOpen)).toEqual([true, false, false]);
    expect(fold(shareAccessDecider, events).recipientsOpened.size).toBe(0);
  });

  it('records nothing for a refused visit or download', () => {
    expect(run([open(visit('v1', 'ann@example.com', false))])).toEqual([]);
    expect(run([{ type: 'RecordShareDownload', data: { ...visit('v1', null, false), entryId: 'f', archive: false }, metadata: { now } }])).toEqual([]);
  });

  it('records every download of a granted visit', () => {
    const d = (entryId: string, archive: boolean): ShareAccessCommand => ({
      type: 'RecordShareDownload',
      data: { ...visit('v1', null), entryId, archive },
      metadata: { now },
    });
    const events = run([d('f1', false), d('f1', false), d('t1', true)]);
    expect(events.map((e) => e.type === 'ShareDownloaded' && [e.data.entryId, e.data.archive])).toEqual([
      ['f1', false],
      ['f1', false],
      ['t1', true],
    ]);
    expect(shareAccessSummaryOf(fold(shareAccessDecider, events))).toEqual({ openedCount: 0, deliveredOn: null, downloadCount: 3 });
  });

  it('once forgotten, forgets the stream and the anonymous visitors with it, and records nothing more', () => {
    const forget: ShareAccessCommand = { type: 'ForgetShareAccess', data: { shareId: 's1' }, metadata: { now } };
    const events = run([open(visit('v1', 'ann@example.com')), forget, forget, open(visit('v2', 'bob@example.com'))]);
    expect(events.map((e) => e.type)).toEqual(['ShareOpened', 'ShareAccessForgotten']);
    expect(ShareAccessForgotten.erases?.({ shareId: 's1', at: now.toISOString() }, shareAccessStreamName('s1'))).toEqual([
      'share-access-s1',
      'user-share-visitors-s1',
    ]);
  });
});

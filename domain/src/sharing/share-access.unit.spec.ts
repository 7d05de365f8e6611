import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
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
const given = DeciderSpecification.for(shareAccessDecider);
const history = (commands: ShareAccessCommand[]) => DeciderSpecification.history(shareAccessDecider, commands);
const opens = (events: ShareAccessEvent[]) => events.map((e) => e.type === 'ShareOpened' && [e.type, e.data.visitId, e.data.recipientEmail, e.data.firstOpen]);

describe('share access', () => {
  it("records each visit's open, the first of each recipient marked, e-mails in lower case", () => {
    given([])
      .when(open(visit('v1', 'Ann@Example.com')))
      .then((events) => expect(opens(events)).toEqual([['ShareOpened', 'v1', 'ann@example.com', true]]));
    given(history([open(visit('v1', 'Ann@Example.com'))]))
      .when(open(visit('v2', 'ann@example.com')))
      .then((events) => expect(opens(events)).toEqual([['ShareOpened', 'v2', 'ann@example.com', false]]));
    given(history([open(visit('v1', 'Ann@Example.com')), open(visit('v2', 'ann@example.com'))]))
      .when(open(visit('v3', 'bob@example.com')))
      .thenState((state, events) => {
        expect(opens(events)).toEqual([['ShareOpened', 'v3', 'bob@example.com', true]]);
        expect(shareAccessSummaryOf(state)).toEqual({ openedCount: 3, deliveredOn: now.toISOString(), downloadCount: 0 });
      });
  });

  it('marks only the first open of a public share, and keeps no e-mails of its viewers in the state', () => {
    const publicOpen = (visitId: string, email: string | null): ShareAccessCommand => ({
      type: 'RecordShareOpen',
      data: { ...visit(visitId, email), kind: 'public' },
      metadata: { now },
    });
    const firstOpens = (events: ShareAccessEvent[]) => events.map((e) => e.type === 'ShareOpened' && e.data.firstOpen);
    given([])
      .when(publicOpen('v1', 'ann@example.com'))
      .then((events) => expect(firstOpens(events)).toEqual([true]));
    given(history([publicOpen('v1', 'ann@example.com')]))
      .when(publicOpen('v2', 'bob@example.com'))
      .then((events) => expect(firstOpens(events)).toEqual([false]));
    given(history([publicOpen('v1', 'ann@example.com'), publicOpen('v2', 'bob@example.com')]))
      .when(publicOpen('v3', null))
      .thenState((state, events) => {
        expect(firstOpens(events)).toEqual([false]);
        expect(state.recipientsOpened.size).toBe(0);
      });
  });

  it('records nothing for a refused visit or download', () => {
    given([])
      .when(open(visit('v1', 'ann@example.com', false)))
      .thenNothingHappened();
    given([])
      .when({ type: 'RecordShareDownload', data: { ...visit('v1', null, false), entryId: 'f', archive: false }, metadata: { now } })
      .thenNothingHappened();
  });

  it('records every download of a granted visit', () => {
    const d = (entryId: string, archive: boolean): ShareAccessCommand => ({
      type: 'RecordShareDownload',
      data: { ...visit('v1', null), entryId, archive },
      metadata: { now },
    });
    const downloads = (events: ShareAccessEvent[]) => events.map((e) => e.type === 'ShareDownloaded' && [e.data.entryId, e.data.archive]);
    given([])
      .when(d('f1', false))
      .then((events) => expect(downloads(events)).toEqual([['f1', false]]));
    given(history([d('f1', false)]))
      .when(d('f1', false))
      .then((events) => expect(downloads(events)).toEqual([['f1', false]]));
    given(history([d('f1', false), d('f1', false)]))
      .when(d('t1', true))
      .thenState((state, events) => {
        expect(downloads(events)).toEqual([['t1', true]]);
        expect(shareAccessSummaryOf(state)).toEqual({ openedCount: 0, deliveredOn: null, downloadCount: 3 });
      });
  });

  it('once forgotten, forgets the stream and the anonymous visitors with it, and records nothing more', () => {
    const forget: ShareAccessCommand = { type: 'ForgetShareAccess', data: { shareId: 's1' }, metadata: { now } };
    const typesOf = (events: ShareAccessEvent[]) => events.map((e) => e.type);
    given([])
      .when(open(visit('v1', 'ann@example.com')))
      .then((events) => expect(typesOf(events)).toEqual(['ShareOpened']));
    given(history([open(visit('v1', 'ann@example.com'))]))
      .when(forget)
      .then((events) => expect(typesOf(events)).toEqual(['ShareAccessForgotten']));
    const forgotten = history([open(visit('v1', 'ann@example.com')), forget]);
    given(forgotten).when(forget).thenNothingHappened();
    given(forgotten)
      .when(open(visit('v2', 'bob@example.com')))
      .thenNothingHappened();
    expect(ShareAccessForgotten.erases?.({ shareId: 's1', at: now.toISOString() }, shareAccessStreamName('s1'))).toEqual([
      'share-access-s1',
      'user-share-visitors-s1',
    ]);
  });
});

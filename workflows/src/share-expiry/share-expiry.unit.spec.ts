import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { simulate, type SimAction } from '../testing/simulate';
import { createShareExpiryProcess, SHARE_EXPIRY_PROCESS } from './share-expiry.process';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-05-01T00:00:00.000Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY).toISOString();
const SHARE = '0b6f8a52-5c1e-4a8e-9a57-2f7f5d7c9e11';
const process = createShareExpiryProcess();
let position = 0;
const event = (type: string, data: unknown, streamName = `share-${SHARE}`): SimAction => ({
  kind: 'event',
  event: { id: `e${++position}`, type, data, streamName, position, correlationId: null } satisfies ProcessEvent,
});
const created = (expiresAt: string | null) => event('ShareCreated', { shareId: SHARE, ownerId: 'o1', expiresAt, title: '[erased]' });
const advance = (days: number): SimAction => ({ kind: 'advance', ms: days * DAY });
const reminders = (actions: SimAction[]) =>
  simulate(process, SHARE, actions, T0).commands.map((c) => {
    const data = c.command.data as { daysLeft: number; expiresAt: string };
    return `${c.command.aggregate} ${c.command.type} ${data.daysLeft}d ${data.expiresAt.slice(0, 10)}`;
  });

describe('share expiry process', () => {
  it('belongs to the share stream only', () => {
    const e = (created(at(10)) as { event: ProcessEvent }).event;
    expect(process.type).toBe(SHARE_EXPIRY_PROCESS);
    expect(process.correlate(e)).toBe(SHARE);
    expect(process.correlate({ ...e, streamName: `share-access-${SHARE}` })).toBeNull();
    expect(process.correlate({ ...e, streamName: `share-counter-u1-2026-05` })).toBeNull();
  });

  it('reminds 7, 3 and 1 days before the expiry, each at its time', () => {
    expect(reminders([created(at(10)), advance(2)])).toEqual([]);
    expect(reminders([created(at(10)), advance(3)])).toEqual([`share RemindShareExpiry 7d ${at(10).slice(0, 10)}`]);
    expect(reminders([created(at(10)), advance(30)])).toEqual([7, 3, 1].map((d) => `share RemindShareExpiry ${d}d ${at(10).slice(0, 10)}`));
  });

  it('skips reminders already past when the share is made, and never reminds a share without expiry', () => {
    expect(reminders([created(at(2)), advance(30)])).toEqual([`share RemindShareExpiry 1d ${at(2).slice(0, 10)}`]);
    expect(reminders([created(null), advance(30)])).toEqual([]);
  });

  it('an edit moves the timers; removing the expiry cancels them', () => {
    const moved = reminders([created(at(10)), advance(1), event('ShareEdited', { expiresAt: at(20), editedAt: at(1) }), advance(30)]);
    expect(moved).toEqual([7, 3, 1].map((d) => `share RemindShareExpiry ${d}d ${at(20).slice(0, 10)}`));
    expect(reminders([created(at(10)), event('ShareEdited', { expiresAt: null, editedAt: at(0) }), advance(30)])).toEqual([]);
    // an edit of other fields leaves the timers alone
    expect(reminders([created(at(10)), event('ShareEdited', { downloadable: false, editedAt: at(0) }), advance(30)])).toHaveLength(3);
  });

  it('revocation or deletion ends it', () => {
    for (const type of ['ShareRevoked', 'ShareDeleted']) {
      const trace = simulate(process, SHARE, [created(at(10)), advance(4), event(type, { revokedAt: at(4), deletedAt: at(4) }), advance(30)], T0);
      expect(trace.commands).toHaveLength(1);
      expect(trace.instance.done).toBe(true);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { COLLECT_TIMER, createSecureFetchCollectProcess, SECURE_FETCH_COLLECT_PROCESS } from './secure-fetch-collect.process';

const process = createSecureFetchCollectProcess();
const event = (type: string, data: unknown, streamName = 'secure-fetch-f1'): ProcessEvent => ({
  id: 'e',
  type,
  data,
  streamName,
  position: 1,
  correlationId: null,
});
const now = new Date('2026-05-04T10:00:00.000Z');
const submitted = event('SecureFetchSubmitted', { submittedAt: '2026-05-04T10:00:00.000Z', itemIds: ['i1'] });

describe('unpaid Secure Fetch collection process', () => {
  it('is one process per link, never for the monthly counter streams', () => {
    expect(process.type).toBe(SECURE_FETCH_COLLECT_PROCESS);
    expect(process.correlate(submitted)).toBe('f1');
    expect(process.correlate(event('SecureFetchSubmitted', {}, 'secure-fetch-counter-u1-2026-05'))).toBeNull();
    expect(process.correlate(event('SecureFetchSubmitted', {}, 'storage-s1'))).toBeNull();
  });

  it('sets the collection 2 hours after the files arrived, and collects when it fires', () => {
    const started = process.react(process.initialState(), { kind: 'event', event: submitted }, now);
    expect(started.timers?.set).toEqual([{ name: COLLECT_TIMER, at: new Date('2026-05-04T12:00:00.000Z') }]);
    const fired = process.react(started.state, { kind: 'timer', name: COLLECT_TIMER }, now);
    expect(fired.commands).toEqual([{ aggregate: 'secure-fetch', aggregateId: 'f1', type: 'CollectUnpaidFiles', data: {} }]);
    expect(fired.done).toBe(true);
  });

  it('ends without collecting once the link is paid', () => {
    const started = process.react(process.initialState(), { kind: 'event', event: submitted }, now);
    const paid = process.react(started.state, { kind: 'event', event: event('SecureFetchPaid', { txId: 't' }) }, now);
    expect(paid.done).toBe(true);
    expect(paid.commands).toBeUndefined();
  });
});

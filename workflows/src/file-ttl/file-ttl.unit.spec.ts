import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { createFileTtlProcess, EXPIRE_TIMER, FILE_TTL_PROCESS } from './file-ttl.process';

const process = createFileTtlProcess();
const event = (type: string, data: unknown): ProcessEvent => ({ id: 'e', type, data, streamName: 'storage-s1', position: 1, correlationId: null });
const now = new Date('2026-05-01T00:00:00.000Z');

describe('file TTL process', () => {
  it('is one process per file of a storage', () => {
    expect(process.type).toBe(FILE_TTL_PROCESS);
    expect(process.correlate(event('ItemExpirySet', { itemId: 'f1', expiresAt: null }))).toBe('s1:f1');
    expect(process.correlate({ ...event('ItemExpirySet', { itemId: 'f1', expiresAt: null }), streamName: 'user-x' })).toBeNull();
  });

  it('sets a timer at the expiry, moves it when the TTL changes, and cancels it when the TTL is removed', () => {
    const first = process.react(
      process.initialState(),
      { kind: 'event', event: event('ItemExpirySet', { itemId: 'f1', expiresAt: '2026-06-01T00:00:00.000Z' }) },
      now,
    );
    expect(first.timers?.set).toEqual([{ name: EXPIRE_TIMER, at: new Date('2026-06-01T00:00:00.000Z') }]);
    const moved = process.react(first.state, { kind: 'event', event: event('ItemExpirySet', { itemId: 'f1', expiresAt: '2026-07-01T00:00:00.000Z' }) }, now);
    expect(moved.timers?.set).toEqual([{ name: EXPIRE_TIMER, at: new Date('2026-07-01T00:00:00.000Z') }]);
    const removed = process.react(moved.state, { kind: 'event', event: event('ItemExpirySet', { itemId: 'f1', expiresAt: null }) }, now);
    expect(removed.timers?.cancel).toEqual([EXPIRE_TIMER]);
    expect(removed.done).toBeFalsy();
  });

  it('trashes the file when the timer fires, and ends when the file is deleted', () => {
    const set = process.react(
      process.initialState(),
      { kind: 'event', event: event('ItemExpirySet', { itemId: 'f1', expiresAt: '2026-06-01T00:00:00.000Z' }) },
      now,
    );
    const fired = process.react(set.state, { kind: 'timer', name: EXPIRE_TIMER }, now);
    expect(fired.commands).toEqual([{ aggregate: 'storage', aggregateId: 's1', type: 'TrashItems', data: { itemIds: ['f1'] } }]);
    expect(fired.done).toBeFalsy();
    expect(process.react(fired.state, { kind: 'event', event: event('ItemDeleted', { itemId: 'f1' }) }, now).done).toBe(true);
  });
});

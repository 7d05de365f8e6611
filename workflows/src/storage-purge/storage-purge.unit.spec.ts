import { describe, expect, it } from 'vitest';
import { createStoragePurgeProcess } from './storage-purge.process';

const process = createStoragePurgeProcess();

describe('storage purge process', () => {
  it('purges the storages of a purged account, once', () => {
    const event = { id: 'e', type: 'AccountPurged', data: { at: '2026-05-01T00:00:00.000Z' }, streamName: 'user-u1', position: 3, correlationId: null };
    expect(process.correlate(event)).toBe('u1');
    const reaction = process.react(process.initialState(), { kind: 'event', event }, new Date());
    expect(reaction.commands).toEqual([{ aggregate: 'storage-owner', aggregateId: 'u1', type: 'PurgeStorages', data: {} }]);
    expect(reaction.done).toBe(true);
  });
});

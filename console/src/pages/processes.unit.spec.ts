import { describe, expect, it } from 'vitest';
import type { ProcessRecord } from '../data/dataProvider';
import { canRetry, describeCommands, describeInput, processesViewForError, sortProcesses } from './processes';

const row = (id: string, status: ProcessRecord['status'], updatedAt: string): ProcessRecord => ({
  id,
  type: 'grace-period',
  status,
  state: {},
  nextTimerAt: null,
  lastError: null,
  updatedAt,
});

describe('processes page helpers', () => {
  it('treats a missing endpoint as "not available yet", other errors as errors', () => {
    expect(processesViewForError({ status: 404, message: 'No route GET /api/admin/processes' })).toEqual({ kind: 'unavailable' });
    expect(processesViewForError({ status: 500, message: 'Boom' })).toEqual({ kind: 'error', message: 'Boom' });
    expect(processesViewForError(new TypeError('Failed to fetch'))).toEqual({ kind: 'error', message: 'Failed to fetch' });
  });

  it('offers retry only for dead letters', () => {
    expect(canRetry({ status: 'dead_letter' })).toBe(true);
    for (const status of ['running', 'completed', 'failed'] as const) expect(canRetry({ status })).toBe(false);
  });

  it('lists dead letters first, then newest first', () => {
    const sorted = sortProcesses([
      row('a', 'running', '2025-01-01T00:00:00Z'),
      row('b', 'dead_letter', '2024-01-01T00:00:00Z'),
      row('c', 'completed', '2025-02-01T00:00:00Z'),
    ]);
    expect(sorted.map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });
});

describe('process history in words', () => {
  it('names the event, timer or signal of each input', () => {
    expect(describeInput({ kind: 'event', input: { kind: 'event', event: { type: 'AccountDeleted', id: 'e1' } } })).toEqual({
      key: 'console.processes.inputs.event',
      name: 'AccountDeleted',
    });
    expect(describeInput({ kind: 'timer', input: { kind: 'timer', name: 'purge' } })).toEqual({ key: 'console.processes.inputs.timer', name: 'purge' });
    expect(describeInput({ kind: 'signal', input: { kind: 'signal', name: 'cancel', payload: null } })).toEqual({
      key: 'console.processes.inputs.signal',
      name: 'cancel',
    });
  });

  it('lists the commands an input sent and whether each went out', () => {
    expect(
      describeCommands({
        commands: [
          { command: { type: 'PurgeAccount', aggregateId: 'u1' }, dispatchedAt: '2026-01-01T00:00:00Z' },
          { command: { type: 'SendMail' }, dispatchedAt: null },
        ],
      }),
    ).toEqual([
      { type: 'PurgeAccount', sent: true },
      { type: 'SendMail', sent: false },
    ]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userStreamName } from '@axel/domain';
import type { ProcessEvent } from '../model/process';
import { simulate, type SimAction } from '../testing/simulate';
import { ACCOUNT_DELETION_PROCESS, createAccountDeletionProcess, purgeAccountCommand, requestMailCommand } from './account-deletion.process';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

const deleted = (userId: string, at: number, email = 'ada@example.com', id = `ev-${userId}-deleted`): ProcessEvent => ({
  id,
  type: 'AccountDeleted',
  data: { by: 'user', deleterId: userId, email, at: new Date(at).toISOString() },
  streamName: userStreamName(userId),
  position: 10,
  correlationId: 'c-1',
});

const actions = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 * DAY }) }),
    fc.record({ kind: fc.constant('signal' as const), name: fc.constantFrom('cancel', 'purge-now', 'anything') }),
    fc.record({ kind: fc.constant('stale-timer' as const), name: fc.constant('purge') }),
  ),
  { maxLength: 12 },
);

describe('account deletion process', () => {
  it('correlates AccountDeleted to the user of its stream, and nothing else', () => {
    const process = createAccountDeletionProcess();
    expect(process.correlate(deleted('u-1', T0))).toBe('u-1');
    expect(process.correlate({ ...deleted('u-1', T0), streamName: 'mail-u-1' })).toBeNull();
    expect(process.correlate({ ...deleted('u-1', T0), streamName: 'user-' })).toBeNull();
    expect(process.type).toBe(ACCOUNT_DELETION_PROCESS);
    expect(process.startsOn).toEqual(['AccountDeleted']);
  });

  it('purges exactly once, never before the retention period has passed since the deletion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 5 * DAY }),
        fc.integer({ min: 0, max: 3 }),
        actions,
        (retentionDays, lag, redeliveries, rest) => {
          const process = createAccountDeletionProcess({ retentionDays });
          const deletedAt = T0 - lag; // the process may see the event late
          const event = deleted('u-7', deletedAt, 'ada@example.com');
          const all: SimAction[] = [
            { kind: 'event', event },
            ...Array.from({ length: redeliveries }, (): SimAction => ({ kind: 'event', event: { ...event, id: `${event.id}-again` } })),
            ...rest,
            { kind: 'advance', ms: 0 },
          ];
          const trace = simulate(process, 'u-7', all, new Date(T0));
          const purgeAt = deletedAt + retentionDays * DAY;
          const purges = trace.steps.filter((s) => s.outcome === 'applied' && s.delivery.input.kind === 'timer');
          if (trace.now.getTime() >= purgeAt) {
            expect(purges).toHaveLength(1);
            expect(purges[0]!.at.getTime()).toBe(Math.max(purgeAt, T0));
            expect(trace.commands.map((c) => c.command)).toEqual([
              requestMailCommand('u-7', { template: 'account-purged', to: null, userId: 'u-7', locale: null, params: { days: retentionDays } }),
              purgeAccountCommand('u-7'),
            ]);
            // nothing personal is kept by the process
            expect(JSON.stringify(trace.instance)).not.toContain('ada@example.com');
            expect(trace.commands.every((c) => c.causationId === event.id)).toBe(true);
            expect(trace.instance.done).toBe(true);
            expect(trace.instance.state).toMatchObject({ phase: 'purged', userId: 'u-7' });
          } else {
            expect(purges).toHaveLength(0);
            expect(trace.commands).toEqual([]);
            expect(trace.instance.state).toMatchObject({ phase: 'retaining', purgeAt: new Date(purgeAt).toISOString() });
            expect(trace.instance.timers.purge?.at).toBe(new Date(purgeAt).toISOString());
          }
        },
      ),
    );
  });

  it('ignores signals and malformed events', () => {
    const process = createAccountDeletionProcess({ retentionDays: 30 });
    const broken = { ...deleted('u-2', T0), data: { by: 'user' } };
    const trace = simulate(
      process,
      'u-2',
      [
        { kind: 'event', event: broken },
        { kind: 'signal', name: 'purge' },
        { kind: 'advance', ms: 90 * DAY },
      ],
      new Date(T0),
    );
    expect(trace.commands).toEqual([]);
    expect(trace.instance.state).toEqual({ phase: 'new' });
  });

  it('refuses a retention period that is not a whole number of days', () => {
    expect(() => createAccountDeletionProcess({ retentionDays: -1 })).toThrow(/ACCOUNT_RETENTION_DAYS/);
    expect(() => createAccountDeletionProcess({ retentionDays: 1.5 })).toThrow(/ACCOUNT_RETENTION_DAYS/);
  });
});

import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { simulate, type SimAction } from '../testing/simulate';
import { createGracePeriodProcess, GRACE_PERIOD_PROCESS, type GracePeriodState } from './grace-period.process';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-05-01T00:00:00.000Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY).toISOString();
const process = createGracePeriodProcess();
let position = 0;
const event = (type: string, data: unknown): SimAction => ({
  kind: 'event',
  event: { id: `e${++position}`, type, data, streamName: 'billing-u1', position, correlationId: null } satisfies ProcessEvent,
});
const failed = event('RenewalFailed', {
  subscriptionId: 's1',
  paymentId: 'p1',
  graceEndDate: at(14),
  storageDeletionDate: at(44),
  accountDeletionDate: at(74),
  at: at(0),
});
const advance = (days: number): SimAction => ({ kind: 'advance', ms: days * DAY });
const run = (actions: SimAction[]) => simulate(process, 'u1:s1', actions, T0);
const summary = (actions: SimAction[]) =>
  run(actions).commands.map((c) =>
    c.command.aggregate === 'mail' ? `mail ${(c.command.data as { template: string }).template}` : `${c.command.aggregate} ${c.command.type}`,
  );

describe('grace period process', () => {
  it('belongs to one subscription of one user', () => {
    const e = (failed as { event: ProcessEvent }).event;
    expect(process.type).toBe(GRACE_PERIOD_PROCESS);
    expect(process.correlate(e)).toBe('u1:s1');
    expect(process.correlate({ ...e, streamName: 'user-u1' })).toBeNull();
  });

  it('walks the whole timeline: warning, reminder, deactivation, storage deletion, reminders, account deletion', () => {
    expect(summary([failed, advance(80)])).toEqual([
      'mail payment-failed',
      'mail payment-reminder',
      'billing DeactivateForNonPayment',
      'mail account-deactivated',
      'mail payment-reminder',
      'billing MarkUnpaidStorageDeletionDue',
      'mail storage-deleted',
      'mail payment-reminder',
      'user DeleteAccount',
    ]);
    const trace = run([failed, advance(80)]);
    expect(trace.instance.done).toBe(true);
    expect((trace.instance.state as GracePeriodState).phase).toBe('account_deleted');
  });

  it('nothing happens before its time', () => {
    expect(summary([failed, advance(10)])).toEqual(['mail payment-failed']);
    expect(summary([failed, advance(13)])).toEqual(['mail payment-failed', 'mail payment-reminder']);
  });

  for (const [stage, days] of [
    ['grace', 5],
    ['deactivated', 20],
    ['storage_deleted', 50],
    ['last reminder', 70],
  ] as const) {
    it(`a payment ${stage === 'last reminder' ? 'after the last reminder' : `while ${stage}`} ends it: no deletion ever follows`, () => {
      const renewed = event('SubscriptionRenewed', { subscriptionId: 's1', paymentId: 'p2', nextPaymentDate: at(45), at: at(days) });
      const commands = summary([failed, advance(days), renewed, advance(100)]);
      expect(commands.at(-1)).toBe('mail payment-restored');
      expect(commands).not.toContain('user DeleteAccount');
      expect(run([failed, advance(days), renewed, advance(100)]).instance).toMatchObject({ done: true, state: { phase: 'paid' } });
    });
  }

  it('ends without a word when the unpaid subscription is cancelled or replaced', () => {
    const canceled = event('SubscriptionCanceled', { subscriptionId: 's1', endDate: at(3), by: 'plan_change', at: at(3) });
    const trace = run([failed, advance(3), canceled, advance(100)]);
    expect(trace.instance).toMatchObject({ done: true, state: { phase: 'closed' } });
    expect(trace.commands).toHaveLength(1);
  });
});

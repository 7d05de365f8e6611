import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { simulate, type SimAction } from '../testing/simulate';
import { createGracePeriodProcess } from './grace-period.process';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-05-01T00:00:00.000Z');
const iso = (days: number) => new Date(T0.getTime() + days * DAY).toISOString();
const process = createGracePeriodProcess();

const event = (n: number, type: string, data: unknown): SimAction => ({
  kind: 'event',
  event: { id: `e${n}`, type, data, streamName: 'billing-u1', position: n, correlationId: null } satisfies ProcessEvent,
});

describe('grace period over random timelines', () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 1, max: 90 }),
      fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
      fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }),
    ],
    { numRuns: 300 },
  )('the account is deleted exactly when no payment came before the deletion date, and only once', (grace, storageAfter, accountAfter, paidOnDay, steps) => {
    const graceEnd = grace;
    const storage = graceEnd + storageAfter;
    const account = storage + accountAfter;
    const actions: SimAction[] = [
      event(1, 'RenewalFailed', {
        subscriptionId: 's1',
        paymentId: 'p1',
        graceEndDate: iso(graceEnd),
        storageDeletionDate: iso(storage),
        accountDeletionDate: iso(account),
        at: iso(0),
      }),
    ];
    let day = 0;
    let paymentSent = paidOnDay === null;
    for (const step of [...steps, 400]) {
      const next = day + step;
      if (!paymentSent && paidOnDay! <= next) {
        actions.push({ kind: 'advance', ms: (paidOnDay! - day) * DAY });
        actions.push(event(2, 'SubscriptionRenewed', { subscriptionId: 's1', paymentId: 'p2', nextPaymentDate: iso(paidOnDay! + 30), at: iso(paidOnDay!) }));
        actions.push({ kind: 'advance', ms: (next - paidOnDay!) * DAY });
        paymentSent = true;
      } else actions.push({ kind: 'advance', ms: step * DAY });
      day = next;
    }
    const trace = simulate(process, 'u1:s1', actions, T0);
    const deletions = trace.commands.filter((c) => c.command.type === 'DeleteAccount');
    const paidInTime = paidOnDay !== null && paidOnDay < account;
    expect(deletions).toHaveLength(paidInTime ? 0 : 1);
    expect(trace.instance.done).toBe(true);
    const deactivations = trace.commands.filter((c) => c.command.type === 'DeactivateForNonPayment');
    expect(deactivations).toHaveLength(paidOnDay !== null && paidOnDay < graceEnd ? 0 : 1);
    // every command goes to this user
    for (const c of trace.commands) expect(c.command.aggregateId).toBe('u1');
  });
});

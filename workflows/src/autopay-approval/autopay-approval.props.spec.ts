import { describe, expect, it } from 'vitest';
import { startInstance, step, type Delivery, type ProcessInstance } from '../model/process';
import { AUTOPAY_EXPIRY_MS, AUTOPAY_REMINDER_MS, createAutoPayApprovalProcess, type AutoPayApprovalState } from './autopay-approval.process';

const definition = createAutoPayApprovalProcess();
const ref = { processType: definition.type, processId: 'prog-1.1' };
const T0 = new Date('2026-11-02T09:00:00Z');
const HOUR = 3_600_000;

let seq = 0;
const event = (type: string, data: Record<string, unknown>): Delivery => {
  const id = `e${++seq}`;
  return {
    input: { kind: 'event', event: { id, type, data: { submission: 1, ...data }, streamName: 'autopay-prog-1', position: seq, correlationId: null } },
    inputId: id,
    causationId: id,
  };
};

/** Feeds inputs as a runtime would, firing due timers in order as the clock moves. */
const drive = (inputs: { at: Date; delivery?: Delivery }[]) => {
  let instance: ProcessInstance<AutoPayApprovalState> = startInstance(definition);
  const commands: { type: string; at: string }[] = [];
  const apply = (delivery: Delivery, now: Date) => {
    const out = step(definition, ref, instance, delivery, now);
    if (out.kind !== 'applied') return;
    instance = out.instance;
    for (const c of out.commands) commands.push({ type: c.command.type, at: now.toISOString() });
  };
  for (const { at, delivery } of inputs) {
    for (;;) {
      const due = Object.entries(instance.timers)
        .filter(([, t]) => Date.parse(t.at) <= at.getTime())
        .sort(([, a], [, b]) => a.at.localeCompare(b.at))[0];
      if (!due) break;
      const [name, timer] = due;
      apply({ input: { kind: 'timer', name }, inputId: `timer:${timer.id}`, causationId: timer.cause, timerId: timer.id }, new Date(timer.at));
    }
    if (delivery) apply(delivery, at);
  }
  return { instance, commands };
};

describe('auto-pay approval process', () => {
  it('correlates each submission of a program to its own process', () => {
    expect(
      definition.correlate({ id: 'x', type: 'AutoPayProgramSubmitted', data: { submission: 2 }, streamName: 'autopay-abc', position: 1, correlationId: null }),
    ).toBe('abc.2');
    expect(
      definition.correlate({ id: 'x', type: 'AutoPayProgramSubmitted', data: {}, streamName: 'autopay-abc', position: 1, correlationId: null }),
    ).toBeNull();
    expect(
      definition.correlate({ id: 'x', type: 'AutoPayProgramSubmitted', data: { submission: 1 }, streamName: 'user-abc', position: 1, correlationId: null }),
    ).toBeNull();
  });

  it('reminds every day while it waits and expires the submission after 7 days', () => {
    const { instance, commands } = drive([
      { at: T0, delivery: event('AutoPayProgramSubmitted', { by: 'alice' }) },
      { at: new Date(T0.getTime() + AUTOPAY_EXPIRY_MS + HOUR) },
    ]);
    expect(commands.filter((c) => c.type === 'RemindApprovers')).toHaveLength(Math.floor(AUTOPAY_EXPIRY_MS / AUTOPAY_REMINDER_MS) - 1);
    expect(commands.at(-1)).toEqual({ type: 'ExpireApproval', at: new Date(T0.getTime() + AUTOPAY_EXPIRY_MS).toISOString() });
    expect(instance.done).toBe(true);
    expect(instance.state).toMatchObject({ phase: 'finished', outcome: 'expired' });
  });

  it('on approval stops waiting and asks for the payout; a partial failure waits for a retry, which pays again', () => {
    const approvedAt = new Date(T0.getTime() + 30 * HOUR);
    const { instance, commands } = drive([
      { at: T0, delivery: event('AutoPayProgramSubmitted', { by: 'alice' }) },
      { at: approvedAt, delivery: event('AutoPayProgramApproved', { by: 'bob' }) },
      { at: new Date(approvedAt.getTime() + 60_000), delivery: event('AutoPayPayoutFinished', { status: 'partially_failed' }) },
      { at: new Date(T0.getTime() + 30 * 24 * HOUR) },
      { at: new Date(T0.getTime() + 31 * 24 * HOUR), delivery: event('AutoPayRetryRequested', { attempt: 2 }) },
      { at: new Date(T0.getTime() + 32 * 24 * HOUR), delivery: event('AutoPayPayoutFinished', { status: 'paid' }) },
    ]);
    expect(commands.map((c) => c.type)).toEqual(['RemindApprovers', 'PayOut', 'PayOut']);
    expect(instance.timers).toEqual({});
    expect(instance.done).toBe(true);
    expect(instance.state).toMatchObject({ phase: 'finished', outcome: 'paid' });
  });

  it('a rejection, lock or cancellation ends the wait without a payout', () => {
    for (const type of ['AutoPayProgramRejected', 'AutoPayProgramLocked', 'AutoPayProgramCancelled']) {
      const { instance, commands } = drive([
        { at: T0, delivery: event('AutoPayProgramSubmitted', { by: 'alice' }) },
        { at: new Date(T0.getTime() + HOUR), delivery: event(type, { by: 'bob' }) },
        { at: new Date(T0.getTime() + AUTOPAY_EXPIRY_MS * 2) },
      ]);
      expect(commands, type).toEqual([]);
      expect(instance.done, type).toBe(true);
    }
  });
});

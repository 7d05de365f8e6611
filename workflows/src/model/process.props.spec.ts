import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalProbe, immediateProbe, timerProbe } from '../testing/probe-processes';
import { simulate, type SimAction } from '../testing/simulate';
import { defineProcess, earliestTimer, startInstance, step, type ProcessEvent } from './process';

const T0 = new Date('2026-03-02T09:00:00.000Z');
const SECOND = 1_000;

const started = (probeId: string, scenario: string, delayMs: number, id = `ev-${probeId}-${scenario}`): ProcessEvent => ({
  id,
  type: 'ProbeStarted',
  data: { probeId, scenario, delayMs },
  streamName: `probe-${probeId}`,
  position: 1,
  correlationId: 'corr-1',
});

/** Random histories for the approval probe: its start (maybe delivered twice), signals, time, stale timer jobs. */
const approvalActions = (delayMs: number) =>
  fc.array(
    fc.oneof(
      fc.constant<SimAction>({ kind: 'event', event: started('p', 'approval', delayMs) }),
      fc.record({
        kind: fc.constant('signal' as const),
        name: fc.constantFrom('approve', 'other'),
        id: fc.option(fc.constantFrom('s1', 's2'), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3 * delayMs }) }),
      fc.record({ kind: fc.constant('stale-timer' as const), name: fc.constantFrom('timeout', 'fire') }),
    ),
    { maxLength: 25 },
  );

const roundTrips = (value: unknown) => expect(JSON.parse(JSON.stringify(value))).toEqual(value);

describe('process model: step', () => {
  it('a finished process ignores every later input', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * SECOND }), approvalActions(5 * SECOND), (delay, actions) => {
        const trace = simulate(approvalProbe, 'p', [{ kind: 'event', event: started('p', 'approval', delay) }, ...actions], T0);
        const doneAt = trace.steps.findIndex((s) => s.instance.done);
        if (doneAt >= 0) {
          expect(trace.steps.slice(doneAt + 1).every((s) => s.outcome === 'ignored')).toBe(true);
          expect(trace.instance.timers).toEqual({});
        }
      }),
    );
  });

  it('the approval probe sends exactly one command once it is done, and none before', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * SECOND }), approvalActions(5 * SECOND), (delay, actions) => {
        const trace = simulate(approvalProbe, 'p', [{ kind: 'event', event: started('p', 'approval', delay) }, ...actions], T0);
        expect(trace.commands.length).toBe(trace.instance.done ? 1 : 0);
        const keys = trace.commands.map((c) => c.idempotencyKey);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it('a signal before the timer wins and cancels it; otherwise the timer wins', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 * SECOND }), approvalActions(5 * SECOND), (delay, actions) => {
        const trace = simulate(approvalProbe, 'p', [{ kind: 'event', event: started('p', 'approval', delay) }, ...actions], T0);
        const firstApprove = trace.steps.findIndex((s) => s.delivery.input.kind === 'signal' && s.delivery.input.name === 'approve');
        const firstTimer = trace.steps.findIndex((s) => s.delivery.input.kind === 'timer' && s.outcome === 'applied');
        const what = (trace.commands[0]?.command.data as { what?: string } | undefined)?.what;
        if (firstApprove >= 0 && (firstTimer < 0 || firstApprove < firstTimer)) expect(what).toBe('approved');
        else if (firstTimer >= 0) expect(what).toBe('timed-out');
        else expect(what).toBeUndefined();
      }),
    );
  });

  it('timers fire no earlier than they are due, and a fired timer is no longer pending when react runs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * SECOND }), approvalActions(5 * SECOND), (delay, actions) => {
        const trace = simulate(timerProbe, 'p', [{ kind: 'event', event: started('p', 'timer', delay) }, ...actions], T0);
        for (const s of trace.steps) {
          if (s.delivery.input.kind === 'timer' && s.outcome === 'applied') {
            expect(s.at.getTime()).toBe(T0.getTime() + delay);
            expect(s.instance.timers).not.toHaveProperty(s.delivery.input.name);
          }
        }
      }),
    );
  });

  it('stale timer jobs (replaced or cancelled timers) are ignored', () => {
    const instance = step(
      timerProbe,
      { processType: 'probe-timer', processId: 'p' },
      startInstance(timerProbe),
      {
        input: { kind: 'event', event: started('p', 'timer', 1000) },
        inputId: 'e1',
        causationId: 'e1',
      },
      T0,
    );
    if (instance.kind !== 'applied') throw new Error('not applied');
    const late = step(
      timerProbe,
      { processType: 'probe-timer', processId: 'p' },
      instance.instance,
      {
        input: { kind: 'timer', name: 'fire' },
        inputId: 'timer:old',
        causationId: null,
        timerId: 'an-older-timer',
      },
      new Date(T0.getTime() + 5000),
    );
    expect(late).toEqual({ kind: 'ignored', reason: 'stale_timer' });
  });

  it('is deterministic, and instances survive the JSON round trip of storage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * SECOND }), approvalActions(5 * SECOND), (delay, actions) => {
        const all: SimAction[] = [{ kind: 'event', event: started('p', 'approval', delay) }, ...actions];
        const a = simulate(approvalProbe, 'p', all, T0);
        const b = simulate(approvalProbe, 'p', all, T0);
        expect(b).toEqual(a);
        for (const s of a.steps) roundTrips(s.instance);
      }),
    );
  });

  it('commands name the process and the input in their idempotency key and carry the causation', () => {
    const trace = simulate(immediateProbe, 'p1', [{ kind: 'event', event: started('p1', 'immediate', 0, 'ev-9') }], T0);
    expect(trace.commands).toEqual([
      {
        command: { aggregate: 'probe', aggregateId: 'p1', type: 'RecordProbe', data: { probeId: 'p1', what: 'immediate', dueAt: null } },
        index: 0,
        inputId: 'ev-9',
        idempotencyKey: 'probe-immediate:p1:ev-9:0',
        causationId: 'ev-9',
      },
    ]);
  });

  it('commands sent when a timer fires carry the causation of the input that set it', () => {
    const trace = simulate(
      timerProbe,
      'p',
      [
        { kind: 'event', event: started('p', 'timer', 10, 'ev-start') },
        { kind: 'advance', ms: 10 },
      ],
      T0,
    );
    expect(trace.commands[0]).toMatchObject({ causationId: 'ev-start', inputId: expect.stringMatching(/^timer:/) });
  });

  it('setting a pending timer again replaces it; done drops every timer', () => {
    const def = defineProcess<{ n: number }>({
      type: 't',
      startsOn: ['E'],
      correlate: () => 'x',
      initialState: () => ({ n: 0 }),
      react: (state, input, now) => {
        if (input.kind === 'signal' && input.name === 'stop') return { state, done: true };
        return {
          state: { n: state.n + 1 },
          timers: {
            set: [
              { name: 'a', at: new Date(now.getTime() + 1000 * (state.n + 1)) },
              { name: `b${state.n}`, at: now },
            ],
          },
        };
      },
    });
    const ref = { processType: 't', processId: 'x' };
    const s1 = step(def, ref, startInstance(def), { input: { kind: 'signal', name: 'go', payload: null }, inputId: 's1', causationId: null }, T0);
    if (s1.kind !== 'applied') throw new Error();
    const s2 = step(def, ref, s1.instance, { input: { kind: 'signal', name: 'go', payload: null }, inputId: 's2', causationId: null }, T0);
    if (s2.kind !== 'applied') throw new Error();
    expect(Object.keys(s2.instance.timers).sort()).toEqual(['a', 'b0', 'b1']);
    expect(s2.instance.timers.a!.at).toBe(new Date(T0.getTime() + 2000).toISOString());
    expect(s2.instance.timers.a!.id).not.toBe(s1.instance.timers.a!.id);
    expect(earliestTimer(s2.instance)?.name).toBe('b0');
    const s3 = step(def, ref, s2.instance, { input: { kind: 'signal', name: 'stop', payload: null }, inputId: 's3', causationId: null }, T0);
    if (s3.kind !== 'applied') throw new Error();
    expect(s3.instance.timers).toEqual({});
    expect([...s3.timersCancelled].sort()).toEqual(['a', 'b0', 'b1']);
  });

  it('rejects malformed reactions', () => {
    const bad = defineProcess<null>({
      type: 'bad',
      startsOn: ['E'],
      correlate: () => 'x',
      initialState: () => null,
      react: (state) => ({ state, timers: { set: [{ name: 'a', at: new Date('nope') }] } }),
    });
    expect(() =>
      step(
        bad,
        { processType: 'bad', processId: 'x' },
        startInstance(bad),
        { input: { kind: 'signal', name: 's', payload: null }, inputId: 's', causationId: null },
        T0,
      ),
    ).toThrow(/no valid date/);
  });
});

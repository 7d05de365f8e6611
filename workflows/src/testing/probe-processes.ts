/*
 * Small processes used to prove the runtimes (contract suite, crash test, benchmark). Pure: this
 * file is also bundled into the Temporal test workflows.
 */
import { defineProcess, type ProcessCommand } from '../model/process';

export const PROBE_CATEGORY = 'probe';
export const PROBE_SCENARIOS = ['timer', 'approval', 'immediate', 'sequence'] as const;
export type ProbeScenario = (typeof PROBE_SCENARIOS)[number];

const record = (probeId: string, what: string, dueAt: string | null): ProcessCommand => ({
  aggregate: PROBE_CATEGORY,
  aggregateId: probeId,
  type: 'RecordProbe',
  data: { probeId, what, dueAt },
});

const startedProbe = (data: unknown, scenario: ProbeScenario): { probeId: string; delayMs: number } | null => {
  const d = data as { probeId?: unknown; scenario?: unknown; delayMs?: unknown };
  return d.scenario === scenario && typeof d.probeId === 'string' && typeof d.delayMs === 'number' ? { probeId: d.probeId, delayMs: d.delayMs } : null;
};

export type TimerProbeState =
  | { readonly phase: 'new' }
  | { readonly phase: 'waiting'; readonly probeId: string; readonly dueAt: string }
  | { readonly phase: 'fired'; readonly probeId: string };

/** Waits `delayMs` after it starts, then records `fired` once. */
export const timerProbe = defineProcess<TimerProbeState>({
  type: 'probe-timer',
  startsOn: ['ProbeStarted'],
  correlate: (event) => startedProbe(event.data, 'timer')?.probeId ?? null,
  initialState: () => ({ phase: 'new' }),
  react: (state, input, now) => {
    if (input.kind === 'event' && state.phase === 'new') {
      const started = startedProbe(input.event.data, 'timer');
      if (!started) return { state };
      const at = new Date(now.getTime() + started.delayMs);
      return { state: { phase: 'waiting', probeId: started.probeId, dueAt: at.toISOString() }, timers: { set: [{ name: 'fire', at }] } };
    }
    if (input.kind === 'timer' && input.name === 'fire' && state.phase === 'waiting') {
      return { state: { phase: 'fired', probeId: state.probeId }, commands: [record(state.probeId, 'fired', state.dueAt)], done: true };
    }
    return { state };
  },
});

export type ApprovalProbeState =
  | { readonly phase: 'new' }
  | { readonly phase: 'waiting'; readonly probeId: string; readonly dueAt: string }
  | { readonly phase: 'approved' | 'timed_out'; readonly probeId: string };

/** "Approve or time out": a signal `approve` before the timer wins and cancels it. */
export const approvalProbe = defineProcess<ApprovalProbeState>({
  type: 'probe-approval',
  startsOn: ['ProbeStarted'],
  correlate: (event) => startedProbe(event.data, 'approval')?.probeId ?? null,
  initialState: () => ({ phase: 'new' }),
  react: (state, input, now) => {
    if (input.kind === 'event' && state.phase === 'new') {
      const started = startedProbe(input.event.data, 'approval');
      if (!started) return { state };
      const at = new Date(now.getTime() + started.delayMs);
      return { state: { phase: 'waiting', probeId: started.probeId, dueAt: at.toISOString() }, timers: { set: [{ name: 'timeout', at }] } };
    }
    if (state.phase !== 'waiting') return { state };
    if (input.kind === 'signal' && input.name === 'approve') {
      return {
        state: { phase: 'approved', probeId: state.probeId },
        commands: [record(state.probeId, 'approved', null)],
        timers: { cancel: ['timeout'] },
        done: true,
      };
    }
    if (input.kind === 'timer' && input.name === 'timeout') {
      return { state: { phase: 'timed_out', probeId: state.probeId }, commands: [record(state.probeId, 'timed-out', state.dueAt)], done: true };
    }
    return { state };
  },
});

/** Sends one command as soon as it starts (retry and dead-letter tests). */
export const immediateProbe = defineProcess<{ readonly sent: boolean }>({
  type: 'probe-immediate',
  startsOn: ['ProbeStarted'],
  correlate: (event) => startedProbe(event.data, 'immediate')?.probeId ?? null,
  initialState: () => ({ sent: false }),
  react: (state, input) => {
    if (input.kind !== 'event' || state.sent) return { state };
    const started = startedProbe(input.event.data, 'immediate');
    return started ? { state: { sent: true }, commands: [record(started.probeId, 'immediate', null)], done: true } : { state };
  },
});

/**
 * Three timers at one, two and three `delayMs` after it starts, each recording its name when it fires.
 * Their names sort the other way round (by length, as PostgreSQL orders a jsonb object's keys), so
 * a runtime that fired due timers in the order it finds them, not by their times, shows.
 */
export const SEQUENCE_TIMERS = ['first-of-three', 'second', 'third'] as const;
export const sequenceProbe = defineProcess<{ readonly probeId: string | null; readonly fired: number }>({
  type: 'probe-sequence',
  startsOn: ['ProbeStarted'],
  correlate: (event) => startedProbe(event.data, 'sequence')?.probeId ?? null,
  initialState: () => ({ probeId: null, fired: 0 }),
  react: (state, input, now) => {
    if (input.kind === 'event' && state.probeId === null) {
      const started = startedProbe(input.event.data, 'sequence');
      if (!started) return { state };
      const set = SEQUENCE_TIMERS.map((name, i) => ({ name, at: new Date(now.getTime() + (i + 1) * started.delayMs) }));
      return { state: { probeId: started.probeId, fired: 0 }, timers: { set } };
    }
    if (input.kind === 'timer' && state.probeId !== null) {
      const fired = state.fired + 1;
      return { state: { ...state, fired }, commands: [record(state.probeId, input.name, null)], done: fired === SEQUENCE_TIMERS.length };
    }
    return { state };
  },
});

export const probeProcesses = [timerProbe, approvalProbe, immediateProbe, sequenceProbe];

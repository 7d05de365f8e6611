/*
 * A small aggregate, its processes and a real dispatcher used to prove the runtimes: the contract suite, the crash test
 * and the benchmark. Commands go through `handleCommand` into a real event store, so "exactly
 * once" is checked on stored events.
 */
import { z } from 'zod';
import { DomainError, EventRegistry, defineEvent, type Command, type Decider, type EventOf } from '@axel/domain';
import { handleCommand, newId, streamName, type EventStore } from '@axel/platform';
import type { ProcessCommand } from '../model/process';
import { PROBE_CATEGORY, PROBE_SCENARIOS, type ProbeScenario } from './probe-processes';
import { routeCommands, type CommandDispatcher, type DispatchContext } from '../runtime/port';

export const probeStream = (probeId: string) => streamName(PROBE_CATEGORY, probeId);

export const ProbeStarted = defineEvent(
  'ProbeStarted',
  z.object({ probeId: z.string(), scenario: z.enum(PROBE_SCENARIOS), delayMs: z.number().int().nonnegative() }),
);
export const ProbeRecorded = defineEvent('ProbeRecorded', z.object({ probeId: z.string(), what: z.string(), dueAt: z.string().nullable() }));
export type ProbeEvent = EventOf<typeof ProbeStarted> | EventOf<typeof ProbeRecorded>;

export type ProbeCommand =
  | Command<'StartProbe', { probeId: string; scenario: ProbeScenario; delayMs: number }>
  | Command<'RecordProbe', { probeId: string; what: string; dueAt: string | null }>;

export interface ProbeState {
  readonly started: boolean;
  readonly recorded: number;
}

/**
 * `RecordProbe` appends an event every time it is decided, on purpose: only the deterministic
 * event ids of a redelivered command keep it from being applied twice.
 */
export const probeDecider: Decider<ProbeCommand, ProbeEvent, ProbeState> = {
  initialState: () => ({ started: false, recorded: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ProbeStarted':
        return { ...state, started: true };
      case 'ProbeRecorded':
        return { ...state, recorded: state.recorded + 1 };
      default:
        return state;
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'StartProbe':
        return state.started ? [] : [{ type: 'ProbeStarted', data: command.data }];
      case 'RecordProbe':
        return [{ type: 'ProbeRecorded', data: command.data }];
    }
  },
};

export const probeRegistry = (registry = new EventRegistry()): EventRegistry => registry.register(ProbeStarted, ProbeRecorded);

// ---- the dispatcher and helpers ----------------------------------------------------------------

/** Makes chosen probes fail a number of times, or for good. */
export class ProbeFaults {
  private readonly remaining = new Map<string, { times: number; error: () => Error }>();
  readonly attempts = new Map<string, number>();

  failNext(probeId: string, times: number, error: () => Error = () => new Error('injected failure')): void {
    this.remaining.set(probeId, { times, error });
  }

  failAlways(probeId: string, error: () => Error = () => new DomainError({ code: 'PROBE_REJECTED', status: 409, message: 'rejected' })): void {
    this.remaining.set(probeId, { times: Number.POSITIVE_INFINITY, error });
  }

  heal(probeId: string): void {
    this.remaining.delete(probeId);
  }

  check(probeId: string): void {
    this.attempts.set(probeId, (this.attempts.get(probeId) ?? 0) + 1);
    const fault = this.remaining.get(probeId);
    if (!fault || fault.times <= 0) return;
    fault.times -= 1;
    throw fault.error();
  }
}

export interface ProbeKit {
  readonly registry: EventRegistry;
  readonly dispatcher: CommandDispatcher;
  readonly faults: ProbeFaults;
  /** Appends `ProbeStarted` through the command path, as a user would. */
  start(probeId: string, scenario: ProbeScenario, delayMs: number, now?: Date): Promise<number>;
}

export const createProbeKit = (store: EventStore, registry: EventRegistry = probeRegistry()): ProbeKit => {
  const faults = new ProbeFaults();
  const dispatcher = routeCommands({
    [PROBE_CATEGORY]: async (command: ProcessCommand, ctx: DispatchContext) => {
      faults.check(command.aggregateId);
      const result = await handleCommand(
        { store, registry },
        probeDecider,
        probeStream(command.aggregateId),
        { type: command.type, data: command.data, metadata: { now: ctx.now } } as ProbeCommand,
        ctx,
      );
      return { position: result.position };
    },
  });
  return {
    registry,
    dispatcher,
    faults,
    start: async (probeId, scenario, delayMs, now = new Date()) => {
      const result = await handleCommand(
        { store, registry },
        probeDecider,
        probeStream(probeId),
        { type: 'StartProbe', data: { probeId, scenario, delayMs }, metadata: { now } },
        { actorId: 'tester', actorKind: 'user', correlationId: newId() },
      );
      return result.position;
    },
  };
};

export * from './probe-processes';

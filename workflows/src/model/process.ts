/*
 * The process model: pure functions only. This file (and everything it imports) is bundled into
 * Temporal workflow code, so it must not import Node modules, read the clock or do I/O.
 */

/** A domain event as a process sees it (JSON-serialisable: it travels through Temporal signals). */
export interface ProcessEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly streamName: string;
  readonly position: number;
  /** The correlation id of the event's metadata, when it has one. */
  readonly correlationId: string | null;
}

export type ProcessInput =
  | { readonly kind: 'event'; readonly event: ProcessEvent }
  | { readonly kind: 'signal'; readonly name: string; readonly payload: unknown }
  | { readonly kind: 'timer'; readonly name: string };

/**
 * A command a process sends: which aggregate instance, which command, with what data. The
 * runtime hands it to the `CommandDispatcher`, which runs the same command handlers as the API.
 */
export interface ProcessCommand {
  readonly aggregate: string;
  readonly aggregateId: string;
  readonly type: string;
  readonly data: unknown;
}

export interface TimerRequest {
  readonly name: string;
  readonly at: Date;
}

export interface Reaction<State> {
  readonly state: State;
  readonly commands?: readonly ProcessCommand[];
  /** Setting a timer whose name is pending replaces it; cancelling an unknown name does nothing. */
  readonly timers?: { readonly set?: readonly TimerRequest[]; readonly cancel?: readonly string[] };
  /** The process is finished: its pending timers are dropped and later inputs are ignored. */
  readonly done?: boolean;
}

/**
 * One long-lived process. `react` is pure: the same state, input and `now` always give the same
 * reaction. State must survive a JSON round trip (it is stored as jsonb and in Temporal history).
 */
export interface ProcessDefinition<State = unknown, Input extends ProcessInput = ProcessInput> {
  /** Unique name; with the process id it names the actor of every command the process sends. */
  readonly type: string;
  /** Event types that start a process (and are delivered to it when it already runs). */
  readonly startsOn: readonly string[];
  /** Further event types delivered to a running process. */
  readonly reactsTo?: readonly string[];
  /** The process an event belongs to; null when the event is not for this process type. */
  correlate(event: ProcessEvent): string | null;
  initialState(): State;
  react(state: State, input: Input, now: Date): Reaction<State>;
}

/** Identity helper that keeps the state type of a definition. */
export const defineProcess = <State, Input extends ProcessInput = ProcessInput>(definition: ProcessDefinition<State, Input>): ProcessDefinition<State, Input> =>
  definition;

/** The event types a set of definitions needs to see. */
export const subscribedEventTypes = (definitions: readonly ProcessDefinition<any, any>[]): string[] => [
  ...new Set(definitions.flatMap((d) => [...d.startsOn, ...(d.reactsTo ?? [])])),
];

// ---- the runtime-independent core both runtimes drive ------------------------------------------

export interface PendingTimer {
  /** ISO-8601 due time. */
  readonly at: string;
  /** Unique within the process: a fired or replaced timer can never be mistaken for this one. */
  readonly id: string;
  /** Causation of the input that set the timer, passed on to the commands sent when it fires. */
  readonly cause: string | null;
}

export interface ProcessInstance<State = unknown> {
  readonly state: State;
  readonly timers: Readonly<Record<string, PendingTimer>>;
  readonly done: boolean;
  /** Inputs applied so far. */
  readonly inputs: number;
}

export interface ProcessRef {
  readonly processType: string;
  readonly processId: string;
}

/** An input with the identity the runtime gave it. */
export interface Delivery {
  readonly input: ProcessInput;
  /** Unique per process: an event id, `signal:<id>` or `timer:<timer id>`. */
  readonly inputId: string;
  readonly causationId: string | null;
  /** For timer inputs: which pending timer fired. */
  readonly timerId?: string;
}

export interface PlannedCommand {
  readonly command: ProcessCommand;
  readonly index: number;
  readonly inputId: string;
  /** Derived from (process, input, index): a redelivered command appends the same event ids. */
  readonly idempotencyKey: string;
  readonly causationId: string | null;
}

export type StepOutcome<State> =
  | { readonly kind: 'ignored'; readonly reason: 'done' | 'stale_timer' }
  | {
      readonly kind: 'applied';
      readonly instance: ProcessInstance<State>;
      readonly commands: readonly PlannedCommand[];
      readonly timersSet: readonly (PendingTimer & { readonly name: string })[];
      readonly timersCancelled: readonly string[];
    };

export class InvalidReactionError extends Error {
  constructor(processType: string, detail: string) {
    super(`Process ${processType} returned an invalid reaction: ${detail}`);
    this.name = 'InvalidReactionError';
  }
}

export const idempotencyKeyOf = (ref: ProcessRef, inputId: string, index: number): string => `${ref.processType}:${ref.processId}:${inputId}:${index}`;

export const startInstance = <State>(definition: ProcessDefinition<State, any>): ProcessInstance<State> => ({
  state: definition.initialState(),
  timers: {},
  done: false,
  inputs: 0,
});

export const earliestTimer = (instance: Pick<ProcessInstance, 'timers'>): (PendingTimer & { readonly name: string }) | undefined => {
  let best: (PendingTimer & { name: string }) | undefined;
  for (const [name, timer] of Object.entries(instance.timers)) {
    if (!best || timer.at < best.at || (timer.at === best.at && name < best.name)) best = { name, ...timer };
  }
  return best;
};

/** The timer input for a pending timer. */
export const timerDelivery = (name: string, timer: PendingTimer): Delivery => ({
  input: { kind: 'timer', name },
  inputId: `timer:${timer.id}`,
  causationId: timer.cause,
  timerId: timer.id,
});

const isValidDate = (value: unknown): value is Date => value instanceof Date && !Number.isNaN(value.getTime());

/**
 * Applies one input: the one rule set both runtimes follow. A finished process ignores inputs; a
 * timer input counts only while its timer is still pending (a cancelled or replaced timer that
 * fires late is ignored); a fired timer is no longer pending when `react` sees the input.
 */
export const step = <State>(
  definition: ProcessDefinition<State, any>,
  ref: ProcessRef,
  instance: ProcessInstance<State>,
  delivery: Delivery,
  now: Date,
): StepOutcome<State> => {
  if (instance.done) return { kind: 'ignored', reason: 'done' };
  let timers: Record<string, PendingTimer> = { ...instance.timers };
  if (delivery.input.kind === 'timer') {
    const pending = timers[delivery.input.name];
    if (!pending || pending.id !== delivery.timerId) return { kind: 'ignored', reason: 'stale_timer' };
    delete timers[delivery.input.name];
  }
  const reaction = definition.react(instance.state, delivery.input, now);
  if (!reaction || typeof reaction !== 'object' || !('state' in reaction)) {
    throw new InvalidReactionError(ref.processType, 'no state');
  }
  const seq = instance.inputs + 1;
  const cancelled: string[] = [];
  for (const name of reaction.timers?.cancel ?? []) {
    if (timers[name]) {
      delete timers[name];
      cancelled.push(name);
    }
  }
  const set: (PendingTimer & { name: string })[] = [];
  for (const request of reaction.timers?.set ?? []) {
    if (!request || typeof request.name !== 'string' || request.name === '') {
      throw new InvalidReactionError(ref.processType, 'a timer needs a name');
    }
    if (!isValidDate(request.at)) throw new InvalidReactionError(ref.processType, `timer ${request.name} has no valid date`);
    const timer: PendingTimer = { at: request.at.toISOString(), id: `${seq}:${request.name}`, cause: delivery.causationId };
    timers[request.name] = timer;
    const already = set.findIndex((t) => t.name === request.name);
    if (already >= 0) set.splice(already, 1);
    set.push({ name: request.name, ...timer });
  }
  const done = reaction.done === true;
  if (done) {
    for (const name of Object.keys(timers)) if (!cancelled.includes(name)) cancelled.push(name);
    timers = {};
  }
  const commands = (reaction.commands ?? []).map((command, index): PlannedCommand => {
    if (!command || typeof command.type !== 'string' || typeof command.aggregate !== 'string' || typeof command.aggregateId !== 'string') {
      throw new InvalidReactionError(ref.processType, `command ${index} needs aggregate, aggregateId and type`);
    }
    return {
      command,
      index,
      inputId: delivery.inputId,
      idempotencyKey: idempotencyKeyOf(ref, delivery.inputId, index),
      causationId: delivery.causationId,
    };
  });
  return {
    kind: 'applied',
    instance: { state: reaction.state, timers, done, inputs: seq },
    commands,
    // a timer set and then dropped because the process finished is not reported as set
    timersSet: done ? [] : set,
    timersCancelled: cancelled.filter((name) => !(name in timers)),
  };
};

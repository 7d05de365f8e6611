import type { DomainEvent } from './events';

/** Time and other outside facts reach `decide` through the command, never through a clock read. */
export interface CommandMetadata {
  readonly now: Date;
}

export interface Command<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
  readonly metadata: CommandMetadata;
}

/**
 * An aggregate as three pure functions. `decide` returns the events a command produces or throws
 * a DomainError; `evolve` folds one event into the state and ignores events it does not know.
 */
export interface Decider<C extends Command, E extends DomainEvent, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

export const fold = <E extends DomainEvent, S>(decider: Pick<Decider<Command, E, S>, 'evolve' | 'initialState'>, events: readonly E[]): S =>
  events.reduce(decider.evolve, decider.initialState());

export const assertNever = (value: never): never => {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
};

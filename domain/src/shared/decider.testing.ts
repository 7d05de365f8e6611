import { expect } from 'vitest';
import { DomainError, type ErrorDefinition } from './errors';

/**
 * Given/when/then for deciders, in the shape of Emmett's `DeciderSpecification`:
 *
 *   const spec = DeciderSpecification.for(userDecider);
 *   spec.given([registered]).when(signIn).then([signedIn]);
 *   spec.given([]).when(signIn).thenThrows(AccountErrors.userNotFound);
 *
 * The given events are folded from the initial state, the command is decided once on that state,
 * and the outcome is compared with what the test expects. Decided events are also folded back, so
 * `thenState` sees the state the next command would see.
 */

/** Anything shaped as a decider; `decide` may take more arguments after the state (outside facts). */
export interface DeciderUnderTest<C, E, S, Extra extends unknown[] = []> {
  decide(command: C, state: S, ...extra: Extra): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

export interface DeciderSpecificationOptions<E> {
  /** Runs on every decided event, e.g. to prove it can be stored as it is. */
  readonly eachEvent?: (event: E) => void;
}

/** An error the command must be refused with: its definition, or a check on the thrown value that throws or returns false when it is not. */
export type ExpectedError = ErrorDefinition | ((error: unknown) => unknown);

export interface DeciderOutcome<E, S> {
  /** The command decides exactly these events, or the events pass the check. */
  then(expected: E | readonly E[] | ((events: E[]) => void)): void;
  /** The command is accepted and decides no event. */
  thenNothingHappened(): void;
  /** The command is accepted; the check sees the state after its events, and the events. */
  thenState(check: (state: S, events: E[]) => void): void;
  /**
   * The command is refused. With an ErrorDefinition the error is a DomainError of that code and
   * status (and, when given, that data); with a function the function must not return false. The
   * caught error is returned for further checks.
   */
  thenThrows(expected?: ExpectedError, data?: Record<string, unknown>): unknown;
}

export interface DeciderGiven<C, E, S, Extra extends unknown[]> {
  when(command: C, ...extra: Extra): DeciderOutcome<E, S>;
}

export type DeciderSpecification<C, E, S, Extra extends unknown[] = []> = (givenEvents: E | readonly E[]) => DeciderGiven<C, E, S, Extra>;

const asArray = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? (value as readonly T[]) : [value as T]);

const isErrorDefinition = (value: ExpectedError): value is ErrorDefinition => typeof value === 'object' && value !== null && 'code' in value;

const checkError = (error: unknown, expected: ExpectedError | undefined, data: Record<string, unknown> | undefined): void => {
  if (expected === undefined) return;
  if (isErrorDefinition(expected)) {
    expect(error, `expected the command to be refused with ${expected.code}`).toBeInstanceOf(DomainError);
    const refusal = error as DomainError;
    expect({ code: refusal.code, status: refusal.status }).toEqual({ code: expected.code, status: expected.status });
    if (data !== undefined) expect(refusal.data).toEqual(data);
    return;
  }
  if (expected(error) === false) throw new Error(`The command was refused with an error the check does not accept: ${String(error)}`);
};

function specificationFor<C, E, S, Extra extends unknown[] = []>(
  decider: DeciderUnderTest<C, E, S, Extra>,
  options: DeciderSpecificationOptions<E> = {},
): DeciderSpecification<C, E, S, Extra> {
  return (givenEvents) => {
    const given = asArray(givenEvents);
    return {
      when: (command, ...extra) => {
        const state = given.reduce(decider.evolve, decider.initialState());
        const decideOnce = (): E[] => {
          const events = decider.decide(command, state, ...extra);
          if (options.eachEvent) for (const event of events) options.eachEvent(event);
          return events;
        };
        return {
          then: (expected) => {
            const events = decideOnce();
            if (typeof expected === 'function') (expected as (events: E[]) => void)(events);
            else expect(events).toEqual(asArray(expected));
          },
          thenNothingHappened: () => {
            expect(decideOnce()).toEqual([]);
          },
          thenState: (check) => {
            const events = decideOnce();
            check(events.reduce(decider.evolve, state), events);
          },
          thenThrows: (expected, data) => {
            let events: E[];
            try {
              events = decideOnce();
            } catch (error) {
              checkError(error, expected, data);
              return error;
            }
            throw new Error(`The command was expected to be refused, but it decided ${JSON.stringify(events)}`);
          },
        };
      },
    };
  };
}

/**
 * The given events of a history that is shorter to tell in commands: each command decided on the
 * state the events before it fold to, as the command handler does. A refused command fails the
 * test (a refusal under test is a `thenThrows`).
 */
function historyOf<C, E, S, Extra extends unknown[] = []>(
  decider: DeciderUnderTest<C, E, S, Extra>,
  commands: readonly C[],
  given: readonly E[] = [],
  options: DeciderSpecificationOptions<E> = {},
  ...extra: Extra
): E[] {
  const events = [...given];
  for (const command of commands) {
    const decided = decider.decide(command, events.reduce(decider.evolve, decider.initialState()), ...extra);
    if (options.eachEvent) for (const event of decided) options.eachEvent(event);
    events.push(...decided);
  }
  return events;
}

export const DeciderSpecification = { for: specificationFor, history: historyOf };

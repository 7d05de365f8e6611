import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from './decider.testing';
import { DomainError, defineErrors } from './errors';

const CounterErrors = defineErrors({
  tooMany: { code: 'TOO_MANY', status: 409, message: 'Too many' },
  other: { code: 'OTHER', status: 409, message: 'Other' },
});
type CounterCommand = { type: 'Add'; data: { by: number }; metadata: { now: Date } };
type CounterEvent = { type: 'Added'; data: { by: number; at: string } };
type CounterState = { total: number };

const counterDecider = {
  decide: (command: CounterCommand, state: CounterState, limit = 10): CounterEvent[] => {
    if (command.data.by === 0) return [];
    if (state.total + command.data.by > limit) throw new DomainError(CounterErrors.tooMany, { total: state.total });
    return [{ type: 'Added', data: { by: command.data.by, at: command.metadata.now.toISOString() } }];
  },
  evolve: (state: CounterState, event: CounterEvent): CounterState => ({ total: state.total + event.data.by }),
  initialState: (): CounterState => ({ total: 0 }),
};

const now = new Date('2026-01-01T00:00:00.000Z');
const add = (by: number): CounterCommand => ({ type: 'Add', data: { by }, metadata: { now } });
const added = (by: number): CounterEvent => ({ type: 'Added', data: { by, at: now.toISOString() } });
const spec = DeciderSpecification.for(counterDecider);

describe('DeciderSpecification', () => {
  it('folds the given events, decides the command once and compares the events', () => {
    spec([added(3), added(4)])
      .when(add(3))
      .then([added(3)]);
    spec(added(3)).when(add(3)).then(added(3));
    spec([])
      .when(add(1))
      .then((events) => expect(events[0]!.data.by).toBe(1));
    spec([]).when(add(0)).thenNothingHappened();
    spec([added(3)])
      .when(add(2))
      .thenState((state, events) => {
        expect(state).toEqual({ total: 5 });
        expect(events).toEqual([added(2)]);
      });
  });

  it('fails when the events differ from the expected ones', () => {
    expect(() =>
      spec([])
        .when(add(1))
        .then([added(2)]),
    ).toThrow();
    expect(() => spec([]).when(add(1)).then([])).toThrow();
    expect(() => spec([]).when(add(1)).thenNothingHappened()).toThrow();
    expect(() =>
      spec([])
        .when(add(1))
        .then(() => expect(1).toBe(2)),
    ).toThrow();
  });

  it('checks a refusal by its error definition and data, or by a check, and hands the error back', () => {
    spec([added(10)])
      .when(add(1))
      .thenThrows(CounterErrors.tooMany);
    spec([added(10)])
      .when(add(1))
      .thenThrows(CounterErrors.tooMany, { total: 10 });
    spec([added(10)])
      .when(add(1))
      .thenThrows((error) => error instanceof DomainError);
    expect(
      spec([added(10)])
        .when(add(1))
        .thenThrows(),
    ).toBeInstanceOf(DomainError);
  });

  it('fails when the command is accepted, or refused with another error', () => {
    expect(() => spec([]).when(add(1)).thenThrows(CounterErrors.tooMany)).toThrow(/expected to be refused/);
    expect(() => spec([]).when(add(1)).thenThrows()).toThrow(/expected to be refused/);
    expect(() =>
      spec([added(10)])
        .when(add(1))
        .thenThrows(CounterErrors.other),
    ).toThrow();
    expect(() =>
      spec([added(10)])
        .when(add(1))
        .thenThrows(CounterErrors.tooMany, { total: 9 }),
    ).toThrow();
    expect(() =>
      spec([added(10)])
        .when(add(1))
        .thenThrows(() => false),
    ).toThrow(/does not accept/);
    expect(() =>
      spec([added(10)])
        .when(add(1))
        .then([]),
    ).toThrow(DomainError);
  });

  it('passes outside facts after the state, and runs a check on every decided event', () => {
    const seen: CounterEvent[] = [];
    const checked = DeciderSpecification.for(counterDecider, { eachEvent: (event) => seen.push(event) });
    checked([added(10)])
      .when(add(5), 20)
      .then([added(5)]);
    expect(seen).toEqual([added(5)]);
    const refusing = DeciderSpecification.for(counterDecider, {
      eachEvent: () => {
        throw new Error('not storable');
      },
    });
    expect(() =>
      refusing([])
        .when(add(1))
        .then([added(1)]),
    ).toThrow('not storable');
  });

  it('tells a given history in commands, each decided on the events before it, and fails on a refused one', () => {
    expect(DeciderSpecification.history(counterDecider, [add(3), add(0), add(4)], [added(1)])).toEqual([added(1), added(3), added(4)]);
    expect(() => DeciderSpecification.history(counterDecider, [add(6), add(6)])).toThrow(DomainError);
    const seen: CounterEvent[] = [];
    DeciderSpecification.history(counterDecider, [add(2)], [], { eachEvent: (event) => seen.push(event) });
    expect(seen).toEqual([added(2)]);
  });
});

import {
  earliestTimer,
  startInstance,
  step,
  timerDelivery,
  type Delivery,
  type PlannedCommand,
  type ProcessDefinition,
  type ProcessEvent,
  type ProcessInstance,
} from '../model/process';

/** What happens to a process, in order, in a property test. */
export type SimAction =
  | { readonly kind: 'event'; readonly event: ProcessEvent }
  | { readonly kind: 'signal'; readonly name: string; readonly payload?: unknown; readonly id?: string }
  /** Time passes; the timers due by then fire in due order. */
  | { readonly kind: 'advance'; readonly ms: number }
  /** A timer job that fires late for a timer that was replaced or cancelled. */
  | { readonly kind: 'stale-timer'; readonly name: string };

export interface SimTrace<State> {
  readonly instance: ProcessInstance<State>;
  readonly commands: PlannedCommand[];
  /** Every input with its outcome and the time it was applied. */
  readonly steps: { readonly delivery: Delivery; readonly at: Date; readonly outcome: 'applied' | 'ignored'; readonly instance: ProcessInstance<State> }[];
  readonly now: Date;
}

/**
 * A pure, in-memory runtime: the reference the real runtimes are checked against. Inputs
 * already seen (same input id) are skipped, as the runtimes' dedupe does.
 */
export const simulate = <State>(definition: ProcessDefinition<State, any>, processId: string, actions: readonly SimAction[], start: Date): SimTrace<State> => {
  const ref = { processType: definition.type, processId };
  let instance = startInstance(definition);
  let now = start.getTime();
  const seen = new Set<string>();
  const commands: PlannedCommand[] = [];
  const steps: SimTrace<State>['steps'][number][] = [];
  let signals = 0;
  const apply = (delivery: Delivery) => {
    if (seen.has(delivery.inputId)) return;
    seen.add(delivery.inputId);
    const at = new Date(now);
    const outcome = step(definition, ref, instance, delivery, at);
    if (outcome.kind === 'applied') {
      instance = outcome.instance;
      commands.push(...outcome.commands);
    }
    steps.push({ delivery, at, outcome: outcome.kind, instance });
  };
  for (const action of actions) {
    switch (action.kind) {
      case 'event':
        apply({ input: { kind: 'event', event: action.event }, inputId: action.event.id, causationId: action.event.id });
        break;
      case 'signal':
        apply({
          input: { kind: 'signal', name: action.name, payload: action.payload ?? null },
          inputId: `signal:${action.id ?? ++signals}`,
          causationId: null,
        });
        break;
      case 'stale-timer':
        apply({ input: { kind: 'timer', name: action.name }, inputId: `timer:stale:${steps.length}`, causationId: null, timerId: 'stale' });
        break;
      case 'advance': {
        const until = now + action.ms;
        let fired = 0;
        for (let due = earliestTimer(instance); due && Date.parse(due.at) <= until; due = earliestTimer(instance)) {
          if (++fired > 10_000) throw new Error(`${definition.type} keeps setting timers that are already due`);
          now = Math.max(now, Date.parse(due.at));
          apply(timerDelivery(due.name, due));
        }
        now = until;
        break;
      }
    }
  }
  return { instance, commands, steps, now: new Date(now) };
};

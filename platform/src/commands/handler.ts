import type { Command, Decider, DomainEvent, EventMetadata, EventRegistry } from '@axel/domain';
import { deterministicId, newId } from '../ids';
import { WrongExpectedRevisionError, expected, type EventStore, type GlobalPosition } from '../eventstore/port';

/** Who sends the command and from where; becomes every resulting event's metadata. */
export interface CommandContext {
  readonly actorId: string | null;
  readonly actorKind: EventMetadata['actorKind'];
  readonly ip?: string | null;
  readonly userAgent?: string | null;
  readonly client?: string | null;
  readonly correlationId?: string;
  readonly causationId?: string | null;
  /**
   * When set, event ids derive from it: a retried delivery of the same command appends the same
   * ids, which the store treats as already done (effectively-once).
   */
  readonly idempotencyKey?: string;
}

export interface CommandResult<E extends DomainEvent, S> {
  readonly events: E[];
  readonly state: S;
  readonly revision: number;
  /** Position of the last event written; 0 when the command produced no event. */
  readonly position: GlobalPosition;
}

export interface CommandHandlerDeps {
  readonly store: EventStore;
  readonly registry: EventRegistry;
  readonly now?: () => Date;
  readonly maxRetries?: number;
}

export const metadataFor = (ctx: CommandContext, time: Date): EventMetadata => ({
  actorId: ctx.actorId,
  actorKind: ctx.actorKind,
  ip: ctx.ip ?? null,
  userAgent: ctx.userAgent ?? null,
  client: ctx.client ?? null,
  correlationId: ctx.correlationId ?? newId(),
  causationId: ctx.causationId ?? null,
  time: time.toISOString(),
});

/** Loads a stream and folds it (events are upcast to their newest version on the way). */
export const loadState = async <E extends DomainEvent, S>(
  deps: Pick<CommandHandlerDeps, 'store' | 'registry'>,
  decider: Pick<Decider<Command, E, S>, 'evolve' | 'initialState'>,
  streamName: string,
): Promise<{ state: S; revision: number }> => {
  const { revision, events } = await deps.store.readStream(streamName);
  let state = decider.initialState();
  for (const recorded of events) {
    state = decider.evolve(state, deps.registry.decode(recorded.type, recorded.schemaVersion, recorded.data) as E);
  }
  return { state, revision };
};

/**
 * The one command path: load, fold, decide, append with the expected revision; on a concurrent
 * write, start over with the fresh state. Domain errors from `decide` pass through unchanged.
 */
export const handleCommand = async <C extends Command, E extends DomainEvent, S>(
  deps: CommandHandlerDeps,
  decider: Decider<C, E, S>,
  streamName: string,
  command: C,
  ctx: CommandContext,
): Promise<CommandResult<E, S>> => {
  const maxRetries = deps.maxRetries ?? 10;
  for (let attempt = 0; ; attempt++) {
    const { state, revision } = await loadState(deps, decider, streamName);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, revision, position: 0 };
    const metadata = metadataFor(ctx, command.metadata.now);
    const toAppend = events.map((event, index) => ({
      id: ctx.idempotencyKey ? deterministicId(ctx.idempotencyKey, streamName, String(index)) : newId(),
      ...deps.registry.encode(event),
      metadata,
    }));
    try {
      const result = await deps.store.append(streamName, toAppend, expected.revision(revision));
      return {
        events,
        state: events.reduce(decider.evolve, state),
        revision: result.nextRevision,
        position: result.position,
      };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < maxRetries) continue;
      throw error;
    }
  }
};

import type { EventRegistry } from '@axel/domain';
import type { EventStore, RecordedEvent } from '@axel/platform';
import type pg from 'pg';
import { subscribedEventTypes, type ProcessDefinition, type ProcessEvent } from '../model/process';

export interface RoutedEvent {
  readonly definition: ProcessDefinition<any, any>;
  readonly processId: string;
  readonly event: ProcessEvent;
}

/**
 * Which processes a stored event is for, the same way for both runtimes: the definitions that
 * subscribe to its type, each correlating it to a process id (or not). Events are upcast to their
 * newest version first when a registry is given.
 */
export class EventRouter {
  private readonly byEventType = new Map<string, ProcessDefinition<any, any>[]>();

  constructor(
    definitions: readonly ProcessDefinition<any, any>[],
    private readonly registry: EventRegistry | undefined,
    private readonly onCorrelateError: (definition: ProcessDefinition<any, any>, event: ProcessEvent, error: unknown) => void,
  ) {
    for (const definition of definitions) {
      for (const type of subscribedEventTypes([definition])) {
        this.byEventType.set(type, [...(this.byEventType.get(type) ?? []), definition]);
      }
    }
  }

  /** The event types to subscribe to. */
  get types(): string[] {
    return [...this.byEventType.keys()];
  }

  route(recorded: RecordedEvent): RoutedEvent[] {
    const definitions = this.byEventType.get(recorded.type);
    if (!definitions) return [];
    const event = this.toProcessEvent(recorded);
    const routed: RoutedEvent[] = [];
    for (const definition of definitions) {
      let processId: string | null;
      try {
        processId = definition.correlate(event);
      } catch (error) {
        this.onCorrelateError(definition, event, error);
        continue;
      }
      if (processId) routed.push({ definition, processId, event });
    }
    return routed;
  }

  private toProcessEvent(event: RecordedEvent): ProcessEvent {
    const registry = this.registry;
    // Processes keep their inputs (and Temporal its history): they get ids, never personal data.
    const data =
      registry && registry.has(event.type)
        ? registry.withoutPersonalData(event.type, registry.decode(event.type, event.schemaVersion, event.data).data)
        : event.data;
    return {
      id: event.id,
      type: event.type,
      data,
      streamName: event.streamName,
      position: event.position,
      correlationId: event.metadata?.correlationId ?? null,
    };
  }
}

/** A subscriber's checkpoint in `wf_checkpoints`, created (at the start or the head) when missing. */
export const readProcessCheckpoint = async (pool: pg.Pool, store: EventStore, name: string, startFrom: 'beginning' | 'end' | undefined): Promise<number> => {
  const start = startFrom === 'end' ? await store.headPosition() : 0;
  await pool.query('insert into wf_checkpoints (name, position) values ($1, $2) on conflict do nothing', [name, start]);
  const { rows } = await pool.query<{ position: string }>('select position from wf_checkpoints where name = $1', [name]);
  return Number(rows[0]!.position);
};

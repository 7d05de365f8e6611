import { z } from 'zod';

/** Who did it, from where, and why: the activity log auditors replay. */
export const EventMetadataSchema = z.object({
  actorId: z.string().nullable(),
  actorKind: z.enum(['user', 'staff', 'process', 'system', 'anonymous']),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  client: z.string().nullable(),
  correlationId: z.string(),
  causationId: z.string().nullable(),
  time: z.string(),
});
export type EventMetadata = z.infer<typeof EventMetadataSchema>;

/** A domain event as deciders see it: a type and its data. */
export interface DomainEvent<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
}

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly version: number;
  readonly schema: S;
  /** upcasters[n] turns data stored at version n into version n + 1. */
  readonly upcasters: Readonly<Record<number, (data: unknown) => unknown>>;
}

export const defineEvent = <T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
  options: { version?: number; upcasters?: Record<number, (data: unknown) => unknown> } = {},
): EventDefinition<T, S> => ({
  type,
  schema,
  version: options.version ?? 1,
  upcasters: options.upcasters ?? {},
});

export type EventOf<D extends EventDefinition> = DomainEvent<D['type'], z.infer<D['schema']>>;

export class UnknownEventTypeError extends Error {
  constructor(readonly eventType: string) {
    super(`Unknown event type ${eventType}`);
    this.name = 'UnknownEventTypeError';
  }
}

/**
 * Knows every event schema: validates data before it is stored and upcasts stored data to the
 * current version on read, so deciders and projections only ever see the newest shape.
 */
export class EventRegistry {
  private readonly definitions = new Map<string, EventDefinition>();

  register(...definitions: EventDefinition[]): this {
    for (const def of definitions) {
      if (this.definitions.has(def.type)) throw new Error(`Event type ${def.type} registered twice`);
      this.definitions.set(def.type, def);
    }
    return this;
  }

  has(type: string): boolean {
    return this.definitions.has(type);
  }

  types(): string[] {
    return [...this.definitions.keys()];
  }

  encode(event: DomainEvent): { type: string; data: unknown; schemaVersion: number } {
    const def = this.require(event.type);
    return { type: event.type, data: def.schema.parse(event.data), schemaVersion: def.version };
  }

  decode(type: string, schemaVersion: number, data: unknown): DomainEvent {
    const def = this.require(type);
    let current = data;
    for (let v = schemaVersion; v < def.version; v++) {
      const up = def.upcasters[v];
      if (!up) throw new Error(`No upcaster for ${type} from version ${v}`);
      current = up(current);
    }
    return { type, data: def.schema.parse(current) };
  }

  private require(type: string): EventDefinition {
    const def = this.definitions.get(type);
    if (!def) throw new UnknownEventTypeError(type);
    return def;
  }
}

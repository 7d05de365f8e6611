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

/**
 * What personal data sits in events and when it is forgotten (crypto-shredding). The data subject
 * of an event's personal fields is its stream (`user-<id>`, `mail-<id>`, ...): the fields are kept
 * encrypted under that subject's key, outside the log, and read as {@link ERASED} once the key is
 * destroyed. Metadata ip and user agent belong to the acting person and are handled for every
 * event without being declared.
 */
export interface PersonalData {
  /** Top-level data fields holding personal data (e-mail, names, free text, ip, password hash...). */
  readonly fields: readonly string[];
}

/** What an erased personal value reads as, wherever its schema accepts it (else null, {} or []). */
export const ERASED = '[erased]';

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly version: number;
  readonly schema: S;
  /** upcasters[n] turns data stored at version n into version n + 1. */
  readonly upcasters: Readonly<Record<number, (data: unknown) => unknown>>;
  readonly personal?: PersonalData;
  /**
   * Fields holding bearer secrets: values that alone open or control something (a share's
   * `linkId`, an upload's `uploadId`). Staff never see them (the activity log and time travel show
   * a fingerprint). Paths of data fields: `linkId`, or `files.*.uploadId` for a field of each
   * element of an array.
   */
  readonly secret?: readonly string[];
  /**
   * Appending this event forgets these data subjects for ever (their keys are destroyed), e.g.
   * `AccountPurged` forgets its user, `MailDelivered` its mail.
   */
  readonly erases?: (data: z.infer<S>, streamName: string) => readonly string[];
}

export const defineEvent = <T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
  options: {
    version?: number;
    upcasters?: Record<number, (data: unknown) => unknown>;
    personal?: readonly (keyof z.infer<S> & string)[];
    secret?: readonly string[];
    erases?: (data: z.infer<S>, streamName: string) => readonly string[];
  } = {},
): EventDefinition<T, S> => ({
  type,
  schema,
  version: options.version ?? 1,
  upcasters: options.upcasters ?? {},
  ...(options.personal?.length ? { personal: { fields: options.personal as readonly string[] } } : {}),
  ...(options.secret?.length ? { secret: options.secret } : {}),
  ...(options.erases ? { erases: options.erases as EventDefinition['erases'] } : {}),
});

/**
 * The event's data with each value at a secret path (see {@link EventDefinition.secret}) passed
 * through `hide`, and the secret string values found, for hiding them wherever else they appear.
 */
export const hideSecretFields = (
  definition: EventDefinition | undefined,
  data: unknown,
  hide: (value: string) => string,
): { data: unknown; secrets: string[] } => {
  const secrets: string[] = [];
  if (!definition?.secret?.length) return { data, secrets };
  const walk = (value: unknown, path: readonly string[]): unknown => {
    if (path.length === 0) {
      if (typeof value === 'string') {
        secrets.push(value);
        return hide(value);
      }
      return value;
    }
    const [head, ...rest] = path;
    if (head === '*') return Array.isArray(value) ? value.map((v) => walk(v, rest)) : value;
    if (!value || typeof value !== 'object' || Array.isArray(value) || !(head! in value)) return value;
    return { ...(value as Record<string, unknown>), [head!]: walk((value as Record<string, unknown>)[head!], rest) };
  };
  let out = data;
  for (const path of definition.secret) out = walk(out, path.split('.'));
  return { data: out, secrets };
};

/** What a personal field reads as once erased: the first of ERASED, null, {} and [] its schema accepts. */
export const erasedValue = (definition: EventDefinition | undefined, field: string): unknown => {
  const shape = (definition?.schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  const fieldSchema = shape?.[field];
  if (!fieldSchema) return ERASED;
  for (const candidate of [ERASED, null, {}, []]) if (fieldSchema.safeParse(candidate).success) return candidate;
  return ERASED;
};

/** `erases` for an event that forgets the subject of its own stream. */
export const erasesOwnStream = (_data: unknown, streamName: string): readonly string[] => [streamName];

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

  definition(type: string): EventDefinition | undefined {
    return this.definitions.get(type);
  }

  /**
   * The event's data with its personal fields left out (read as erased): for consumers that keep
   * what they receive, such as long-lived processes, which must hold ids, never personal data.
   */
  withoutPersonalData(type: string, data: unknown): unknown {
    const def = this.definitions.get(type);
    if (!def?.personal || !data || typeof data !== 'object') return data;
    const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    for (const field of def.personal.fields) {
      if (copy[field] !== undefined && copy[field] !== null) copy[field] = erasedValue(def, field);
    }
    return copy;
  }

  /** Every registered definition (for checks that walk all event schemas). */
  all(): EventDefinition[] {
    return [...this.definitions.values()];
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

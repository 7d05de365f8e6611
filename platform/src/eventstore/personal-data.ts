import { ERASED, erasedValue, type EventDefinition, type EventMetadata, type EventRegistry } from '@axel/domain';
import type pg from 'pg';
import { generateKey, openTagFirst, sealTagFirst } from '../crypto';
import type { Migration } from '../postgres/migrations';
import type {
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  GlobalPosition,
  ReadAllOptions,
  ReadAllPage,
  RecordedEvent,
  Subscription,
  SubscriptionHandler,
} from './port';

/*
 * Crypto-shredding. Personal fields inside events are stored encrypted with a key per data subject
 * (AES-256-GCM), and those keys live in `pii_keys`, outside the log. Forgetting a person destroys
 * their key: the log keeps every event, id, type, position and non-personal field (so projections,
 * processes and hash chains over the stored bytes still work), and the personal fields read as
 * erased everywhere from then on.
 *
 * A sealed value is `{ "$pii": <subject>, "v": "<base64url>" }`, the value's JSON sealed under its
 * subject's key in the tag-first layout of crypto/aead.ts: it names its subject, so reading never
 * depends on how the subject was chosen when it was written, and it is bound to its event id and
 * field, so it cannot be moved to another event unnoticed.
 */

export const personalDataMigrations: Migration[] = [
  {
    id: 'platform-100-personal-data-keys',
    sql: `
create table pii_keys (
  subject text primary key,
  -- the subject's data key, wrapped by the server key; null once erased
  wrapped_key text,
  created_at timestamptz not null default now(),
  erased_at timestamptz
);
`,
  },
];

/** Wraps data keys with the server's master key (envelope encryption). */
export interface KeyWrapper {
  wrap(key: Buffer): string;
  unwrap(wrapped: string): Buffer;
}

interface Sealed {
  readonly $pii: string;
  readonly v: string;
}

const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Sealed).$pii === 'string' &&
  typeof (value as Sealed).v === 'string' &&
  Object.keys(value).length === 2;

/** The subject that the ip and user agent of an event's metadata belong to: the acting person. */
export const actorSubject = (metadata: EventMetadata): string | null =>
  metadata.actorId && (metadata.actorKind === 'user' || metadata.actorKind === 'staff' || metadata.actorKind === 'anonymous')
    ? `user-${metadata.actorId}`
    : null;

const METADATA_FIELDS = ['ip', 'userAgent'] as const;

/** Data keys per subject, kept in PostgreSQL. Erased subjects stay erased for ever. */
export class SubjectKeys {
  /** null = erased. A key is only ever created or erased, so cached keys stay right until erased. */
  private readonly cache = new Map<string, { key: Buffer | null; at: number }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly wrapper: KeyWrapper,
    /** How long another process's erasure may go unseen by this one's cache. */
    private readonly cacheMs = 30_000,
  ) {}

  private cached(subject: string, now: number): Buffer | null | undefined {
    const hit = this.cache.get(subject);
    if (!hit) return undefined;
    if (hit.key === null) return null;
    if (now - hit.at > this.cacheMs) {
      this.cache.delete(subject);
      return undefined;
    }
    return hit.key;
  }

  /** Keys of these subjects (null for erased or never created ones), one query for the misses. */
  async get(subjects: Iterable<string>): Promise<Map<string, Buffer | null>> {
    const now = Date.now();
    const found = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const hit = this.cached(s, now);
      if (hit === undefined) missing.push(s);
      else found.set(s, hit);
    }
    if (missing.length) {
      const { rows } = await this.pool.query<{ subject: string; wrapped_key: string | null }>(
        'select subject, wrapped_key from pii_keys where subject = any($1::text[])',
        [missing],
      );
      const bySubject = new Map(rows.map((r) => [r.subject, r.wrapped_key]));
      for (const s of missing) {
        const wrapped = bySubject.get(s);
        const key = wrapped ? this.wrapper.unwrap(wrapped) : null;
        // an unknown subject may get a key later: only remember keys and real erasures
        if (key || (bySubject.has(s) && wrapped === null)) this.cache.set(s, { key, at: now });
        found.set(s, key);
      }
    }
    return found;
  }

  /** Keys to write with: created when missing; null for a subject already erased. */
  async forWriting(subjects: Iterable<string>): Promise<Map<string, Buffer | null>> {
    const found = await this.get(subjects);
    const toCreate = [...found].filter(([, key]) => key === null).map(([s]) => s);
    if (toCreate.length) {
      const fresh = toCreate.map((s) => ({ s, wrapped: this.wrapper.wrap(generateKey()) }));
      await this.pool.query(
        `insert into pii_keys (subject, wrapped_key)
         select * from unnest($1::text[], $2::text[]) on conflict (subject) do nothing`,
        [fresh.map((f) => f.s), fresh.map((f) => f.wrapped)],
      );
      // a concurrent writer may have won: read back what is stored (erased ones stay null)
      for (const s of toCreate) this.cache.delete(s);
      const stored = await this.get(toCreate);
      for (const [s, key] of stored) found.set(s, key);
    }
    return found;
  }

  /** Destroys the subjects' keys: everything sealed for them becomes unreadable, for ever. */
  async erase(subjects: readonly string[]): Promise<void> {
    if (!subjects.length) return;
    await this.pool.query(
      `insert into pii_keys (subject, wrapped_key, erased_at)
       select unnest($1::text[]), null, now()
       on conflict (subject) do update set wrapped_key = null, erased_at = coalesce(pii_keys.erased_at, now())`,
      [subjects],
    );
    for (const s of subjects) this.cache.set(s, { key: null, at: Date.now() });
  }

  async isErased(subject: string): Promise<boolean> {
    const { rows } = await this.pool.query('select 1 from pii_keys where subject = $1 and wrapped_key is null', [subject]);
    return rows.length > 0;
  }
}

const seal = (key: Buffer, subject: string, aad: string, value: unknown): Sealed => ({
  $pii: subject,
  v: sealTagFirst(key, Buffer.from(JSON.stringify(value), 'utf8'), Buffer.from(aad)).toString('base64url'),
});

const open = (key: Buffer, aad: string, sealed: Sealed): unknown =>
  JSON.parse(openTagFirst(key, Buffer.from(sealed.v, 'base64url'), Buffer.from(aad)).toString('utf8'));

const dataAad = (eventId: string, field: string) => `${eventId}|data.${field}`;
const metadataAad = (eventId: string, field: string) => `${eventId}|metadata.${field}`;

/**
 * An event store that seals personal fields on the way in and opens them on the way out; it wraps
 * either adapter. Everything above it (deciders, projections, processes) sees plain values, or
 * {@link ERASED} for a forgotten subject.
 */
export class PersonalDataEventStore implements EventStore {
  readonly kind: EventStore['kind'];
  private readonly erasedValues = new Map<string, unknown>();

  constructor(
    private readonly inner: EventStore,
    private readonly registry: EventRegistry,
    readonly keys: SubjectKeys,
  ) {
    this.kind = inner.kind;
  }

  async append(streamName: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const subjects = new Set<string>();
    for (const e of events) {
      if (this.registry.definition(e.type)?.personal && hasPersonalValue(e.data, this.registry.definition(e.type)!)) subjects.add(streamName);
      const actor = actorSubject(e.metadata);
      if (actor && METADATA_FIELDS.some((f) => e.metadata[f] !== null)) subjects.add(actor);
    }
    const keys = subjects.size ? await this.keys.forWriting(subjects) : new Map<string, Buffer | null>();
    const sealed = events.map((e) => this.sealEvent(streamName, e, keys));
    // Erase before the append: a retry after a failed append finds the subject already forgotten,
    // and no moment exists where the erasing event is stored but the key is not yet destroyed.
    const erased = events.flatMap((e) => this.registry.definition(e.type)?.erases?.(e.data as never, streamName) ?? []);
    if (erased.length) await this.keys.erase(erased);
    return this.inner.append(streamName, sealed, expectedRevision);
  }

  private sealEvent(streamName: string, e: EventToAppend, keys: Map<string, Buffer | null>): EventToAppend {
    const definition = this.registry.definition(e.type);
    let data = e.data;
    if (definition?.personal && data && typeof data === 'object') {
      const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
      const key = keys.get(streamName) ?? null;
      for (const field of definition.personal.fields) {
        const value = copy[field];
        if (value === undefined || value === null) continue;
        copy[field] = key ? seal(key, streamName, dataAad(e.id, field), value) : this.erasedValue(definition, field);
      }
      data = copy;
    }
    let metadata = e.metadata;
    const actor = actorSubject(metadata);
    if (actor) {
      const key = keys.get(actor) ?? null;
      const copy: Record<string, unknown> = { ...metadata };
      for (const field of METADATA_FIELDS) {
        const value = metadata[field];
        if (value === null) continue;
        copy[field] = key ? seal(key, actor, metadataAad(e.id, field), value) : ERASED;
      }
      metadata = copy as unknown as EventMetadata;
    }
    return { ...e, data, metadata };
  }

  private erasedValue(definition: EventDefinition | undefined, field: string): unknown {
    const cacheKey = `${definition?.type}.${field}`;
    if (!this.erasedValues.has(cacheKey)) this.erasedValues.set(cacheKey, erasedValue(definition, field));
    return this.erasedValues.get(cacheKey);
  }

  /** Opens every sealed value of these events with one key look-up for the batch. */
  async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const subjects = new Set<string>();
    for (const e of events) {
      collectSubjects(e.data, subjects);
      collectSubjects(e.metadata, subjects);
    }
    if (!subjects.size) return events;
    const keys = await this.keys.get(subjects);
    return events.map((e) => this.openEvent(e, keys));
  }

  private openEvent(e: RecordedEvent, keys: Map<string, Buffer | null>): RecordedEvent {
    const definition = this.registry.definition(e.type);
    const openFields = (record: unknown, aad: (id: string, field: string) => string, erased: (field: string) => unknown) => {
      if (!record || typeof record !== 'object') return record;
      let copy: Record<string, unknown> | undefined;
      for (const [field, value] of Object.entries(record)) {
        if (!isSealed(value)) continue;
        copy ??= { ...(record as Record<string, unknown>) };
        const key = keys.get(value.$pii);
        let plain: unknown = erased(field);
        if (key) {
          try {
            plain = open(key, aad(e.id, field), value);
          } catch {
            // a value that does not open under its subject's key was tampered with: it reads as erased
          }
        }
        copy[field] = plain;
      }
      return copy ?? record;
    };
    const data = openFields(e.data, dataAad, (field) => this.erasedValue(definition, field));
    const metadata = openFields(e.metadata, metadataAad, () => ERASED) as EventMetadata;
    return data === e.data && metadata === e.metadata ? e : { ...e, data, metadata };
  }

  async readStream(streamName: string, fromRevision?: number) {
    const result = await this.inner.readStream(streamName, fromRevision);
    return { revision: result.revision, events: await this.open(result.events) };
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllPage> {
    const page = await this.inner.readAll(options);
    return { ...page, events: await this.open(page.events) };
  }

  subscribe(from: GlobalPosition, handler: SubscriptionHandler, options?: { types?: readonly string[] }): Subscription {
    const wrapped: SubscriptionHandler = {
      ...handler,
      onEvent: handler.onEvent && (async (event) => handler.onEvent!((await this.open([event]))[0]!)),
      onBatch: handler.onBatch && (async (events, checkpoint) => handler.onBatch!(await this.open(events), checkpoint)),
    };
    return this.inner.subscribe(from, wrapped, options);
  }

  headPosition(): Promise<GlobalPosition> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const hasPersonalValue = (data: unknown, definition: EventDefinition) =>
  !!data &&
  typeof data === 'object' &&
  definition.personal!.fields.some((f) => (data as Record<string, unknown>)[f] !== undefined && (data as Record<string, unknown>)[f] !== null);

const collectSubjects = (record: unknown, into: Set<string>) => {
  if (!record || typeof record !== 'object') return;
  for (const value of Object.values(record)) if (isSealed(value)) into.add(value.$pii);
};

import type { EventMetadata } from '@axel/domain';
import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendStreamState,
  type CurrentStreamState,
  type EventData,
  type Filter,
  type JSONType,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  START as START_POSITION,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadAllOptions,
  type ReadAllPage,
  type RecordedEvent,
  type Subscription,
  type SubscriptionHandler,
} from './port';

/*
 * Mapping between the port and KurrentDB (EventStoreDB).
 *
 * - Global position: the `$all` commit position (a byte offset in the transaction log). Without
 *   explicit transactions (never used here) commit and prepare positions of an event are equal,
 *   so a resume position is `{ commit: p, prepare: p }`. Offsets stay far below 2^53.
 * - `$all` is written by a single log writer, so positions become visible in order: no
 *   gap-safety machinery is needed, unlike the PostgreSQL adapter.
 * - Metadata: our `EventMetadata` plus `schemaVersion`, and the `$correlationId` /
 *   `$causationId` keys the server's system projections understand. They are stripped on read.
 * - Event ids: our id is the KurrentDB event id, so a retried append (same ids at the same
 *   expected position) is acknowledged by the server without writing twice.
 *
 * Known difference from the PostgreSQL adapter: KurrentDB checks event-id idempotency per
 * stream only; re-appending known ids to another stream is not refused.
 */

/** Metadata keys this adapter adds next to `EventMetadata`. */
const SCHEMA_VERSION_KEY = 'schemaVersion';
const CORRELATION_KEY = '$correlationId';
const CAUSATION_KEY = '$causationId';

export const DEFAULT_READ_PAGE = 1000;
/** Multiplier of the server's search window (32 events) between two filtered-subscription checkpoints. */
export const DEFAULT_CHECKPOINT_INTERVAL = 1;

export const toStreamState = (expected: ExpectedRevision): AppendStreamState => {
  switch (expected.kind) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'exact':
      if (!Number.isSafeInteger(expected.revision) || expected.revision < 0) {
        throw new RangeError(`invalid expected revision ${expected.revision}`);
      }
      return BigInt(expected.revision);
  }
};

/** The revision a WrongExpectedVersionError reports, as the port counts it (-1: no stream). */
export const fromCurrentStreamState = (state: CurrentStreamState | undefined): number => {
  if (state === undefined || state === NO_STREAM) return -1;
  // Deleted (-5) and tombstoned (-6) streams have no readable revision either.
  return state < 0n ? -1 : toSafeNumber(state, 'revision');
};

const toSafeNumber = (value: bigint | number, what: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} ${value} is beyond 2^53`);
  return n;
};

export const toGlobalPosition = (position: Position | bigint | undefined): GlobalPosition => {
  if (position === undefined) throw new Error('event without a $all position (server older than 22.6?)');
  return toSafeNumber(typeof position === 'bigint' ? position : position.commit, 'position');
};

export const toReadPosition = (position: GlobalPosition): ReadPosition => {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`invalid position ${position}`);
  if (position === START_POSITION) return START;
  const commit = BigInt(position);
  return { commit, prepare: commit };
};

export const toReadRevision = (revision: number): ReadRevision => (revision <= 0 ? START : BigInt(revision));

export const toEventData = (event: EventToAppend): EventData => {
  const metadata: Record<string, unknown> = { ...event.metadata, [SCHEMA_VERSION_KEY]: event.schemaVersion };
  if (event.metadata.correlationId) metadata[CORRELATION_KEY] = event.metadata.correlationId;
  if (event.metadata.causationId) metadata[CAUSATION_KEY] = event.metadata.causationId;
  return jsonEvent({
    id: event.id,
    type: event.type,
    // Serialised with JSON.stringify by the client, so any JSON value works.
    data: event.data as JSONType,
    metadata,
  });
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

export const fromRecordedEvent = (event: KurrentRecordedEvent): RecordedEvent => {
  const raw = isPlainObject(event.metadata) ? { ...event.metadata } : {};
  const schemaVersion = typeof raw[SCHEMA_VERSION_KEY] === 'number' ? (raw[SCHEMA_VERSION_KEY] as number) : 1;
  delete raw[SCHEMA_VERSION_KEY];
  delete raw[CORRELATION_KEY];
  delete raw[CAUSATION_KEY];
  return {
    id: event.id,
    type: event.type,
    data: event.isJson ? event.data : Buffer.from(event.data as Uint8Array),
    schemaVersion,
    metadata: raw as unknown as EventMetadata,
    streamName: event.streamId,
    revision: toSafeNumber(event.revision, 'revision'),
    position: toGlobalPosition(event.position),
    recordedAt: event.created,
  };
};

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Server-side regex for "exactly one of these event types". */
export const eventTypesRegex = (types: readonly string[]): string => `^(?:${types.map(escapeRegex).join('|')})$`;

/**
 * Our events only: system events (`$`-prefixed types: `$metadata`, `$>` links, stats...) are
 * excluded, and with `types` only those exact types pass.
 */
export const allStreamFilter = (
  types: readonly string[] | undefined,
  options: Pick<Filter, 'checkpointInterval' | 'checkpointReached'> = { checkpointInterval: DEFAULT_CHECKPOINT_INTERVAL },
): Filter => {
  const ours = types?.filter((t) => !t.startsWith('$')) ?? [];
  if (types && types.length) {
    // Only system types asked for: a regex that matches nothing rather than everything.
    return eventTypeFilter({ regex: ours.length ? eventTypesRegex(ours) : '(?!)', ...options });
  }
  return excludeSystemEvents(options);
};

export interface KurrentEventStoreOptions {
  /** e.g. `kurrentdb://localhost:2113?tls=false` (`esdb://` works too). */
  readonly connectionString?: string;
  /** An existing client (the store then does not dispose it on close). */
  readonly client?: KurrentDBClient;
  readonly checkpointInterval?: number;
}

export class KurrentEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly client: KurrentDBClient;
  private readonly ownsClient: boolean;
  private readonly checkpointInterval: number;
  private readonly subscriptions = new Set<Subscription>();

  constructor(options: KurrentEventStoreOptions) {
    if (options.client) {
      this.client = options.client;
      this.ownsClient = false;
    } else if (options.connectionString) {
      this.client = KurrentDBClient.connectionString(options.connectionString);
      this.ownsClient = true;
    } else {
      throw new Error('KurrentEventStore needs a connectionString or a client');
    }
    this.checkpointInterval = options.checkpointInterval ?? DEFAULT_CHECKPOINT_INTERVAL;
  }

  async append(streamName: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    try {
      const result = await this.client.appendToStream(streamName, events.map(toEventData), {
        streamState: toStreamState(expectedRevision),
      });
      const nextRevision = toSafeNumber(result.nextExpectedRevision, 'revision');
      const position = result.position ? toGlobalPosition(result.position) : await this.positionOfRevision(streamName, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(streamName, expectedRevision, fromCurrentStreamState(error.actualState));
      }
      throw error;
    }
  }

  /** Fallback when the server does not return the position of a write. */
  private async positionOfRevision(streamName: string, revision: number): Promise<GlobalPosition> {
    for await (const resolved of this.client.readStream(streamName, { fromRevision: BigInt(revision), maxCount: 1 })) {
      if (resolved.event?.position) return toGlobalPosition(resolved.event.position);
    }
    return this.headPosition();
  }

  async readStream(streamName: string, fromRevision = 0): Promise<{ revision: number; events: RecordedEvent[] }> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, {
        fromRevision: toReadRevision(fromRevision),
        direction: FORWARDS,
      })) {
        if (resolved.event) events.push(fromRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { revision: -1, events: [] };
      throw error;
    }
    if (events.length) return { revision: events[events.length - 1]!.revision, events };
    return { revision: await this.streamRevision(streamName), events };
  }

  private async streamRevision(streamName: string): Promise<number> {
    try {
      for await (const resolved of this.client.readStream(streamName, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (resolved.event) return toSafeNumber(resolved.event.revision, 'revision');
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return -1;
      throw error;
    }
    return -1;
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllPage> {
    const limit = options.limit ?? DEFAULT_READ_PAGE;
    // Read before the page: everything at or below it is visible to the forward read.
    const head = await this.lastLogPosition();
    const events: RecordedEvent[] = [];
    let fetched = 0;
    // Reads of $all include the record at `fromPosition`; ask for one more and drop it.
    for await (const resolved of this.client.readAll({
      fromPosition: toReadPosition(options.from),
      direction: FORWARDS,
      maxCount: limit + 1,
      filter: allStreamFilter(options.types, { checkpointInterval: this.checkpointInterval }),
    })) {
      fetched++;
      if (!resolved.event) continue;
      const event = fromRecordedEvent(resolved.event);
      if (event.position <= options.from || events.length === limit) continue;
      events.push(event);
    }
    const isEnd = fetched < limit + 1;
    const last = events.length ? events[events.length - 1]!.position : options.from;
    return { events, checkpoint: isEnd ? Math.max(options.from, last, head) : last, isEnd };
  }

  /** Position of the newest record of the log, system events included (a safe checkpoint). */
  private async lastLogPosition(): Promise<GlobalPosition> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) {
      return positionOf(resolved) ?? START_POSITION;
    }
    return START_POSITION;
  }

  async headPosition(): Promise<GlobalPosition> {
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
      filter: allStreamFilter(undefined),
    })) {
      return positionOf(resolved) ?? START_POSITION;
    }
    return START_POSITION;
  }

  subscribe(from: GlobalPosition, handler: SubscriptionHandler, options: { types?: readonly string[] } = {}): Subscription {
    const runner = new CatchUpSubscription(from, handler);
    const filter = allStreamFilter(options.types, {
      checkpointInterval: this.checkpointInterval,
      checkpointReached: (_sub, position) => runner.checkpoint(position),
    });
    const stream = this.client.subscribeToAll({ fromPosition: toReadPosition(from), filter });
    runner.attach(stream);
    const subscription: Subscription = {
      get position() {
        return runner.position;
      },
      stop: async () => {
        this.subscriptions.delete(subscription);
        await runner.stop();
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.ownsClient) await this.client.dispose();
  }
}

const positionOf = (resolved: AllStreamResolvedEvent): GlobalPosition | undefined => {
  if (resolved.event?.position) return toGlobalPosition(resolved.event.position);
  if (resolved.commitPosition !== undefined) return toGlobalPosition(resolved.commitPosition);
  return undefined;
};

type Marker = { kind: 'checkpoint'; after: number; position: GlobalPosition; done: () => void } | { kind: 'caughtUp'; after: number };

/** Above this many undelivered events the gRPC stream is paused. */
const HIGH_WATER = 512;

/**
 * Drives a port `SubscriptionHandler` from a KurrentDB catch-up subscription: one handler call
 * at a time, in log order. Checkpoints and "caught up" notices arrive out of band, so each is
 * tagged with the number of events received before it and delivered only after those events
 * were handled (a checkpoint must never pass an event not yet handled). The server's
 * checkpoint callback is awaited by the client, so the stream waits until it is delivered.
 */
export class CatchUpSubscription {
  position: GlobalPosition;
  private stream: AllStreamSubscription | undefined;
  /** `undefined` stands for a record without an event (kept so that counts stay aligned). */
  private readonly queue: (RecordedEvent | undefined)[] = [];
  private readonly markers: Marker[] = [];
  /** Events taken off the stream so far, and events handed to the handler so far. */
  private received = 0;
  private handled = 0;
  private stopped = false;
  private caughtUp = false;
  private running = false;
  private paused = false;
  private failure: unknown;

  constructor(
    from: GlobalPosition,
    private readonly handler: SubscriptionHandler,
  ) {
    this.position = from;
  }

  attach(stream: AllStreamSubscription): void {
    this.stream = stream;
    stream.on('data', (resolved: AllStreamResolvedEvent) => {
      if (this.stopped) return;
      this.received++;
      this.queue.push(resolved.event ? fromRecordedEvent(resolved.event) : undefined);
      if (this.queue.length >= HIGH_WATER && !this.paused) {
        this.paused = true;
        stream.pause();
      }
      this.kick();
    });
    stream.on('caughtUp', () => {
      this.markers.push({ kind: 'caughtUp', after: this.pendingTotal() });
      this.kick();
    });
    stream.on('error', (error: unknown) => this.fail(error));
  }

  /** Called (and awaited) by the client when the server reports a filtered checkpoint. */
  checkpoint(position: Position): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((done) => {
      this.markers.push({ kind: 'checkpoint', after: this.pendingTotal(), position: toGlobalPosition(position), done });
      this.kick();
    });
  }

  /** Events received so far plus those the stream has buffered but not emitted yet. */
  private pendingTotal(): number {
    return this.received + (this.stream?.readableLength ?? 0);
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    void this.drain()
      .catch((error) => this.fail(error))
      .finally(() => {
        this.running = false;
        if (!this.stopped && (this.queue.length || this.readyMarker())) this.kick();
      });
  }

  private readyMarker(): Marker | undefined {
    const m = this.markers[0];
    return m && m.after <= this.handled ? m : undefined;
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const marker = this.readyMarker();
      if (marker) {
        this.markers.shift();
        await this.deliverMarker(marker);
        continue;
      }
      if (!this.queue.length) break;
      // Never hand over events beyond the next marker in one go.
      const boundary = this.markers[0] ? this.markers[0].after - this.handled : this.queue.length;
      const take = this.handler.onBatch ? Math.min(boundary, this.queue.length) : 1;
      const batch = this.queue.splice(0, take);
      const events = batch.filter((e): e is RecordedEvent => e !== undefined && e.position > this.position);
      if (this.handler.onBatch) {
        if (events.length) {
          await this.handler.onBatch(events, events[events.length - 1]!.position);
          this.position = events[events.length - 1]!.position;
        }
      } else {
        for (const event of events) {
          if (this.stopped) return;
          await this.handler.onEvent?.(event);
          this.position = event.position;
        }
      }
      this.handled += batch.length;
      if (this.paused && this.queue.length < HIGH_WATER / 2) {
        this.paused = false;
        this.stream?.resume();
      }
    }
  }

  private async deliverMarker(marker: Marker): Promise<void> {
    if (marker.kind === 'caughtUp') {
      if (!this.caughtUp) {
        this.caughtUp = true;
        this.handler.onCaughtUp?.();
      }
      return;
    }
    try {
      if (marker.position > this.position) {
        this.position = marker.position;
        if (this.handler.onBatch) await this.handler.onBatch([], marker.position);
        else await this.handler.onCheckpoint?.(marker.position);
      }
    } finally {
      marker.done();
    }
  }

  private fail(error: unknown): void {
    if (this.stopped || this.failure) return;
    this.failure = error;
    this.stopped = true;
    this.releaseMarkers();
    void this.stream?.unsubscribe().catch(() => undefined);
    this.handler.onError?.(error);
  }

  private releaseMarkers(): void {
    for (const m of this.markers.splice(0)) if (m.kind === 'checkpoint') m.done();
  }

  async stop(): Promise<void> {
    if (this.stopped && !this.stream) return;
    this.stopped = true;
    this.releaseMarkers();
    const stream = this.stream;
    this.stream = undefined;
    if (stream) await stream.unsubscribe().catch(() => undefined);
  }
}

import type { EventMetadata } from '@axel/domain';

/**
 * A global position orders every event of the store. Readers receive events in ascending
 * position and never see a lower position after a higher one (the PostgreSQL adapter
 * guarantees this even when transactions commit out of order).
 */
export type GlobalPosition = number;

/** The position before the first event. */
export const START: GlobalPosition = 0;

export type ExpectedRevision = { kind: 'any' } | { kind: 'no_stream' } | { kind: 'stream_exists' } | { kind: 'exact'; revision: number };

export const expected = {
  any: { kind: 'any' } as ExpectedRevision,
  noStream: { kind: 'no_stream' } as ExpectedRevision,
  streamExists: { kind: 'stream_exists' } as ExpectedRevision,
  /** -1 means the stream must not exist yet. */
  revision: (revision: number): ExpectedRevision => (revision < 0 ? { kind: 'no_stream' } : { kind: 'exact', revision }),
};

export interface EventToAppend {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly schemaVersion: number;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly schemaVersion: number;
  readonly metadata: EventMetadata;
  readonly streamName: string;
  /** 0-based, dense within the stream. */
  readonly revision: number;
  readonly position: GlobalPosition;
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  readonly nextRevision: number;
  /** Position of the last event appended (or, for an idempotent retry, already stored). */
  readonly position: GlobalPosition;
}

export interface ReadAllOptions {
  /** Exclusive lower bound. */
  readonly from: GlobalPosition;
  readonly limit?: number;
  /** Only these event types (others are skipped, the returned `checkpoint` still advances). */
  readonly types?: readonly string[];
}

export interface ReadAllPage {
  readonly events: RecordedEvent[];
  /** Highest position covered by this read, including filtered-out events: resume from here. */
  readonly checkpoint: GlobalPosition;
  readonly isEnd: boolean;
}

export interface SubscriptionHandler {
  /** Called once per event in global order; the next event waits for the promise. */
  onEvent?(event: RecordedEvent): Promise<void> | void;
  /**
   * When given, receives the events a page at a time instead of `onEvent` (projections write a
   * whole page in one transaction). `checkpoint` is where the page ends, filtered events included.
   */
  onBatch?(events: RecordedEvent[], checkpoint: GlobalPosition): Promise<void> | void;
  /** Called when the subscription has read past filtered-out events. */
  onCheckpoint?(position: GlobalPosition): Promise<void> | void;
  onCaughtUp?(): void;
  onError?(error: unknown): void;
}

export interface Subscription {
  readonly position: GlobalPosition;
  stop(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  append(streamName: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** Revision -1 and no events when the stream does not exist. */
  readStream(streamName: string, fromRevision?: number): Promise<{ revision: number; events: RecordedEvent[] }>;
  readAll(options: ReadAllOptions): Promise<ReadAllPage>;
  subscribe(from: GlobalPosition, handler: SubscriptionHandler, options?: { types?: readonly string[] }): Subscription;
  /** Position of the newest event. */
  headPosition(): Promise<GlobalPosition>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`Wrong expected revision for ${streamName}: expected ${expected.kind === 'exact' ? expected.revision : expected.kind}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Re-append of known event ids that does not match what was stored under them. */
export class IdempotencyConflictError extends Error {
  constructor(
    readonly streamName: string,
    readonly eventId: string,
  ) {
    super(`Event ${eventId} already stored with other content or in another stream than ${streamName}`);
    this.name = 'IdempotencyConflictError';
  }
}

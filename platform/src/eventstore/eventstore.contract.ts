import type { EventMetadata } from '@axel/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { IdempotencyConflictError, WrongExpectedRevisionError, expected, type EventStore, type EventToAppend, type RecordedEvent } from './port';

export const testMetadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actorId: null,
  actorKind: 'system',
  ip: '127.0.0.1',
  userAgent: 'contract-test',
  client: 'test',
  correlationId: newId(),
  causationId: null,
  time: new Date().toISOString(),
  ...overrides,
});

export const testEvent = (type = 'TestHappened', data: unknown = { n: 1 }): EventToAppend => ({
  id: newId(),
  type,
  data,
  schemaVersion: 1,
  metadata: testMetadata(),
});

const unique = (prefix: string) => `${prefix}-${newId()}`;

const collect = async (store: EventStore, streams: Set<string>, until: (seen: RecordedEvent[]) => boolean) => {
  const seen: RecordedEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    const sub = store.subscribe(0, {
      onEvent: (e) => {
        if (!streams.has(e.streamName)) return;
        seen.push(e);
        if (until(seen)) void sub.stop().then(resolve);
      },
      onError: reject,
    });
  });
  return seen;
};

/** Behaviour every EventStore adapter must show. */
export interface ContractOptions {
  /**
   * Whether known event ids are refused in another stream. PostgreSQL keeps ids unique store-wide;
   * KurrentDB checks them per stream only.
   */
  readonly idsUniqueAcrossStreams?: boolean;
}

export const describeEventStoreContract = (name: string, open: () => Promise<{ store: EventStore; close(): Promise<void> }>, options: ContractOptions = {}) => {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    it('appends to a new stream and reads it back with dense revisions and metadata', async () => {
      const stream = unique('user');
      const events = [testEvent('A', { a: 1 }), testEvent('B', { b: 'two' })];
      const result = await store.append(stream, events, expected.noStream);
      expect(result.nextRevision).toBe(1);
      const read = await store.readStream(stream);
      expect(read.revision).toBe(1);
      expect(read.events.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['A', 0, { a: 1 }],
        ['B', 1, { b: 'two' }],
      ]);
      expect(read.events[0]!.metadata).toEqual(events[0]!.metadata);
      expect(read.events[0]!.position).toBeLessThan(read.events[1]!.position);
      expect(read.events[1]!.position).toBe(result.position);
    });

    it('reports revision -1 for a missing stream', async () => {
      expect(await store.readStream(unique('none'))).toEqual({ revision: -1, events: [] });
    });

    it('rejects a wrong expected revision with a typed error naming the actual revision', async () => {
      const stream = unique('user');
      await store.append(stream, [testEvent()], expected.noStream);
      const error = await store.append(stream, [testEvent()], expected.revision(5)).catch((e) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).toBe(0);
      await expect(store.append(stream, [testEvent()], expected.noStream)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.append(unique('x'), [testEvent()], expected.streamExists)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await store.append(stream, [testEvent()], expected.revision(0));
      await store.append(stream, [testEvent()], expected.any);
      expect((await store.readStream(stream)).revision).toBe(2);
    });

    it('treats a retried append with the same event ids as done, without duplicating', async () => {
      const stream = unique('user');
      const batch = [testEvent(), testEvent()];
      const first = await store.append(stream, batch, expected.noStream);
      const retry = await store.append(stream, batch, expected.noStream);
      expect(retry).toEqual(first);
      expect((await store.readStream(stream)).events).toHaveLength(2);
    });

    it.runIf(options.idsUniqueAcrossStreams ?? true)('refuses known event ids re-appended to another stream', async () => {
      const batch = [testEvent()];
      await store.append(unique('user'), batch, expected.any);
      await expect(store.append(unique('user'), batch, expected.any)).rejects.toBeInstanceOf(IdempotencyConflictError);
    });

    it.runIf(options.idsUniqueAcrossStreams ?? true)('refuses, with a typed error, a batch that mixes new events with known ones', async () => {
      const stream = unique('user');
      const first = testEvent();
      await store.append(stream, [first], expected.noStream);
      const error = await store.append(stream, [testEvent(), first], expected.any).catch((e) => e);
      expect(error).toBeInstanceOf(IdempotencyConflictError);
      const { events } = await store.readStream(stream);
      expect(events.map((e) => e.id)).toEqual([first.id]);
    });

    it('lets exactly one of two concurrent writers win the same revision', async () => {
      const stream = unique('user');
      await store.append(stream, [testEvent()], expected.noStream);
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.append(stream, [testEvent()], expected.revision(0))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
    });

    it('reads all events in global order, filtered by type, with a checkpoint past skipped ones', async () => {
      const from = await store.headPosition();
      const stream = unique('storage');
      await store.append(stream, [testEvent('Kept'), testEvent('Skipped'), testEvent('Kept')], expected.noStream);
      const page = await store.readAll({ from, types: ['Kept'] });
      const mine = page.events.filter((e) => e.streamName === stream);
      expect(mine.map((e) => e.type)).toEqual(['Kept', 'Kept']);
      expect(page.isEnd).toBe(true);
      expect(page.checkpoint).toBeGreaterThanOrEqual(mine[1]!.position);
    });

    it('delivers appended events to a live subscription in order', async () => {
      const stream = unique('user');
      const seenPromise = collect(store, new Set([stream]), (seen) => seen.length === 3);
      for (let i = 0; i < 3; i++) await store.append(stream, [testEvent('N', { i })], expected.any);
      const seen = await seenPromise;
      expect(seen.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2]);
    });

    it('keeps revisions dense and global order consistent with every stream, for any interleaving', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ stream: fc.integer({ min: 0, max: 4 }), size: fc.integer({ min: 1, max: 3 }) }), {
            minLength: 1,
            maxLength: 25,
          }),
          fc.boolean(),
          async (plan, concurrent) => {
            const names = Array.from({ length: 5 }, () => unique('prop'));
            const run = (step: { stream: number; size: number }) =>
              store.append(
                names[step.stream]!,
                Array.from({ length: step.size }, () => testEvent()),
                expected.any,
              );
            if (concurrent) await Promise.all(plan.map(run));
            else for (const step of plan) await run(step);
            const from = 0;
            const all: RecordedEvent[] = [];
            let cursor = from;
            for (;;) {
              const page = await store.readAll({ from: cursor, limit: 5000 });
              all.push(...page.events.filter((e) => names.includes(e.streamName)));
              cursor = page.checkpoint;
              if (page.isEnd) break;
            }
            for (const name of names) {
              const expectedCount = plan.filter((p) => names[p.stream] === name).reduce((n, p) => n + p.size, 0);
              const inStream = all.filter((e) => e.streamName === name);
              expect(inStream.map((e) => e.revision)).toEqual(Array.from({ length: expectedCount }, (_, i) => i));
            }
            for (let i = 1; i < all.length; i++) expect(all[i]!.position).toBeGreaterThan(all[i - 1]!.position);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
};

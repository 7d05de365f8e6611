import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestDatabase } from '../../../test/db';
import { newId } from '../ids';
import { describeEventStoreContract, testEvent } from './eventstore.contract';
import { IdempotencyConflictError, WrongExpectedRevisionError, expected, type RecordedEvent } from './port';
import type { PostgresEventStore } from './postgres';

describeEventStoreContract('postgres', () => createTestStore());

describe('PostgreSQL event store under concurrent writers', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, close } = await createTestStore());
  });
  afterAll(() => close());

  it('delivers every event exactly once, in global order, while 8 writers append 2,000 events each', async () => {
    const writers = 8;
    const perWriter = 2000;
    const total = writers * perWriter;
    const received: RecordedEvent[] = [];
    let resolveDone: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const sub = store.subscribe(0, {
      onEvent: (e) => {
        received.push(e);
        if (received.length === total) resolveDone();
      },
    });
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const stream = `gap-${w}-${newId()}`;
        for (let i = 0; i < perWriter; i++) await store.append(stream, [testEvent('Gap', { w, i })], expected.any);
      }),
    );
    await done;
    // let anything extra (a duplicate) arrive before judging
    await new Promise((r) => setTimeout(r, 200));
    await sub.stop();
    expect(received).toHaveLength(total);
    expect(new Set(received.map((e) => e.id)).size).toBe(total);
    for (let i = 1; i < received.length; i++) expect(received[i]!.position).toBeGreaterThan(received[i - 1]!.position);
    for (let w = 0; w < writers; w++) {
      const mine = received.filter((e) => (e.data as { w: number }).w === w).map((e) => (e.data as { i: number }).i);
      expect(mine).toEqual(Array.from({ length: perWriter }, (_, i) => i));
    }
  });

  it('holds back events committed behind an open transaction, then delivers them in order', async () => {
    const from = await store.headPosition();
    const blocker = await db.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query("select es_append($1, 'any', null, array[$2]::uuid[], array['Late']::text[], array[1], array['{}']::jsonb[], array[$3]::jsonb[])", [
        `late-${newId()}`,
        newId(),
        JSON.stringify(testEvent().metadata),
      ]);
      const early = `early-${newId()}`;
      await store.append(early, [testEvent('Early')], expected.any);
      const before = await store.readAll({ from });
      expect(before.events.filter((e) => e.streamName === early)).toHaveLength(0);
      await blocker.query('commit');
      const after = await store.readAll({ from });
      expect(after.events.map((e) => e.type)).toEqual(['Late', 'Early']);
    } finally {
      blocker.release();
    }
  });

  it('keeps one-statement appends and es_append consistent: retries, races and positions', async () => {
    const stream = `mixed-${newId()}`;
    const first = [testEvent(), testEvent()];
    const a = await store.append(stream, first, expected.noStream);
    // es_append called directly (as inside a caller's transaction) continues the same stream
    await db.pool.query("select es_append($1, 'exact', 1, array[$2]::uuid[], array['Direct']::text[], array[1], array['{}']::jsonb[], array[$3]::jsonb[])", [
      stream,
      newId(),
      JSON.stringify(testEvent().metadata),
    ]);
    const b = await store.append(stream, [testEvent()], expected.revision(2));
    expect(b.nextRevision).toBe(3);
    expect(b.position).toBeGreaterThan(a.position);
    // a late retry of the first batch, after the stream moved on, is still recognised
    expect(await store.append(stream, first, expected.noStream)).toEqual(a);
    expect(await store.append(stream, first, expected.any)).toEqual(a);
    // a revision ahead of the stream is refused with the actual one
    const ahead = await store.append(stream, [testEvent()], expected.revision(9)).catch((e) => e);
    expect(ahead).toBeInstanceOf(WrongExpectedRevisionError);
    expect((ahead as WrongExpectedRevisionError).actual).toBe(3);
    // a batch starting with a known id followed by a new one is a conflict, and writes nothing
    await expect(store.append(stream, [first[0]!, testEvent()], expected.any)).rejects.toBeInstanceOf(IdempotencyConflictError);
    const read = await store.readStream(stream);
    expect(read.events.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
    expect(read.events.map((e) => e.type)).toEqual(['TestHappened', 'TestHappened', 'Direct', 'TestHappened']);
  });
});

describe('PostgreSQL event store: reads racing a first append', () => {
  let store: PostgresEventStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await createTestStore());
  });
  afterAll(() => close());

  it('a stream read while its first events commit never answers a revision without its events (a decider would append on an empty state)', async () => {
    let torn = 0;
    for (let round = 0; round < 60; round++) {
      const stream = `first-${newId()}`;
      let writing = true;
      const readers = Array.from({ length: 6 }, async () => {
        while (writing) {
          const { revision, events } = await store.readStream(stream);
          if (events.length !== revision + 1) torn++;
        }
      });
      await new Promise((r) => setTimeout(r, round % 3));
      await store.append(stream, [testEvent('First', { round })], expected.noStream);
      writing = false;
      await Promise.all(readers);
    }
    expect(torn).toBe(0);
  });
});

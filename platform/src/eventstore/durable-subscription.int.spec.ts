import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore } from '../../../test/db';
import { newId } from '../ids';
import { DurableSubscription } from './durable-subscription';
import { testEvent } from './eventstore.contract';
import { expected } from './port';
import type { PostgresEventStore } from './postgres';

describe('durable subscription', () => {
  let store: PostgresEventStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await createTestStore());
  });
  afterAll(() => close());

  it('after a handler failure, pauses and resumes from the checkpoint without losing events', async () => {
    const stream = `durable-${newId()}`;
    for (let i = 0; i < 5; i++) await store.append(stream, [testEvent('Tick', { i })], expected.any);
    let checkpoint = 0;
    let failures = 0;
    const seen: number[] = [];
    const errors: number[] = [];
    const sub = new DurableSubscription({
      store,
      from: async () => checkpoint,
      types: ['Tick'],
      handler: {
        onBatch: async (events, position) => {
          if (failures === 0 && events.length) {
            failures++;
            throw new Error('database went away');
          }
          for (const e of events) if (e.streamName === stream) seen.push((e.data as { i: number }).i);
          checkpoint = position;
        },
      },
      onError: (_error, retryInMs) => errors.push(retryInMs),
    });
    await sub.start();
    for (let i = 0; i < 100 && seen.length < 5; i++) await new Promise((r) => setTimeout(r, 50));
    await sub.stop();
    expect(errors).toEqual([500]);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });
});

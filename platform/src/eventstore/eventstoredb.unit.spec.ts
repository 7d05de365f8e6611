import { PassThrough } from 'node:stream';
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AllStreamJSONRecordedEvent,
  type JSONRecordedEvent,
} from '@kurrent/kurrentdb-client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testEvent } from './eventstore.contract';
import {
  CatchUpSubscription,
  allStreamFilter,
  eventTypesRegex,
  fromCurrentStreamState,
  fromRecordedEvent,
  toEventData,
  toGlobalPosition,
  toReadPosition,
  toReadRevision,
  toStreamState,
} from './eventstoredb';
import { expected, type GlobalPosition, type RecordedEvent } from './port';

/** What the server would give back for an event written with `toEventData`. */
const recorded = (event: ReturnType<typeof testEvent>, streamId: string, revision: bigint, commit: bigint): AllStreamJSONRecordedEvent => {
  const data = toEventData(event);
  return {
    streamId,
    id: data.id,
    isJson: true,
    revision,
    type: data.type,
    created: new Date('2030-01-02T03:04:05.000Z'),
    // the wire format is JSON: what is read back is what JSON.stringify wrote
    data: JSON.parse(JSON.stringify(data.data)),
    metadata: JSON.parse(JSON.stringify(data.metadata)),
    position: { commit, prepare: commit },
  } as AllStreamJSONRecordedEvent;
};

describe('KurrentDB mapping: expected revision', () => {
  it('maps every kind of the port to the client stream state', () => {
    expect(toStreamState(expected.any)).toBe(ANY);
    expect(toStreamState(expected.noStream)).toBe(NO_STREAM);
    expect(toStreamState(expected.streamExists)).toBe(STREAM_EXISTS);
    expect(toStreamState(expected.revision(0))).toBe(0n);
    expect(toStreamState(expected.revision(41))).toBe(41n);
    expect(toStreamState(expected.revision(-1))).toBe(NO_STREAM);
  });

  it('refuses a revision that is not a safe non-negative integer', () => {
    expect(() => toStreamState({ kind: 'exact', revision: 1.5 })).toThrow(RangeError);
    expect(() => toStreamState({ kind: 'exact', revision: -3 })).toThrow(RangeError);
  });

  it('reads the actual revision of a WrongExpectedVersionError as the port counts it', () => {
    expect(fromCurrentStreamState(NO_STREAM)).toBe(-1);
    expect(fromCurrentStreamState(undefined)).toBe(-1);
    expect(fromCurrentStreamState(0n)).toBe(0);
    expect(fromCurrentStreamState(17n)).toBe(17);
    expect(fromCurrentStreamState(-5n)).toBe(-1); // deleted stream
  });

  it('round-trips any exact revision', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(fromCurrentStreamState(toStreamState(expected.revision(n)) as bigint)).toBe(n);
      }),
    );
  });
});

describe('KurrentDB mapping: positions', () => {
  it('uses the commit position as the global position', () => {
    expect(toGlobalPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(toGlobalPosition({ commit: 99n, prepare: 0n })).toBe(99); // checkpoints may carry prepare 0
    expect(toGlobalPosition(77n)).toBe(77);
    expect(() => toGlobalPosition(undefined)).toThrow();
    expect(() => toGlobalPosition(2n ** 60n)).toThrow(RangeError);
  });

  it('resumes from START at 0 and from commit = prepare otherwise', () => {
    expect(toReadPosition(0)).toBe(START);
    expect(toReadPosition(5000)).toEqual({ commit: 5000n, prepare: 5000n });
    expect(() => toReadPosition(-1)).toThrow(RangeError);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (p) => {
        const read = toReadPosition(p);
        expect(read).not.toBe(START);
        expect(toGlobalPosition(read as { commit: bigint; prepare: bigint })).toBe(p);
      }),
    );
  });

  it('reads a stream from START or from the given revision', () => {
    expect(toReadRevision(0)).toBe(START);
    expect(toReadRevision(12)).toBe(12n);
  });
});

describe('KurrentDB mapping: events', () => {
  it('writes our id, type, data and metadata with schemaVersion and correlation keys', () => {
    const event = { ...testEvent('AccountOpened', { email: 'a@b.c' }), schemaVersion: 3 };
    const data = toEventData(event);
    expect(data.id).toBe(event.id);
    expect(data.type).toBe('AccountOpened');
    expect(data.contentType).toBe('application/json');
    expect(data.data).toEqual({ email: 'a@b.c' });
    expect(data.metadata).toEqual({
      ...event.metadata,
      schemaVersion: 3,
      $correlationId: event.metadata.correlationId,
    });
  });

  it('reads back exactly what was written (metadata without the adapter keys)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.uuid(), { nil: null }),
        fc.bigInt({ min: 0n, max: 2n ** 40n }),
        fc.bigInt({ min: 1n, max: 2n ** 50n }),
        (payload, schemaVersion, causationId, revision, commit) => {
          const base = testEvent('Thing', payload);
          const event = { ...base, schemaVersion, metadata: { ...base.metadata, causationId } };
          const back = fromRecordedEvent(recorded(event, 'thing-1', revision, commit));
          expect(back).toEqual({
            id: event.id,
            type: 'Thing',
            data: JSON.parse(JSON.stringify(payload)),
            schemaVersion,
            metadata: event.metadata,
            streamName: 'thing-1',
            revision: Number(revision),
            position: Number(commit),
            recordedAt: new Date('2030-01-02T03:04:05.000Z'),
          } satisfies RecordedEvent);
        },
      ),
    );
  });

  it('reads foreign events (no metadata) as schema version 1', () => {
    const foreign = { ...recorded(testEvent(), 's-1', 0n, 10n), metadata: undefined } as unknown as JSONRecordedEvent;
    const back = fromRecordedEvent(foreign);
    expect(back.schemaVersion).toBe(1);
    expect(back.metadata).toEqual({});
  });
});

describe('KurrentDB mapping: $all filters', () => {
  it('excludes system events, or keeps exactly the given types', () => {
    const all = allStreamFilter(undefined);
    expect(all.filterOn).toBe('eventType');
    expect('regex' in all && new RegExp(all.regex).test('$metadata')).toBe(false);
    expect('regex' in all && new RegExp(all.regex).test('AccountOpened')).toBe(true);

    const some = allStreamFilter(['Kept', 'Other.Type']);
    const re = new RegExp('regex' in some ? some.regex : '');
    expect(re.test('Kept')).toBe(true);
    expect(re.test('Other.Type')).toBe(true);
    expect(re.test('KeptToo')).toBe(false);
    expect(re.test('OtherXType')).toBe(false);
    expect(re.test('$>')).toBe(false);
  });

  it('escapes regex characters in type names', () => {
    expect(eventTypesRegex(['a+b', 'c'])).toBe('^(?:a\\+b|c)$');
  });
});

describe('KurrentDB catch-up subscription driver', () => {
  /** A stand-in for the client's subscription: an object-mode stream with the same events. */
  const fakeStream = () => {
    const stream = new PassThrough({ objectMode: true, highWaterMark: 4 }) as unknown as AllStreamSubscription & PassThrough;
    (stream as unknown as { unsubscribe: () => Promise<void> }).unsubscribe = async () => {
      stream.destroy();
    };
    return stream;
  };
  const resolvedAt = (commit: number): AllStreamResolvedEvent => ({
    event: recorded(testEvent('E', { commit }), 's-1', BigInt(commit), BigInt(commit)),
  });

  it('delivers events in order and a checkpoint only after the events before it were handled', async () => {
    const stream = fakeStream();
    const log: string[] = [];
    const driver = new CatchUpSubscription(0, {
      onEvent: async (e) => {
        await new Promise((r) => setTimeout(r, 1));
        log.push(`e${e.position}`);
      },
      onCheckpoint: (p) => {
        log.push(`c${p}`);
      },
      onCaughtUp: () => log.push('up'),
    });
    driver.attach(stream);
    for (let i = 1; i <= 20; i++) stream.write(resolvedAt(i * 10));
    // the client awaits this before passing on anything newer
    await driver.checkpoint({ commit: 250n, prepare: 0n });
    stream.emit('caughtUp', {});
    stream.write(resolvedAt(300));
    await new Promise((r) => setTimeout(r, 100));
    expect(log).toEqual([...Array.from({ length: 20 }, (_, i) => `e${(i + 1) * 10}`), 'c250', 'up', 'e300']);
    expect(driver.position).toBe(300);
    await driver.stop();
  });

  it('hands pages to onBatch without crossing a checkpoint, and skips what is at or below the start', async () => {
    const stream = fakeStream();
    const pages: [number[], GlobalPosition][] = [];
    const driver = new CatchUpSubscription(20, {
      onBatch: (events, checkpoint) => {
        pages.push([events.map((e) => e.position), checkpoint]);
      },
    });
    driver.attach(stream);
    for (const p of [10, 20, 30, 40]) stream.write(resolvedAt(p));
    await driver.checkpoint({ commit: 45n, prepare: 45n });
    stream.write(resolvedAt(50));
    await new Promise((r) => setTimeout(r, 50));
    const flat = pages.flatMap(([events]) => events);
    expect(flat).toEqual([30, 40, 50]);
    const checkpointPage = pages.findIndex(([events, c]) => events.length === 0 && c === 45);
    expect(checkpointPage).toBeGreaterThan(-1);
    expect(pages.slice(0, checkpointPage).flatMap(([e]) => e)).toEqual([30, 40]);
    await driver.stop();
  });

  it('reports a stream error once and stops', async () => {
    const stream = fakeStream();
    const errors: unknown[] = [];
    const driver = new CatchUpSubscription(0, { onEvent: () => undefined, onError: (e) => errors.push(e) });
    driver.attach(stream);
    stream.emit('error', new Error('14 UNAVAILABLE'));
    stream.emit('error', new Error('again'));
    expect(errors).toHaveLength(1);
    await driver.stop();
  });
});

import { ERASED, EventRegistry, defineEvent, erasesOwnStream, type EventMetadata } from '@axel/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestStore } from '../../../test/db';
import { generateKey, openToken, sealToken } from '../crypto';
import { newId } from '../ids';
import { PersonalDataEventStore, SubjectKeys, personalDataMigrations, type KeyWrapper } from './personal-data';
import { expected, type EventToAppend, type RecordedEvent } from './port';
import type { PostgresEventStore } from './postgres';

const Registered = defineEvent(
  'PersonRegistered',
  z.object({ personId: z.string(), email: z.string(), nickname: z.string().nullable(), tags: z.record(z.string(), z.string()), plan: z.string() }),
  { personal: ['email', 'nickname', 'tags'] },
);
const Forgotten = defineEvent('PersonForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });
const Noted = defineEvent('PersonNoted', z.object({ note: z.string() }));

const master = generateKey();
// as the server wraps them: the server secret's token layout over the key in base64
const wrapper: KeyWrapper = {
  wrap: (key) => sealToken(master, key.toString('base64')),
  unwrap: (wrapped) => Buffer.from(openToken(master, wrapped), 'base64'),
};

const meta = (actorId: string | null, ip: string | null, userAgent: string | null): EventMetadata => ({
  actorId,
  actorKind: actorId ? 'user' : 'system',
  ip,
  userAgent,
  client: 'web',
  correlationId: newId(),
  causationId: null,
  time: new Date().toISOString(),
});

const registry = new EventRegistry().register(Registered, Forgotten, Noted);
const event = (type: string, data: unknown, metadata: EventMetadata): EventToAppend => ({
  id: newId(),
  type,
  data: registry.encode({ type, data }).data,
  schemaVersion: 1,
  metadata,
});

let raw: PostgresEventStore;
let store: PersonalDataEventStore;
let keys: SubjectKeys;
let close: () => Promise<void>;
let query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>;
beforeAll(async () => {
  const t = await createTestStore(personalDataMigrations);
  raw = t.store;
  close = t.close;
  query = (sql, params) => t.db.pool.query(sql, params);
  keys = new SubjectKeys(t.db.pool, wrapper);
  store = new PersonalDataEventStore(raw, registry, keys);
});
afterAll(() => close());

const register = async (personId: string, email: string, ip = '198.51.100.7', ua = 'Firefox/140 on Linux') => {
  const stream = `user-${personId}`;
  await store.append(
    stream,
    [event('PersonRegistered', { personId, email, nickname: 'Ada', tags: { city: 'Lyon' }, plan: 'basic' }, meta(personId, ip, ua))],
    expected.noStream,
  );
  return stream;
};

describe('personal data in events (crypto-shredding)', () => {
  it('stores personal fields and the actor’s ip and user agent sealed, and reads them back in clear', async () => {
    const id = newId();
    const stream = await register(id, `ada.${id}@example.com`);
    const { rows } = await query('select data::text as data, metadata::text as metadata from es_events where stream_name = $1', [stream]);
    const stored = rows[0]!.data + rows[0]!.metadata;
    for (const secret of [`ada.${id}@example.com`, 'Ada', 'Lyon', '198.51.100.7', 'Firefox/140']) expect(stored).not.toContain(secret);
    // non-personal fields stay readable in the log (projections, audits and hash chains need them)
    expect(stored).toContain('basic');
    expect(stored).toContain(id);

    const [read] = (await store.readStream(stream)).events;
    expect(read!.data).toEqual({ personId: id, email: `ada.${id}@example.com`, nickname: 'Ada', tags: { city: 'Lyon' }, plan: 'basic' });
    expect(read!.metadata).toMatchObject({ ip: '198.51.100.7', userAgent: 'Firefox/140 on Linux', actorId: id });
  });

  it('forgets a subject for ever once an erasing event is appended, in every read path', async () => {
    const id = newId();
    const other = newId();
    const stream = await register(id, `grace.${id}@example.com`);
    const otherStream = await register(other, `other.${other}@example.com`);
    await store.append(stream, [event('PersonForgotten', { at: new Date().toISOString() }, meta(null, null, null))], expected.any);

    const [first] = (await store.readStream(stream)).events;
    // each field reads as erased in a shape its schema accepts, so decoding still works
    expect(first!.data).toEqual({ personId: id, email: ERASED, nickname: ERASED, tags: {}, plan: 'basic' });
    expect(registry.decode(first!.type, 1, first!.data).data).toMatchObject({ email: ERASED });
    expect(first!.metadata).toMatchObject({ ip: ERASED, userAgent: ERASED });
    expect(await keys.isErased(stream)).toBe(true);

    // readAll and subscriptions see the same
    const page = await store.readAll({ from: 0, limit: 10_000 });
    expect(page.events.find((e) => e.id === first!.id)!.data).toMatchObject({ email: ERASED });
    const seen: RecordedEvent[] = [];
    const sub = store.subscribe(0, { onBatch: (events) => void seen.push(...events) });
    for (let i = 0; i < 100 && !seen.some((e) => e.streamName === otherStream); i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    expect(seen.find((e) => e.id === first!.id)!.data).toMatchObject({ email: ERASED });
    // another subject is untouched
    expect(seen.find((e) => e.streamName === otherStream)!.data).toMatchObject({ email: `other.${other}@example.com` });

    // and a fresh process (no cache) agrees: the key is gone from the database
    const fresh = new PersonalDataEventStore(raw, registry, new SubjectKeys((keys as any).pool, wrapper));
    expect((await fresh.readStream(stream)).events[0]!.data).toMatchObject({ email: ERASED });
    const { rows } = await query('select wrapped_key, erased_at from pii_keys where subject = $1', [stream]);
    expect(rows[0]).toMatchObject({ wrapped_key: null });
    expect(rows[0].erased_at).not.toBeNull();

    // personal data written after the erasure is not kept either
    await store.append(
      stream,
      [event('PersonRegistered', { personId: id, email: 'again@example.com', nickname: null, tags: {}, plan: 'pro' }, meta(null, null, null))],
      expected.any,
    );
    const { rows: after } = await query(
      "select data::text as d from es_events where stream_name = $1 and event_type = 'PersonRegistered' order by stream_revision desc limit 1",
      [stream],
    );
    expect(after[0]!.d).not.toContain('again@example.com');
  });

  it('refuses a sealed value moved to another event: it reads as erased, not as the other value', async () => {
    const a = newId();
    const streamA = await register(a, `a.${a}@example.com`);
    await store.append(
      streamA,
      [event('PersonRegistered', { personId: a, email: `b.${a}@example.com`, nickname: null, tags: {}, plan: 'x' }, meta(a, null, null))],
      expected.any,
    );
    const { rows } = await query('select event_id, data from es_events where stream_name = $1 order by stream_revision', [streamA]);
    // copy the first event's sealed e-mail into the second event
    await query(`update es_events set data = jsonb_set(data, '{email}', $1::jsonb) where event_id = $2`, [
      JSON.stringify(rows[0]!.data.email),
      rows[1]!.event_id,
    ]);
    const events = (await store.readStream(streamA)).events;
    expect(events[0]!.data).toMatchObject({ email: `a.${a}@example.com` });
    expect(events[1]!.data).toMatchObject({ email: ERASED });
  });

  it('events without personal fields are stored as they are', async () => {
    const stream = `note-${newId()}`;
    await store.append(stream, [event('PersonNoted', { note: 'public' }, meta(null, null, null))], expected.noStream);
    const { rows } = await query('select data from es_events where stream_name = $1', [stream]);
    expect(rows[0]!.data).toEqual({ note: 'public' });
  });

  it('gives one key per subject however many writers race to create it, and every value round-trips', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ email: fc.string({ minLength: 1, maxLength: 40 }), nickname: fc.option(fc.string({ maxLength: 20 })) }), {
          minLength: 2,
          maxLength: 8,
        }),
        async (people) => {
          const id = newId();
          const stream = `user-${id}`;
          // concurrent first writes that all need the acting person's key (for the ip), each from a
          // store with a cold cache, as separate processes would be
          const streams = people.map((_, i) => (i === 0 ? stream : `side-${i}-${id}`));
          await Promise.all(
            people.map((p, i) =>
              new PersonalDataEventStore(raw, registry, new SubjectKeys((keys as any).pool, wrapper)).append(
                streams[i]!,
                [event('PersonRegistered', { personId: id, email: p.email, nickname: p.nickname, tags: {}, plan: 'b' }, meta(id, '203.0.113.9', null))],
                expected.any,
              ),
            ),
          );
          for (const [i, p] of people.entries()) {
            const [read] = (await store.readStream(streams[i]!)).events;
            expect(read!.data).toMatchObject({ email: p.email, nickname: p.nickname });
            expect(read!.metadata.ip).toBe('203.0.113.9');
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

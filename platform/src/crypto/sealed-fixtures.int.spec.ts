import { defineEvent, ERASED, EventRegistry, type EventMetadata } from '@axel/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestStore } from '../../../test/db';
import { FileKeys, fileKeyMigrations, MasterKeyRing, masterKeyId } from '../blobs/keys';
import { PersonalDataEventStore, personalDataMigrations, SubjectKeys, type KeyWrapper } from '../eventstore/personal-data';
import { expected, type RecordedEvent } from '../eventstore/port';
import type { PostgresEventStore } from '../eventstore/postgres';
import type { Pool } from '../postgres/pool';
import { noncesLeft, useNonces } from './fixtures/fixed-nonces';
import { fileKeyFixture, personalDataFixture as p } from './fixtures/sealed';

vi.mock('node:crypto', async (importOriginal) =>
  (await import('./fixtures/fixed-nonces')).withFixedNonces(await importOriginal<typeof import('node:crypto')>()),
);

const hex = (s: string) => Buffer.from(s, 'hex');

let pool: Pool;
let close: () => Promise<void>;
let events: PostgresEventStore;
beforeAll(async () => {
  const t = await createTestStore([...personalDataMigrations, ...fileKeyMigrations]);
  pool = t.db.pool;
  events = t.store;
  close = t.close;
});
afterAll(() => close());
afterEach(() => expect(noncesLeft()).toBe(0));

describe('file keys wrapped before unwrap unchanged, and wrap to the same bytes', () => {
  const f = fileKeyFixture;

  it('a data key wrapped by a master key opens with it, and a rotation re-wraps it to the same bytes', async () => {
    expect(masterKeyId(hex(f.underA.master))).toBe(f.underA.masterId);
    expect(masterKeyId(hex(f.underB.master))).toBe(f.underB.masterId);
    await pool.query('insert into file_keys (key_id, master_key_id, wrapped_key) values ($1, $2, $3)', [f.keyId, f.underA.masterId, hex(f.underA.wrapped)]);
    expect((await new FileKeys(pool, new MasterKeyRing(hex(f.underA.master))).get(f.keyId)).toString('hex')).toBe(f.dataKey);

    useNonces(f.underB.nonce);
    const rotating = new FileKeys(pool, new MasterKeyRing(hex(f.underB.master), [hex(f.underA.master)]));
    expect(await rotating.rotate()).toEqual({ rewrapped: 1 });
    const { rows } = await pool.query<{ master_key_id: string; wrapped_key: Buffer }>('select master_key_id, wrapped_key from file_keys where key_id = $1', [
      f.keyId,
    ]);
    expect(rows[0]!.master_key_id).toBe(f.underB.masterId);
    expect(rows[0]!.wrapped_key.toString('hex')).toBe(f.underB.wrapped);
    expect((await new FileKeys(pool, new MasterKeyRing(hex(f.underB.master))).get(f.keyId)).toString('hex')).toBe(f.dataKey);
  });
});

describe('personal fields sealed before open unchanged, and seal to the same bytes', () => {
  const Registered = defineEvent(p.type, z.object({ personId: z.string(), email: z.string(), tags: z.record(z.string(), z.string()), plan: z.string() }), {
    personal: ['email', 'tags'],
  });
  const registry = new EventRegistry().register(Registered);
  // the subject key as it is after unwrapping (how it is wrapped is the server secrets' fixture)
  const wrapper: KeyWrapper = { wrap: (key) => key.toString('hex'), unwrap: (wrapped) => hex(wrapped) };
  const metadata = p.metadata as unknown as EventMetadata;

  it('an event as the log holds it reads in clear', async () => {
    await pool.query('insert into pii_keys (subject, wrapped_key) values ($1, $2) on conflict do nothing', [p.subject, p.key]);
    const store = new PersonalDataEventStore(events, registry, new SubjectKeys(pool, wrapper));
    const stored: RecordedEvent = {
      id: p.eventId,
      type: p.type,
      data: { personId: p.data.personId, email: p.stored.email, tags: p.stored.tags, plan: p.data.plan },
      schemaVersion: 1,
      metadata: { ...metadata, ip: p.stored.ip } as unknown as EventMetadata,
      streamName: p.subject,
      revision: 0,
      position: 1,
      recordedAt: new Date(),
    };
    const [opened] = await store.open([stored]);
    expect(opened!.data).toEqual(p.data);
    expect(opened!.metadata).toEqual(p.metadata);
    // bound to its event: under another event id the same sealed values read as erased
    const [moved] = await store.open([{ ...stored, id: '01936f4e-5b1a-7c3d-9e2f-0a1b2c3d4e60' }]);
    expect(moved!.data).toMatchObject({ email: ERASED });
    expect(moved!.metadata).toMatchObject({ ip: ERASED });
  });

  it('appending the same event with the same nonces stores the same sealed values', async () => {
    await pool.query('insert into pii_keys (subject, wrapped_key) values ($1, $2) on conflict do nothing', [p.subject, p.key]);
    const store = new PersonalDataEventStore(events, registry, new SubjectKeys(pool, wrapper));
    useNonces(...p.nonces);
    await store.append(
      p.subject,
      [{ id: p.eventId, type: p.type, data: registry.encode({ type: p.type, data: p.data }).data, schemaVersion: 1, metadata }],
      expected.noStream,
    );
    const [raw] = (await events.readStream(p.subject)).events;
    expect(raw!.data).toEqual({ personId: p.data.personId, email: p.stored.email, tags: p.stored.tags, plan: p.data.plan });
    expect(raw!.metadata).toEqual({ ...p.metadata, ip: p.stored.ip });
  });
});

import { randomUUID } from 'node:crypto';
import { loadSigningKey, type AuditSigningKey } from '@axel/platform/audit/keys';
import { verifyExportLines } from '@axel/platform/audit/export-format';
import { esEventColumns, PostgresEventStore, type EventStore } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settled } from '../../testing/read-models';
import { exportPortRange, sealPortAll, verifyPortChain } from './audit.chain-port';

/**
 * The audit chain read through the event store port, here over the PostgreSQL adapter (the same
 * code reads KurrentDB when EVENTSTORE_URL names one; no KurrentDB server runs on this machine).
 */
let t: TestApp;
let key: AuditSigningKey;
let store: EventStore;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
  key = loadSigningKey(undefined, t.app.ctx.config.dataDir);
  // the store as written (personal fields sealed), through the port only
  store = new PostgresEventStore({ pool: t.app.ctx.pool, connectionString: t.app.ctx.databaseUrl });
  for (let i = 0; i < 3; i++) await signUpConfirmed();
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

const { signUpConfirmed } = accountHelpers(() => t);
const sql = (text: string, values: unknown[] = []) => t.app.ctx.pool.query(text, values);
const seal = () => sealPortAll(t.app.ctx.pool, store, key, 7);
const verify = async () => {
  const answer = await verifyPortChain(t.app.ctx.pool, store, key);
  // read in pages of two, the same answer: a tampering at a page's edge is found as well
  expect(await verifyPortChain(t.app.ctx.pool, store, key, { pageSize: 2 })).toEqual(answer);
  return answer;
};
const sealedPositions = async () => (await sql('select position from audit_port_links order by position')).rows.map((r) => Number(r.position));
const middle = async () => {
  const positions = await sealedPositions();
  return { positions, at: positions[Math.floor(positions.length / 2)]! };
};
const exported = async (range: { from?: number; to?: number } = {}) => {
  let text = '';
  for await (const chunk of exportPortRange(t.app.ctx.pool, store, key, range, { pageSize: 3 })) text += chunk;
  return text.trimEnd().split('\n');
};

describe('the audit chain through the event store port', () => {
  it('seals every event the port reads, in batches ending in signed checkpoints, and verify finds the log intact', async () => {
    // a delivered mail appends an event of its own: count once the app is at rest
    await settled(t);
    await seal();
    const head = await store.headPosition();
    const { rows } = await sql(
      'select (select count(*) from es_events)::int as events, (select count(*) from audit_port_links)::int as links, (select count(*) from audit_port_checkpoints)::int as checkpoints',
    );
    expect(rows[0].links).toBe(rows[0].events);
    expect(rows[0].checkpoints).toBe(Math.ceil(rows[0].events / 7));
    expect(await verify()).toEqual({ ok: true, checkedUpTo: head, firstMismatch: null, reason: null, events: rows[0].events });

    // new events are sealed after the last link, never twice
    await signUpConfirmed();
    await settled(t);
    const more = await seal();
    expect(more).toBeGreaterThan(0);
    expect((await verify()).checkedUpTo).toBe(await store.headPosition());
    expect(await seal()).toBe(0);
  });

  it('names the position of an event edited directly in es_events', async () => {
    await seal();
    const { at } = await middle();
    const { rows } = await sql('select data from es_events where position = $1', [at]);
    await sql(`update es_events set data = data || '{"tampered": true}'::jsonb where position = $1`, [at]);
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    await sql('update es_events set data = $2 where position = $1', [at, rows[0].data]);
    expect((await verify()).ok).toBe(true);
  });

  it('names a deleted event, an inserted one and two swapped', async () => {
    await seal();
    const { positions, at } = await middle();
    const { rows } = await sql('delete from es_events where position = $1 returning *', [at]);
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: at, reason: 'deleted' });
    const r = rows[0];
    await sql(`insert into es_events (${esEventColumns()}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      r.position,
      r.stream_name,
      r.stream_revision,
      r.event_id,
      r.event_type,
      r.schema_version,
      r.data,
      r.metadata,
      r.recorded_at,
    ]);
    expect((await verify()).ok).toBe(true);

    const i = positions.findIndex((p, k) => p >= at && positions[k + 1]! - p >= 2);
    const inserted = Math.floor((positions[i]! + positions[i + 1]!) / 2);
    await sql(
      `insert into es_events (${esEventColumns(undefined, { written: true })}) values ($1, $2, 0, $3, 'UserRoleChanged', 1, '{"role":"super_admin"}', '{}')`,
      [inserted, `user-${randomUUID()}`, randomUUID()],
    );
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: inserted, reason: 'inserted' });
    await sql('delete from es_events where position = $1', [inserted]);

    const later = positions[positions.indexOf(at) + 2]!;
    const swap = async () => {
      await sql('update es_events set position = -1 where position = $1', [at]);
      await sql('update es_events set position = $1 where position = $2', [at, later]);
      await sql('update es_events set position = $1 where position = -1', [later]);
    };
    await swap();
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    await swap();
    expect((await verify()).ok).toBe(true);
  });

  it('links rewritten to match an edit break the signed checkpoint', async () => {
    await seal();
    const { positions, at } = await middle();
    const { rows: saved } = await sql('select position, link from audit_port_links where position >= $1 order by position', [at]);
    const { rows } = await sql('select data from es_events where position = $1', [at]);
    await sql(`update es_events set data = data || '{"tampered": true}'::jsonb where position = $1`, [at]);
    // recompute the links from the edit on, as someone with write access to the database would
    const { chainEvent } = await import('@axel/platform/audit/chain');
    const { rows: before } = await sql('select link from audit_port_links where position < $1 order by position desc limit 1', [at]);
    let previous: Buffer = before[0].link;
    for (const position of positions.filter((p) => p >= at)) {
      const { rows: e } = await sql('select * from es_events where position = $1', [position]);
      const row = e[0];
      previous = chainEvent(previous, {
        id: row.event_id,
        stream: row.stream_name,
        revision: row.stream_revision,
        position,
        type: row.event_type,
        schemaVersion: row.schema_version,
        data: row.data,
        metadata: row.metadata,
      });
      await sql('update audit_port_links set link = $2 where position = $1', [position, previous]);
    }
    const answer = await verify();
    expect(answer).toMatchObject({ ok: false, reason: 'checkpoint' });
    expect(answer.firstMismatch).toBeGreaterThanOrEqual(at);
    await sql('update es_events set data = $2 where position = $1', [at, rows[0].data]);
    for (const s of saved) await sql('update audit_port_links set link = $2 where position = $1', [s.position, s.link]);
    expect((await verify()).ok).toBe(true);
  });

  it('exports a range that the offline verifier accepts with the public key, and names a tampered line', async () => {
    await seal();
    const { positions, at } = await middle();
    const lines = await exported({ from: at, to: positions[positions.indexOf(at) + 3] });
    const kinds = lines.map((l) => JSON.parse(l).kind);
    expect(kinds[0]).toBe('axel-audit-export');
    expect(JSON.parse(lines[1]!).position).toBe(at);
    expect(kinds.at(-1)).toBe('checkpoint');
    const offline = await verifyExportLines(lines, key);
    expect(offline).toMatchObject({ ok: true, firstBadLine: null });
    expect(offline.events).toBe(kinds.filter((k) => k === 'event').length);

    const tampered = [...lines];
    const event = JSON.parse(tampered[1]!);
    tampered[1] = JSON.stringify({ ...event, type: 'UserDeleted' });
    expect((await verifyExportLines(tampered, key)).firstBadLine).toMatchObject({ line: 2 });

    // the whole sealed log as well
    expect(await verifyExportLines(await exported(), key)).toMatchObject({ ok: true, events: positions.length });
  });
});

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSigningKey, type AuditSigningKey } from '@axel/platform/audit/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { SECRET_SHAPES } from '../../testing/secret-scan';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';
import { runProductCli } from '../../../../test/product-process';
import { CheckpointRecord } from '@axel/platform/audit/record';
import { exportRange, sealAll, verifyAudit } from './audit.chain-store';
import { esEventColumns } from '@axel/platform';

let t: TestApp;
let key: AuditSigningKey;
let auditor: HttpClient;
beforeAll(async () => {
  // the worker role seals on its own too; the tests also seal explicitly (one sealer at a time holds the lock)
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
  key = loadSigningKey(undefined, t.app.ctx.config.dataDir);
  const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
  const email = uniqueEmail('auditor');
  expect((await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'auditor' })).status).toBe(201);
  auditor = (await signIn(email)).http;
  for (let i = 0; i < 3; i++) await signUpConfirmed();
});
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, signIn, signUpConfirmed, lastMail, PASSWORD } = accountHelpers(() => t);
const sql = (text: string, values: unknown[] = []) => t.app.ctx.pool.query(text, values);
const seal = () => sealAll(t.app.ctx.pool, key);
const verify = async () => {
  const res = await auditor.get('/api/admin/audit/verify');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // read in pages of two, the same answer: a tampering at a page's edge is found as well
  const { sealerError: _s, anchorError: _a, anchoredUpTo: _u, ...body } = res.body;
  const { anchoredUpTo: _d, ...direct } = await verifyAudit(t.app.ctx.pool, key, { pageSize: 2, record: new CheckpointRecord(t.app.ctx.config.dataDir) });
  expect(direct).toEqual(body);
  return res.body as { ok: boolean; checkedUpTo: number; firstMismatch: number | null; reason: string | null };
};
const sealedPositions = async () => (await sql('select position from audit_links order by position')).rows.map((r) => Number(r.position));

const cli = (args: string[], env: Record<string, string> = {}) => runProductCli('api/src/cli/audit.ts', args, env);

const probe = `select * from es_append($1, 'any', null, array[$2::uuid], array['AuditProbe'], array[1], array['{}'::jsonb], array['{}'::jsonb])`;

describe('sealing', () => {
  it('chains every event and verify finds the log intact', async () => {
    await seal();
    const { rows } = await sql(
      'select (select count(*) from es_events)::int as events, (select count(*) from audit_links)::int as links, (select max(position) from es_events) as head',
    );
    expect(rows[0].links).toBe(rows[0].events);
    expect(await verify()).toMatchObject({
      ok: true,
      checkedUpTo: Number(rows[0].head),
      firstMismatch: null,
      reason: null,
      events: rows[0].events,
      unsealedEvents: 0,
    });
  });

  it('never leaves out an event that commits late: it is sealed in its place once committed', async () => {
    await seal();
    const late = await t.app.ctx.pool.connect();
    try {
      await late.query('begin');
      await late.query(probe, [`late-${randomUUID()}`, randomUUID()]);
      // committed after the late one began, so at a higher position
      await sql(probe, [`early-${randomUUID()}`, randomUUID()]);
      await seal();
      const { rows } = await sql('select count(*)::int as n from es_events e left join audit_links l using (position) where l.position is null');
      expect(rows[0].n).toBe(1);
      await late.query('commit');
    } finally {
      late.release();
    }
    await seal();
    expect(await verify()).toMatchObject({ ok: true, firstMismatch: null });
    const { rows } = await sql('select count(*)::int as n from es_events e left join audit_links l using (position) where l.position is null');
    expect(rows[0].n).toBe(0);
  });

  it('publishes the public key that verifies the checkpoints', async () => {
    const res = await fetch(`${t.url}/.well-known/audit-key`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-audit-key-id')).toBe(key.keyId);
    expect(await res.text()).toBe(key.publicKeyPem);
  });
});

describe('tampering in PostgreSQL is caught at its position', () => {
  const middle = async () => {
    await seal();
    const positions = await sealedPositions();
    return { positions, at: positions[Math.floor(positions.length / 2)]! };
  };

  it('an edited event', async () => {
    const { at } = await middle();
    const { rows } = await sql('select data from es_events where position = $1', [at]);
    await sql(`update es_events set data = data || '{"tampered": true}'::jsonb where position = $1`, [at]);
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    await sql('update es_events set data = $2 where position = $1', [at, rows[0].data]);
    expect((await verify()).ok).toBe(true);
  });

  it('a deleted event', async () => {
    const { at } = await middle();
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
  });

  it('an inserted event', async () => {
    const { positions, at } = await middle();
    // a free position between two sealed events, from the middle of the log on
    const i = positions.findIndex((p, k) => p >= at && positions[k + 1]! - p >= 2);
    const inserted = Math.floor((positions[i]! + positions[i + 1]!) / 2);
    expect(positions).not.toContain(inserted);
    await sql(
      `insert into es_events (${esEventColumns(undefined, { written: true })}) values ($1, $2, 0, $3, 'UserRoleChanged', 1, '{"role":"super_admin"}', '{}')`,
      [inserted, `user-${randomUUID()}`, randomUUID()],
    );
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: inserted, reason: 'inserted' });
    await sql('delete from es_events where position = $1', [inserted]);
    expect((await verify()).ok).toBe(true);
  });

  it('two events swapped', async () => {
    const { positions, at } = await middle();
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
    const { positions } = await middle();
    const at = positions[positions.length - 1]!;
    const { rows } = await sql('select data from es_events where position = $1', [at]);
    await sql(`update es_events set data = data || '{"tampered": true}'::jsonb where position = $1`, [at]);
    const { rows: prev } = await sql('select link from audit_links where position < $1 order by position desc limit 1', [at]);
    const { rows: ev } = await sql('select *, data::text as data_text, metadata::text as metadata_text from es_events where position = $1', [at]);
    const { chainDigest, eventDigest } = await import('@axel/platform/audit/chain');
    const e = ev[0];
    const digest = eventDigest({
      id: e.event_id,
      stream: e.stream_name,
      revision: Number(e.stream_revision),
      position: at,
      type: e.event_type,
      schemaVersion: e.schema_version,
      dataText: e.data_text,
      metadataText: e.metadata_text,
    });
    const forged = chainDigest(prev[0].link, digest);
    const { rows: old } = await sql('select link from audit_links where position = $1', [at]);
    await sql('update audit_links set link = $2 where position = $1', [at, forged]);
    expect(await verify()).toMatchObject({ ok: false, firstMismatch: at, reason: 'checkpoint' });
    await sql('update audit_links set link = $2 where position = $1', [at, old[0].link]);
    await sql('update es_events set data = $2 where position = $1', [at, rows[0].data]);
    expect((await verify()).ok).toBe(true);
  });
});

describe('export and the offline verifier', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axel-audit-'));

  it('exports a range an auditor verifies offline with the published key; a tampered line is named', async () => {
    await seal();
    const positions = await sealedPositions();
    const from = positions[2]!;
    const to = positions[positions.length - 2]!;
    const res = await auditor.request('GET', `/api/admin/audit/export?from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const text = res.body as string;
    const lines = text.trimEnd().split('\n');
    const events = lines.map((l) => JSON.parse(l)).filter((l) => l.kind === 'event');
    expect(events[0].position).toBe(from);
    expect(events.at(-1).position).toBeGreaterThanOrEqual(to);
    expect(JSON.parse(lines.at(-1)!).kind).toBe('checkpoint');
    // written in pages of three, the same text
    let paged = '';
    for await (const chunk of exportRange(t.app.ctx.pool, key, { from, to }, { pageSize: 3 })) paged += chunk;
    expect(paged).toBe(text);

    const file = path.join(dir, 'export.jsonl');
    fs.writeFileSync(file, text);
    const keyFile = path.join(dir, 'audit-key.pem');
    fs.writeFileSync(keyFile, await (await fetch(`${t.url}/.well-known/audit-key`)).text());
    const intact = await cli(['verify-offline', file, '--key', keyFile]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toContain(`intact: ${events.length} events`);

    const bad = [...lines];
    const at = 4;
    bad[at - 1] = JSON.stringify({ ...JSON.parse(bad[at - 1]!), data: { role: 'super_admin' } });
    expect(JSON.parse(bad[at - 1]!).kind).toBe('event');
    const tamperedFile = path.join(dir, 'tampered.jsonl');
    fs.writeFileSync(tamperedFile, `${bad.join('\n')}\n`);
    const caught = await cli(['verify-offline', tamperedFile, '--key', keyFile]);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain(`${tamperedFile}:${at}:`);

    const otherKey = path.join(dir, 'other.pem');
    const { generateKeyPairSync } = await import('node:crypto');
    fs.writeFileSync(otherKey, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    const wrongSigner = await cli(['verify-offline', file, '--key', otherKey]);
    expect(wrongSigner.code).toBe(1);
    expect(wrongSigner.stderr).toContain('signed by key');
  }, 60_000);

  it('exports the events recorded between two instants', async () => {
    await seal();
    const { rows } = await sql('select position, recorded_at from es_events order by position');
    const middle = rows[Math.floor(rows.length / 2)]!;
    const since = (middle.recorded_at as Date).toISOString();
    const res = await auditor.request(
      'GET',
      `/api/admin/audit/export?from=${encodeURIComponent(since)}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(res.status).toBe(200);
    const events = (res.body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === 'event');
    const expected = rows.filter((r) => r.recorded_at >= middle.recorded_at).map((r) => Number(r.position));
    expect(events[0].position).toBe(Math.min(...expected));
    expect(events.length).toBeGreaterThan(0);
    expect(events.some((e: { position: number }) => e.position < Math.min(...expected))).toBe(false);
  });

  it('refuses a bad range in the error shape', async () => {
    for (const query of ['from=-1', 'to=yesterday', 'from=2026-13-01T00:00:00Z']) {
      const res = await auditor.get(`/api/admin/audit/export?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('npm run audit -- verify checks a database from the command line', async () => {
    await seal();
    const env = { DATABASE_URL: t.db.url, DATA_DIR: t.app.ctx.config.dataDir, LOG_LEVEL: 'silent' };
    const ok = await cli(['verify'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split('\n').at(-1)!)).toMatchObject({ ok: true, firstMismatch: null });
    const [at] = (await sealedPositions()).slice(-3);
    const { rows } = await sql('select metadata from es_events where position = $1', [at]);
    await sql(`update es_events set metadata = metadata || '{"actorId":"someone-else"}'::jsonb where position = $1`, [at]);
    const caught = await cli(['verify'], env);
    expect(caught.code).toBe(1);
    expect(JSON.parse(caught.stdout.trim().split('\n').at(-1)!)).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    await sql('update es_events set metadata = $2 where position = $1', [at, rows[0].metadata]);
  }, 180_000);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('the activity log holds no secret', () => {
  it('no event, stored or opened, holds a password, a mailed token, or anything secret-shaped', async () => {
    // a password reset and a confirmation mail, so mailed tokens exist to look for
    const { email } = await signUpConfirmed();
    expect((await new HttpClient(t.url).post('/api/password-resets/', { email })).status).toBe(202);
    await lastMail(email, 'Reset your password');
    await seal();
    const { rows: mails } = await sql('select body_text from dev_mailbox');
    const mailed = new Set<string>();
    for (const { body_text } of mails) {
      // the last path segment of every mailed link, but ids (links also name the account)
      for (const m of (body_text as string).matchAll(/https?:\/\/[^\s/]+(?:\/[^\s/?#]*)*\/([^\s/?#]{16,})/g)) {
        const segment = decodeURIComponent(m[1]!);
        if (!UUID.test(segment)) mailed.add(segment);
      }
    }
    expect(mailed.size).toBeGreaterThan(0);
    const secrets = [PASSWORD, 'Root-pass-123', ...mailed];
    const secretsIn = (text: string) => [...secrets.filter((secret) => text.includes(secret)), ...SECRET_SHAPES.filter((shape) => shape.test(text))];
    // the scan finds what it looks for
    expect(secretsIn(JSON.stringify({ note: [...mailed][0], key: '-----BEGIN PRIVATE KEY-----' }))).toHaveLength(2);

    const { rows: stored } = await sql('select position, event_type, data::text || metadata::text as text from es_events');
    const opened: { position: number; type: string; text: string }[] = [];
    for (let from = 0; ; ) {
      const page = await t.app.ctx.store.readAll({ from, limit: 1000 });
      for (const e of page.events) opened.push({ position: e.position, type: e.type, text: JSON.stringify([e.data, e.metadata]) });
      from = page.checkpoint;
      if (page.isEnd) break;
    }
    expect(opened.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const e of [...stored.map((r) => ({ position: Number(r.position), type: r.event_type as string, text: r.text as string })), ...opened]) {
      for (const hit of secretsIn(e.text))
        found.push(
          `${e.type} at ${e.position} holds ${typeof hit === 'string' ? `a mailed token or a password (${hit.slice(0, 4)}...)` : `something shaped like ${hit}`}`,
        );
    }
    expect(found).toEqual([]);
  });
});

describe('personal data', () => {
  it('erasing every personal-data key leaves the chain intact: it covers the stored, sealed bytes', async () => {
    await seal();
    const { rows } = await sql(`select count(*)::int as n from es_events where data::text like '%"$pii"%'`);
    expect(rows[0].n).toBeGreaterThan(0);
    await sql('delete from pii_keys');
    expect(await verify()).toMatchObject({ ok: true, firstMismatch: null });
  });
});

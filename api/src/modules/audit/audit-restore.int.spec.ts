import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AUDIT_RECORD_FILE, CheckpointRecord } from '@axel/platform/audit/record';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, type HttpClient, type TestApp } from '../../testing/harness';

/*
 * A database restored from a backup older than the checkpoint record beside the signing key: the
 * sealer refuses to seal until staff accept the restore with `npm run audit -- accept-restore`,
 * which appends to the record (never rewrites it); sealing then goes on and verify says so.
 */

let t: TestApp;
let auditor: HttpClient;
let dataDir: string;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
  dataDir = t.app.ctx.config.dataDir;
  const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
  const email = uniqueEmail('auditor');
  expect((await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'auditor' })).status).toBe(201);
  auditor = (await signIn(email)).http;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, signIn, PASSWORD } = accountHelpers(() => t);
const sql = (text: string, values: unknown[] = []) => t.app.ctx.pool.query(text, values);
const append = async (data: Record<string, unknown>): Promise<number> => {
  const { rows } = await sql(
    `select last_position from es_append($1, 'any', null, array[$2::uuid], array['AuditProbe'], array[1], array[$3::jsonb], array['{"actorKind":"system"}'::jsonb])`,
    [`billing-${randomUUID()}`, randomUUID(), JSON.stringify(data)],
  );
  return Number(rows[0].last_position);
};
const head = async () => Number((await sql('select max(position) as p from es_events')).rows[0].p);
const sealedHead = async () => Number((await sql('select coalesce(max(upto_position), 0) as p from audit_checkpoints')).rows[0].p);
const sealedByProduct = async () => {
  const target = await head();
  for (let i = 0; i < 600 && (await sealedHead()) < target; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await sealedHead()).toBeGreaterThanOrEqual(target);
};
const verify = async () => {
  const res = await auditor.get('/api/admin/audit/verify');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const root = path.resolve(import.meta.dirname, '../../../..');
const cli = (args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'api/src/cli/audit.ts', ...args], {
      cwd: root,
      env: { ...process.env, AUDIT_SIGNING_KEY: '', DATABASE_URL: t.db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });

describe('a database restored from a backup', () => {
  let backedUp: number;
  let recordBefore: Buffer;

  it('stops the sealer: the record is ahead of the restored database', async () => {
    for (let i = 0; i < 3; i++) await append({ before: i });
    await sealedByProduct();
    // the backup is taken here
    backedUp = await sealedHead();
    for (let i = 0; i < 3; i++) await append({ lost: i });
    await sealedByProduct();
    expect(new CheckpointRecord(dataDir).refresh().last!.upto).toBeGreaterThan(backedUp);

    // the restore: what was written after the backup is gone from the database (the sealing lock
    // held, as a stopped product would)
    const client = await t.app.ctx.pool.connect();
    try {
      await client.query('select pg_advisory_lock(7310012)');
      await client.query('delete from es_events where position > $1', [backedUp]);
      await client.query('delete from audit_links where position > $1', [backedUp]);
      await client.query('delete from audit_checkpoints where upto_position > $1', [backedUp]);
      await client.query('select pg_advisory_unlock(7310012)');
    } finally {
      client.release();
    }
    for (let i = 0; i < 3; i++) await append({ after: i });
    // the sealer tries again and again: it seals nothing
    await new Promise((r) => setTimeout(r, 3000));
    expect(await sealedHead()).toBe(backedUp);
    const answer = await verify();
    expect(answer).toMatchObject({ ok: false, reason: 'rewritten', acceptedRestores: [] });
    expect(answer.sealerError).toContain('rewritten');
    recordBefore = fs.readFileSync(path.join(dataDir, AUDIT_RECORD_FILE));
  }, 120_000);

  it('accept-restore refuses without a reason, or at another position than the restored last checkpoint', async () => {
    const bare = await cli(['accept-restore', '--position', String(backedUp)]);
    expect(bare.code).toBe(64);
    const elsewhere = await cli(['accept-restore', '--position', String(backedUp - 1), '--reason', 'restored from the nightly backup']);
    expect(elsewhere.code, elsewhere.stderr).toBe(1);
    expect(elsewhere.stderr).toContain(`NOT ACCEPTED: the restored database's last checkpoint is at position ${backedUp}`);
    expect(fs.readFileSync(path.join(dataDir, AUDIT_RECORD_FILE)).equals(recordBefore)).toBe(true);
    // still refused
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sealedHead()).toBe(backedUp);
  }, 120_000);

  it('once accepted (appended to the record, nothing rewritten), sealing resumes and verify reports the restore in words', async () => {
    const accepted = await cli(['accept-restore', '--position', String(backedUp), '--reason', 'disk failure: restored from the nightly backup']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`the log goes on from position ${backedUp}`);
    const after = fs.readFileSync(path.join(dataDir, AUDIT_RECORD_FILE));
    expect(after.subarray(0, recordBefore.length).equals(recordBefore)).toBe(true);
    const added = after.subarray(recordBefore.length).toString('utf8').trim().split('\n');
    expect(added).toHaveLength(1);
    expect(JSON.parse(added[0]!)).toMatchObject({ kind: 'restore', upto: backedUp, reason: 'disk failure: restored from the nightly backup' });

    await sealedByProduct();
    expect(await sealedHead()).toBeGreaterThan(backedUp);
    const answer = await verify();
    expect(answer).toMatchObject({ ok: true, reason: null, sealerError: null });
    expect(answer.acceptedRestores).toHaveLength(1);
    expect(answer.acceptedRestores[0]).toMatchObject({ upto: backedUp, reason: 'disk failure: restored from the nightly backup' });
    expect(answer.acceptedRestores[0].description).toContain(`a restore of the database was accepted on`);
    const checked = await cli(['verify']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toContain(`note: a restore of the database was accepted on`);
    expect(checked.stderr).toContain('(reason: disk failure: restored from the nightly backup)');
    // a second acceptance has nothing to accept
    const again = await cli(['accept-restore', '--position', String(await sealedHead()), '--reason', 'again']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('nothing to accept');
  }, 180_000);
});

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadSigningKey, type AuditSigningKey } from '@axel/platform/audit/keys';
import { AUDIT_RECORD_FILE, CheckpointRecord, parseAnchorPayload } from '@axel/platform/audit/record';
import type { Pool } from '@axel/platform';
import type { DevelopmentChain } from '@axel/platform/chain/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, type HttpClient, type TestApp } from '../../testing/harness';
import { runProductCli } from '../../../../test/product-process';
import { anchoredCheckpoints, anchorLatest } from './audit.anchor';
import { sealAll, verifyAudit } from './audit.chain-store';

let t: TestApp;
let key: AuditSigningKey;
let auditor: HttpClient;
let dataDir: string;

beforeAll(async () => {
  // the worker role runs the product's sealer, which keeps DATA_DIR/audit-checkpoints.jsonl
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
  dataDir = t.app.ctx.config.dataDir;
  key = loadSigningKey(undefined, dataDir);
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
const append = async (type: string, data: Record<string, unknown>): Promise<number> => {
  const { rows } = await sql(
    `select last_position from es_append($1, 'any', null, array[$2::uuid], array[$3], array[1], array[$4::jsonb], array['{"actorKind":"system"}'::jsonb])`,
    [`billing-${randomUUID()}`, randomUUID(), type, JSON.stringify(data)],
  );
  return Number(rows[0].last_position);
};
const head = async () => Number((await sql('select max(position) as p from es_events')).rows[0].p);
const sealedHead = async () => Number((await sql('select coalesce(max(upto_position), 0) as p from audit_checkpoints')).rows[0].p);
/** Until the running sealer has sealed everything committed so far. */
const sealedByProduct = async () => {
  const target = await head();
  for (let i = 0; i < 600 && (await sealedHead()) < target; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await sealedHead()).toBeGreaterThanOrEqual(target);
};
const verify = async () => {
  const res = await auditor.get('/api/admin/audit/verify');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    ok: boolean;
    checkedUpTo: number;
    firstMismatch: number | null;
    reason: string | null;
    unsealedEvents: number;
    recordedUpTo: number | null;
    anchoredUpTo: number | null;
    sealerError: string | null;
  };
};

const cli = (args: string[], env: Record<string, string> = {}) => runProductCli('api/src/cli/audit.ts', args, { AUDIT_SIGNING_KEY: '', ...env });

/**
 * Runs `work` with the sealing lock held on one connection, handed to it as a pool of that one
 * connection: the product's sealer cannot seal meanwhile, the work can.
 */
const withSealingLock = async <T>(work: (pool: Pool) => Promise<T>): Promise<T> => {
  const client = await t.app.ctx.pool.connect();
  const release = client.release.bind(client);
  try {
    await client.query('select pg_advisory_lock(7310012)');
    client.release = () => undefined;
    const one = { connect: async () => client, query: client.query.bind(client) } as unknown as Pool;
    return await work(one);
  } finally {
    await client.query('select pg_advisory_unlock(7310012)').catch(() => undefined);
    client.release = release;
    release();
  }
};

describe('a signed checkpoint is final', () => {
  let payment: number;

  it('the product keeps every checkpoint it signs in DATA_DIR, on disk before it commits', async () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) await append('AuditProbe', { round, i });
      if (round === 1) payment = await append('PaymentRecorded', { amount: 999, currency: 'USD', checkoutId: randomUUID() });
      await sealedByProduct();
    }
    const record = new CheckpointRecord(dataDir).refresh();
    const { rows } = await sql('select upto_position as upto, link from audit_checkpoints order by upto_position');
    expect(record.checkpoints().length).toBeGreaterThanOrEqual(3);
    // every checkpoint of the database is in the record, with its link
    for (const r of rows)
      expect(
        record
          .checkpoints()
          .find((c) => c.upto === Number(r.upto))
          ?.link.equals(r.link),
        `checkpoint ${r.upto}`,
      ).toBe(true);
    expect(fs.statSync(path.join(dataDir, AUDIT_RECORD_FILE)).mode & 0o777).toBe(0o600);
    expect(await verify()).toMatchObject({ ok: true, reason: null, unsealedEvents: 0, recordedUpTo: record.last!.upto });
  }, 60_000);

  it('an amount edited and the links and checkpoints deleted from there on: the sealer refuses to re-sign, verify and the CLI say rewritten at that position', async () => {
    expect(payment).toBeGreaterThan(0);
    const recordedBefore = new CheckpointRecord(dataDir).refresh().checkpoints().length;
    await sql(`update es_events set data = jsonb_set(data, '{amount}', '1') where position = $1`, [payment]);
    await sql('delete from audit_links where position >= $1', [payment]);
    await sql('delete from audit_checkpoints where upto_position >= $1', [payment]);
    // the running sealer tries again and again for 3 seconds
    await new Promise((r) => setTimeout(r, 3000));
    expect((await sql('select count(*)::int as n from audit_checkpoints where upto_position >= $1', [payment])).rows[0].n).toBe(0);
    expect((await sql('select count(*)::int as n from audit_links where position >= $1', [payment])).rows[0].n).toBe(0);
    expect(new CheckpointRecord(dataDir).refresh().checkpoints().length).toBe(recordedBefore);

    const answer = await verify();
    expect(answer).toMatchObject({ ok: false, reason: 'rewritten', firstMismatch: payment });
    expect(answer.checkedUpTo).toBeLessThan(payment);
    expect(answer.sealerError).toContain(`rewritten at position ${payment}`);

    const env = { DATABASE_URL: t.db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const caught = await cli(['verify'], env);
    expect(caught.code, caught.stderr).toBe(1);
    expect(JSON.parse(caught.stdout.trim().split('\n').at(-1)!)).toMatchObject({ ok: false, firstMismatch: payment, reason: 'rewritten' });
    expect(caught.stderr).toContain('rewritten');
  }, 180_000);

  it('once the amount is put back, the sealer writes the recorded checkpoints again and the log verifies', async () => {
    await sql(`update es_events set data = jsonb_set(data, '{amount}', '999') where position = $1`, [payment]);
    await withSealingLock((pool) => sealAll(pool, key, undefined, new CheckpointRecord(dataDir)));
    const record = new CheckpointRecord(dataDir).refresh();
    const { rows } = await sql('select upto_position as upto, signature from audit_checkpoints where upto_position >= $1 order by upto_position', [payment]);
    // the recorded checkpoints, with their recorded signatures: nothing was signed again
    for (const r of rows) {
      const recorded = record.checkpoints().find((c) => c.upto === Number(r.upto));
      if (recorded && recorded.upto <= record.last!.upto) expect(recorded.signature.equals(r.signature)).toBe(true);
    }
    expect(await verify()).toMatchObject({ ok: true, reason: null });
  }, 30_000);

  it('events after the last checkpoint are counted as unsealed, and ok covers only what was sealed', async () => {
    await sealedByProduct();
    const late = await t.app.ctx.pool.connect();
    try {
      await late.query('begin');
      // in flight: the sealer seals nothing after it until it commits
      await late.query(`select * from es_append($1, 'any', null, array[$2::uuid], array['AuditProbe'], array[1], array['{}'::jsonb], array['{}'::jsonb])`, [
        `late-${randomUUID()}`,
        randomUUID(),
      ]);
      for (let i = 0; i < 3; i++) await append('AuditProbe', { after: i });
      await new Promise((r) => setTimeout(r, 500));
      const answer = await verify();
      expect(answer.ok).toBe(true);
      // the three probes, and whatever the running product appended meanwhile (timers, processes)
      const after = await sql('select event_type as type from es_events where position > $1', [answer.checkedUpTo]);
      expect(after.rows.filter((r) => r.type === 'AuditProbe').length).toBeGreaterThanOrEqual(3);
      expect(answer.unsealedEvents).toBeGreaterThanOrEqual(3);
      expect(answer.unsealedEvents).toBeLessThanOrEqual(after.rows.length);
      expect(answer.checkedUpTo).toBeLessThan(await head());
      await late.query('commit');
    } finally {
      late.release();
    }
    await sealedByProduct();
    expect(await verify()).toMatchObject({ ok: true, unsealedEvents: 0 });
  }, 30_000);

  it('the last checkpoint is anchored in an AXEL transaction of the treasury, and verify reads it back from the chain', async () => {
    const wallet = await t.app.wallet.walletOf(t.app.ctx);
    await wallet.chain.faucet!(await wallet.treasury(), 100_000_000, `audit-anchor-test-${randomUUID()}`);
    // mined, so the treasury can spend it
    await (wallet.chain as DevelopmentChain).mine();
    const record = new CheckpointRecord(dataDir);
    const upto = await anchorLatest(t.app.ctx, t.app.wallet.walletOf, record, key);
    expect(upto).toBeGreaterThan(0);
    const anchor = record.anchors().at(-1)!;
    expect(anchor.upto).toBe(upto);
    const onChain = parseAnchorPayload((await wallet.chain.transaction(anchor.txid))?.data);
    expect(onChain?.upto).toBe(upto);
    // the link of the checkpoint the record holds at that position
    expect(onChain?.link.equals(record.checkpoints().find((c) => c.upto === upto)!.link)).toBe(true);
    await sealedByProduct();
    expect(await verify()).toMatchObject({ ok: true, anchoredUpTo: upto });
  }, 30_000);

  it('a log re-sealed after all its checkpoints were deleted is caught by the record (and by the anchor)', async () => {
    await sealedByProduct();
    const record = new CheckpointRecord(dataDir).refresh();
    const recorded = record.checkpoints().map((c) => c.upto);
    // an edit after the second recorded checkpoint, and the whole log sealed again by someone holding the key
    const edited = Number((await sql('select min(position) as p from es_events where position > $1', [recorded[1]])).rows[0].p);
    await withSealingLock(async (pool) => {
      await sql(`update es_events set data = data || '{"tampered": true}'::jsonb where position = $1`, [edited]);
      await sql('delete from audit_checkpoints');
      await sql('delete from audit_links');
      await sealAll(pool, key);
    });
    // on its own the database holds: its new checkpoints are signed and match the links
    const { verifyChain } = await import('./audit.chain-store');
    expect(await verifyChain(t.app.ctx.pool, key)).toMatchObject({ ok: true });
    const answer = await verify();
    expect(answer).toMatchObject({ ok: false, reason: 'rewritten' });
    // after the last recorded checkpoint that still holds, at most at the edit
    expect(answer.firstMismatch).toBeGreaterThan(recorded[1]!);
    expect(answer.firstMismatch).toBeLessThanOrEqual(edited);
    // the record alone (no anchors) finds it too
    expect(await verifyAudit(t.app.ctx.pool, key, { record: new CheckpointRecord(dataDir) })).toMatchObject({ ok: false, reason: 'rewritten' });
    // and the anchor alone, read back from the chain
    const anchored = await anchoredCheckpoints(t.app.ctx, t.app.wallet.walletOf, new CheckpointRecord(dataDir));
    expect(anchored.length).toBeGreaterThan(0);
    expect(await verifyAudit(t.app.ctx.pool, key, { anchored })).toMatchObject({ ok: false, reason: 'rewritten' });
  }, 30_000);
});

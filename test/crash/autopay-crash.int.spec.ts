import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../db';
import { dropAfterSecretScan } from '../scanned-drop';
import { exited, ProductProcess, until } from './product-process';

let db: TestDatabase;
let product: ProductProcess;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-autopay-crash-'));
const PASSWORD = 'Secret-pass-1';
const BASE = '/api/admin/auto-pay/programs/';

beforeAll(async () => {
  db = await createTestDatabase();
  product = new ProductProcess({ databaseUrl: db.url, port: await freePort(), dataDir, env: { AXEL_DEV_BLOCK_SECONDS: '1', RATE_LIMIT_FACTOR: '10' } });
});
afterAll(async () => {
  await product?.kill();
  await dropAfterSecretScan(db, product?.environment);
});

const signIn = async (email: string, password: string) => {
  const http = new HttpClient(product.url);
  const res = await http.post('/api/sessions/', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return http;
};

describe('crash: the product killed mid-payout', () => {
  it('pays every payee exactly once after a restart', async () => {
    // the treasury starts empty (no genesis), so the faucet's 10 AXEL are all it holds
    const first = await product.start({ AXEL_FAILPOINT: 'autopay:after-send', AXEL_DEV_TREASURY_GENESIS: '0' });
    const root = await signIn('root@axel.test', 'Root-pass-123');
    const staff: HttpClient[] = [];
    for (const name of ['submitter', 'approver']) {
      const email = `${name}.${Date.now()}@example.com`;
      expect((await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'financial_admin' })).status).toBe(201);
      staff.push(await signIn(email, PASSWORD));
    }
    const [submitter, approver] = staff as [HttpClient, HttpClient];

    expect((await root.post('/api/wallet/v1/faucet', { amount: '10', to: 'treasury' })).status).toBe(200);
    await until(async () => (await root.get('/api/wallet/v1/admin/dashboard/')).body.treasury?.confirmed === '10', 30_000, 'a funded treasury');

    const payees = ['a', 'b', 'c'].map((c) => `y${c.repeat(33)}`);
    const { body: program } = await submitter.post(BASE, { name: 'Crash payout', description: 'killed mid-payout' });
    const csv = ['email,amount,address', ...payees.map((address, i) => `payee${i}@example.com,1.${i},${address}`)].join('\n');
    expect((await submitter.post(`${BASE}${program.id}/import`, { csv })).body.imported).toBe(3);
    expect((await submitter.post(`${BASE}${program.id}/submit`, {})).status).toBe(200);
    expect((await approver.post(`${BASE}${program.id}/approve`, {})).status).toBe(200);

    // the first payee is paid on the chain, then the product dies before recording it
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    const { rows: before } = await db.pool.query("select 1 from es_events where event_type = 'AutoPayPayeePaid'");
    expect(before).toHaveLength(0);

    const second = await product.start();
    await until(async () => (await approver.get(`${BASE}${program.id}`)).body.status === 'paid', 60_000, 'the payout to finish');
    await product.stop(second);

    const { rows: transfers } = await db.pool.query<{ to: string; n: number }>(
      "select data->>'to' as to, count(*)::int as n from es_events where event_type = 'ChainTransferAccepted' group by 1",
    );
    expect(transfers.map((r) => [r.to, r.n]).sort()).toEqual(payees.map((p) => [p, 1]));
    const { rows: recorded } = await db.pool.query<{ n: number }>("select count(*)::int as n from es_events where event_type = 'AutoPayPayeePaid'");
    expect(recorded[0]!.n).toBe(3);
  });
});

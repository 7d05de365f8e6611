import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../api/src/testing/accounts';
import { HttpClient, type TestApp } from '../../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../db';
import { dropAfterSecretScan } from '../scanned-drop';
import { exited, ProductProcess, until } from './product-process';

let db: TestDatabase;
let product: ProductProcess;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-fetch-pay-crash-'));
const TUS = { 'tus-resumable': '1.0.0' };

beforeAll(async () => {
  db = await createTestDatabase();
  product = new ProductProcess({
    databaseUrl: db.url,
    port: await freePort(),
    dataDir,
    env: { NODE_ENV: 'test', AXEL_DEV_BLOCK_SECONDS: '1', RATE_LIMIT_FACTOR: '10' },
  });
});
afterAll(async () => {
  await product?.kill();
  await dropAfterSecretScan(db, product?.environment);
});

describe('crash: the product killed between the pinning payment and its record', () => {
  it('pays for the certificate once after the restart, with the same transaction carrying its hash', async () => {
    const first = await product.start({ AXEL_FAILPOINT: 'secure-fetch:after-pay' });
    const helpers = accountHelpers(() => ({ url: product.url }) as TestApp);
    const { email, id } = await helpers.signUpConfirmed();
    const { http } = await helpers.signIn(email);

    const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Crash me', includeMetadata: false, certificate: true })).body;
    const visitor = new HttpClient(product.url);
    const data = Buffer.from('bytes worth a certificate');
    const created = await visitor.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')}`,
    });
    const location = created.headers.get('location')!;
    await visitor.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
    expect(
      (
        await visitor.post(`/api/shares/${link.linkId}/`, {
          file: { name: 'proof.txt', uploadId: location.split('/').pop(), size: data.length, mime: 'text/plain' },
        })
      ).status,
    ).toBe(201);

    expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
    expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
    await until(async () => (await http.get('/api/wallet/v1/balance')).body.confirmed === '1', 30_000, 'confirmed tokens');

    // the chain takes the payment, then the product dies before the link records it
    await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`).catch(() => undefined);
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    const count = async (type: string) =>
      (
        await db.pool.query<{ n: number }>('select count(*)::int as n from es_events where event_type = $1 and stream_name = $2', [
          type,
          `secure-fetch-${link.id}`,
        ])
      ).rows[0]!.n;
    expect(await count('SecureFetchPaymentStarted')).toBe(1);
    expect(await count('SecureFetchPaid')).toBe(0);
    const { rows: started } = await db.pool.query<{ sha: string }>(
      "select data->>'canonicalSha256' as sha from es_events where event_type = 'SecureFetchPaymentStarted' and stream_name = $1",
      [`secure-fetch-${link.id}`],
    );
    const transfers = async () =>
      (
        await db.pool.query<{ txid: string }>("select data->>'txid' as txid from es_events where event_type = 'ChainTransferAccepted' and data->>'data' = $1", [
          started[0]!.sha,
        ])
      ).rows;
    expect(await transfers()).toHaveLength(1);

    const second = await product.start();
    const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'active', paid: true, txId: (await transfers())[0]!.txid });
    expect(await transfers()).toHaveLength(1);
    expect(await count('SecureFetchPaid')).toBe(1);
    const certificate = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate`)).body;
    expect(certificate).toMatchObject({ txId: paid.body.txId, canonicalSha256: started[0]!.sha });
    await until(async () => (await http.get('/api/wallet/v1/balance')).body.confirmed === '0.991', 30_000, 'the balance after one payment');
    await product.stop(second);
  }, 240_000);
});

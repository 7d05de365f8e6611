import { randomBytes } from 'node:crypto';
import { CarBlockIterator } from '@ipld/car';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { KuboStandIn } from './kubo-standin';

/*
 * Pay and pin with IPFS_KUBO_RPC_URL set: the paid files go to a Kubo node (here the stand-in of its
 * RPC), the product's own gateway still serves them; a node that cannot be reached fails the pin,
 * which staff retry once it is back.
 */
const standIn = new KuboStandIn();
let kuboUrl = '';
beforeAll(async () => {
  kuboUrl = await standIn.start();
});
afterAll(() => standIn.stop());
const t = useTestApp(() => ({ env: { IPFS_KUBO_RPC_URL: kuboUrl, RATE_LIMIT_FACTOR: '20', ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } }));
const helpers = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };

const paidLink = async (data: Buffer) => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Send it', certificate: false })).body;
  const anon = new HttpClient(t().url);
  const created = await anon.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')},filename ${Buffer.from('a.bin').toString('base64')}`,
  });
  const location = created.headers.get('location')!;
  await anon.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
  const files = [{ uploadId: location.split('/').pop()!, name: 'a.bin', size: data.length, mime: 'application/octet-stream' }];
  expect((await anon.post(`/api/shares/${link.linkId}/`, { files })).status).toBe(201);
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
  const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  t().clock.advance(10_000);
  for (let i = 0; i < 150 && (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks <= before; i++) await new Promise((r) => setTimeout(r, 100));
  const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { http, id, link };
};

describe('pinning on a Kubo node', () => {
  it('pins the paid file on the node; the gateway serves it too', async () => {
    const data = randomBytes(1_500_000);
    const { http, id, link } = await paidLink(data);
    const [pin] = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).body.data;
    expect(pin).toMatchObject({ status: 'pinned', service: 'kubo' });
    expect(standIn.pins.has(pin.cid)).toBe(true);
    const res = await fetch(`${t().url}/ipfs/${pin.cid}`, { headers: { accept: 'application/vnd.ipld.car' } });
    expect(res.status).toBe(200);
    const blocks = [];
    for await (const block of await CarBlockIterator.fromBytes(new Uint8Array(await res.arrayBuffer()))) blocks.push(block.cid.toString());
    // the node holds every block the gateway serves
    expect(blocks.length).toBe(3);
    for (const cid of blocks) expect(standIn.blocks.has(cid)).toBe(true);
  });

  it('a node that cannot be reached fails the pin (not the payment); staff retry it once the node is back; unpinning removes it from the node', async () => {
    standIn.unreachable = true;
    const { http, id, link } = await paidLink(randomBytes(70_000));
    standIn.unreachable = false;
    const [pin] = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).body.data;
    expect(pin).toMatchObject({ status: 'failed', service: 'kubo', url: null });
    expect(pin.failure).toBeTruthy();
    const root = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    const retried = await root.post(`/api/admin/ipfs-pins/${pin.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ status: 'pinned', attempts: 2, failure: null });
    expect(standIn.pins.has(retried.body.cid)).toBe(true);
    expect((await fetch(`${t().url}/ipfs/${retried.body.cid}?format=raw`)).status).toBe(200);

    const removed = await root.post(`/api/admin/ipfs-pins/${pin.id}/unpin`, { reason: 'Owner asked' });
    expect(removed.body.status).toBe('unpinned');
    expect(standIn.pins.has(retried.body.cid)).toBe(false);
    expect((await fetch(`${t().url}/ipfs/${retried.body.cid}?format=raw`)).status).toBe(404);
  });
});

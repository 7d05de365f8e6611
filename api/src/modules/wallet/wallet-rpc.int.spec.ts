import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordings } from '@axel/platform/chain/json-rpc.recordings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

let node: Server;
beforeAll(async () => {
  node = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      const match = recordings.find((r) => r.method === call.method && JSON.stringify(r.params) === JSON.stringify(call.params));
      res
        .writeHead(match ? 200 : 404, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ id: call.id, result: match?.result ?? null, error: match ? (match.error ?? null) : { code: -32601, message: 'Method not found' } }),
        );
    });
  });
  await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise<void>((r) => node.close(() => r()));
});
const t = useTestApp(() => ({
  env: { AXEL_RPC_URL: `http://rpc:pw@127.0.0.1:${(node.address() as AddressInfo).port}/`, AXEL_EXPLORER_URL: 'https://explorer.example/tx/{id}?net=test' },
}));

describe('wallet on a node (AXEL_RPC_URL)', () => {
  it('speaks to the node, is no development chain, and has no faucet', async () => {
    const helpers = accountHelpers(t);
    const { email } = await helpers.signUpConfirmed();
    const { http } = await helpers.signIn(email);
    const info = await http.get('/api/wallet/v1/blockchaininfo');
    expect(info.body).toMatchObject({ chain: 'test', development: false, label: null, faucet: false, blocks: 1178922 });
    expect((await http.get('/api/wallet/v1/masternodes/count')).body).toEqual({ total: 3458, enabled: 3391 });
    expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(404);
    // nor a treasury to fill by minting
    expect((await http.post('/api/wallet/v1/admin/treasury/fill', { amount: '1' })).status).toBe(404);
  });

  it('sends /transaction/:id to the external explorer', async () => {
    const id = recordings.find((r) => r.method === 'gettransaction')!.params[0] as string;
    const res = await fetch(`${t().url}/transaction/${id}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`https://explorer.example/tx/${id}?net=test`);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinsFromUnits, JsonRpcChain, opReturnData, unitsFromCoins, type SendJournal } from './json-rpc';
import { ALICE, BOB, recordings, TX_IN, TX_SENT, type Recording } from './json-rpc.recordings';

let server: Server;
let url: string;
const seen: { method: string; params: unknown[]; authorization?: string }[] = [];
let script: Recording[] = recordings;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      seen.push({ method: call.method, params: call.params, authorization: req.headers.authorization });
      const match = script.find((r) => r.method === call.method && JSON.stringify(r.params) === JSON.stringify(call.params));
      // bitcoind answers unknown calls with -32601 and a 404 status
      const answer = match
        ? { result: match.result ?? null, error: match.error ?? null, id: call.id }
        : { result: null, error: { code: -32601, message: `no recording of ${call.method} ${JSON.stringify(call.params)}` }, id: call.id };
      res.writeHead(match?.error ? 500 : match ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://axel:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const chain = (journal?: SendJournal) => new JsonRpcChain({ url, journal });

describe('JSON-RPC chain (Bitcoin Core / Dash Core dialect)', () => {
  it('reads the chain, with the URL credentials as Basic authorization', async () => {
    expect(await chain().info()).toEqual({
      chain: 'test',
      development: false,
      blocks: 1178922,
      bestBlockHash: '000000d7b2d3d0c7a8a6bb7b6a0b7eb62bd4cd9ffdc1ffe1b9bd6e1c3f5d58c1',
      time: new Date(1763900000 * 1000).toISOString(),
    });
    expect(seen.at(-1)?.authorization).toBe(`Basic ${Buffer.from('axel:s3cret').toString('base64')}`);
  });

  it('answers the labelled address, or makes one', async () => {
    expect(await chain().newAddress('user:alice:primary')).toBe(ALICE);
    expect(await chain().newAddress('user:carol:primary')).toBe('yXiXkhGM5PyQe6S4gz8AxvJpzFHEy7Hszc');
  });

  it("a balance is the address's own coins, confirmed and unconfirmed, in exact base units", async () => {
    // her send of 2.5 to Bob is still in the mempool: outgoing
    expect(await chain().balance(ALICE)).toEqual({ confirmed: 1_262_345_678, unconfirmed: 300_000, outgoing: 250_000_000 });
    expect(await chain().walletBalance()).toEqual({ confirmed: 10_050_000_000, unconfirmed: 450_320_000 });
  });

  it("a payload travels as an OP_RETURN output of the same transaction (createrawtransaction's data output)", async () => {
    const payload = 'ab'.repeat(32);
    const raw = recordings.find((r) => r.method === 'createrawtransaction')!;
    const outputs = { ...(raw.params[1] as Record<string, number>), data: payload };
    script = [...recordings, { method: 'createrawtransaction', params: [raw.params[0], outputs], result: '0200000001raw' }].filter((r) => r !== raw);
    const calls = seen.length;
    expect(await chain().send({ from: ALICE, to: BOB, amount: 250_000_000, idempotencyKey: 'pin-1', requireSettled: false, data: payload })).toEqual({
      txid: TX_SENT,
    });
    expect(seen.slice(calls).find((c) => c.method === 'createrawtransaction')?.params[1]).toEqual(outputs);
    script = recordings;
  });

  it("reads the payload of a raw transaction's OP_RETURN output, and no other bytes", () => {
    const payload = 'cd'.repeat(32);
    const le = (n: number, bytes: number) =>
      Buffer.alloc(bytes)
        .fill(0)
        .map((_, i) => (n >> (8 * i)) & 0xff);
    const p2pkh = Buffer.concat([Buffer.from('76a914', 'hex'), Buffer.alloc(20, 0x6a), Buffer.from('88ac', 'hex')]);
    const raw = (outputs: Buffer[]) =>
      Buffer.concat([
        le(2, 4),
        Buffer.from([1]),
        Buffer.alloc(32, 0x6a),
        le(0, 4),
        Buffer.from([0]),
        Buffer.from('ffffffff', 'hex'),
        Buffer.from([outputs.length]),
        ...outputs.flatMap((script) => [Buffer.alloc(8), Buffer.from([script.length]), script]),
        le(0, 4),
      ]).toString('hex');
    const opReturn = Buffer.concat([Buffer.from([0x6a, 0x20]), Buffer.from(payload, 'hex')]);
    expect(opReturnData(raw([p2pkh, opReturn]))).toBe(payload);
    expect(opReturnData(raw([p2pkh]))).toBeNull();
    expect(opReturnData('00')).toBeNull();
  });

  it("refuses a user's send while unconfirmed coins wait, and one beyond the confirmed coins", async () => {
    await expect(chain().send({ from: ALICE, to: BOB, amount: 250_000_000, idempotencyKey: 'k1', requireSettled: true })).rejects.toMatchObject({
      code: 'WALLET_UNCONFIRMED',
    });
    await expect(chain().send({ from: BOB, to: ALICE, amount: 1, idempotencyKey: 'k2', requireSettled: false })).rejects.toMatchObject({
      code: 'WALLET_INSUFFICIENT_FUNDS',
    });
  });

  it("sends from the sender's own coins with change back, journals the signed bytes, and a retry rebroadcasts them", async () => {
    const kept = new Map<string, { txid: string; hex: string }>();
    const journal: SendJournal = {
      async claim(key, record) {
        if (!kept.has(key)) kept.set(key, record);
        return kept.get(key)!;
      },
      async find(key) {
        return kept.get(key) ?? null;
      },
    };
    const request = { from: ALICE, to: BOB, amount: 250_000_000, idempotencyKey: 'pay-bob-1', requireSettled: false };
    expect(await chain(journal).send(request)).toEqual({ txid: TX_SENT });
    expect(kept.get('pay-bob-1')).toEqual({ txid: TX_SENT, hex: '0200000001signed' });
    // the node already has it: it says so, and the retry is the same payment
    script = [
      ...recordings.filter((r) => r.method !== 'sendrawtransaction'),
      { method: 'sendrawtransaction', params: ['0200000001signed'], error: { code: -27, message: 'Transaction already in block chain' } },
    ];
    const calls = seen.length;
    expect(await chain(journal).send(request)).toEqual({ txid: TX_SENT });
    expect(seen.slice(calls).map((c) => c.method)).toEqual(['sendrawtransaction']);
    script = recordings;
  });

  it("lists an address's transactions newest first, and reads one", async () => {
    const page = await chain().transactions(ALICE, { page: 1, perPage: 10 });
    expect(page.data.map((t) => [t.txid, t.category, t.amount, t.confirmations])).toEqual([
      [TX_SENT, 'send', 250_000_000, 0],
      [TX_IN, 'receive', 1_250_000_000, 12],
    ]);
    expect(page.data[1]).toMatchObject({ blockHeight: 1178911, blockHash: '000000aa' });
    expect(await chain().transaction(TX_IN)).toMatchObject({ txid: TX_IN, to: ALICE, amount: 1_250_000_000, confirmations: 12 });
    expect(await chain().transaction('00'.repeat(32))).toBeNull();
  });

  it('counts masternodes on Dash Core, none on Bitcoin Core', async () => {
    expect(await chain().masternodeCount()).toEqual({ total: 3458, enabled: 3391 });
    script = recordings.filter((r) => r.method !== 'masternode');
    expect(await chain().masternodeCount()).toEqual({ total: 0, enabled: 0 });
    script = recordings;
  });

  it('converts node amounts through their decimal text', () => {
    expect(unitsFromCoins(0.1 + 0.2)).toBe(30_000_000);
    expect(unitsFromCoins(-2.5)).toBe(-250_000_000);
    expect(coinsFromUnits(999_900_000)).toBe(9.999);
    expect(coinsFromUnits(1)).toBe(0.00000001);
  });
});

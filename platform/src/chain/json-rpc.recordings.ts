/**
 * Request/answer pairs in the shapes the Bitcoin Core and Dash Core RPC references document
 * (bitcoincore.org/en/doc, docs.dash.org "Core API: RPC"), with addresses of Dash's testnet. The
 * test server answers a request only when its method and params match one of these exactly.
 */
export interface Recording {
  readonly method: string;
  readonly params: readonly unknown[];
  readonly result?: unknown;
  readonly error?: { code: number; message: string };
}

export const ALICE = 'yTWrBWkTpEmVR1Jj1YxAtcUQVG6c9rU6wN';
export const BOB = 'yNPbcFfabtNmmxKdGwhHomdYfVs6gikbPf';
export const TX_IN = '4e5d2a5b1f2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbcc';
export const TX_CHANGE = '9a8b7c6d5e4f30211203f4e5d6c7b8a99887766554433221100ffeeddccbbaa';
export const TX_SENT = 'f00dbabe0123456789abcdef0123456789abcdef0123456789abcdef01234567';

export const recordings: Recording[] = [
  {
    method: 'getblockchaininfo',
    params: [],
    result: {
      chain: 'test',
      blocks: 1178922,
      headers: 1178922,
      bestblockhash: '000000d7b2d3d0c7a8a6bb7b6a0b7eb62bd4cd9ffdc1ffe1b9bd6e1c3f5d58c1',
      difficulty: 0.003,
      time: 1763900000,
      mediantime: 1763899000,
      verificationprogress: 0.9999,
      initialblockdownload: false,
      chainwork: '0000000000000000000000000000000000000000000000000000000000000001',
      size_on_disk: 1234,
      pruned: false,
      warnings: '',
    },
  },
  { method: 'getaddressesbylabel', params: ['user:alice:primary'], result: { [ALICE]: { purpose: 'receive' } } },
  { method: 'getaddressesbylabel', params: ['user:carol:primary'], error: { code: -11, message: 'No addresses with label user:carol:primary' } },
  { method: 'getnewaddress', params: ['user:carol:primary'], result: 'yXiXkhGM5PyQe6S4gz8AxvJpzFHEy7Hszc' },
  // confirmed coins of Alice (minconf 1), and one still in the mempool (0 confirmations)
  {
    method: 'listunspent',
    params: [1, 9999999, [ALICE]],
    result: [
      {
        txid: TX_IN,
        vout: 0,
        address: ALICE,
        label: 'user:alice:primary',
        scriptPubKey: '76a914',
        amount: 12.5,
        confirmations: 12,
        spendable: true,
        solvable: true,
        safe: true,
      },
      {
        txid: TX_CHANGE,
        vout: 1,
        address: ALICE,
        label: 'user:alice:primary',
        scriptPubKey: '76a914',
        amount: 0.12345678,
        confirmations: 3,
        spendable: true,
        solvable: true,
        safe: true,
      },
    ],
  },
  {
    method: 'listunspent',
    params: [0, 0, [ALICE]],
    result: [
      {
        txid: TX_SENT,
        vout: 0,
        address: ALICE,
        label: 'user:alice:primary',
        scriptPubKey: '76a914',
        amount: 0.003,
        confirmations: 0,
        spendable: true,
        solvable: true,
        safe: false,
      },
    ],
  },
  { method: 'listunspent', params: [0, 0, [BOB]], result: [] },
  { method: 'listunspent', params: [1, 9999999, [BOB]], result: [] },
  { method: 'getbalance', params: ['*', 0], result: 105.0032 },
  { method: 'getbalance', params: ['*', 1], result: 100.5 },
  // a send of 2.5 from Alice's largest coin to Bob, the change (minus the 0.0001 fee) back to Alice
  { method: 'createrawtransaction', params: [[{ txid: TX_IN, vout: 0 }], { [BOB]: 2.5, [ALICE]: 9.9999 }], result: '0200000001raw' },
  { method: 'signrawtransactionwithwallet', params: ['0200000001raw'], result: { hex: '0200000001signed', complete: true } },
  { method: 'decoderawtransaction', params: ['0200000001signed'], result: { txid: TX_SENT, version: 2, size: 225, locktime: 0, vin: [], vout: [] } },
  { method: 'sendrawtransaction', params: ['0200000001signed'], result: TX_SENT },
  { method: 'getaddressinfo', params: [ALICE], result: { address: ALICE, ismine: true, labels: ['user:alice:primary'] } },
  {
    method: 'listtransactions',
    params: ['user:alice:primary', 10, 0, true],
    result: [
      {
        address: ALICE,
        category: 'receive',
        amount: 12.5,
        label: 'user:alice:primary',
        vout: 0,
        confirmations: 12,
        blockhash: '000000aa',
        blockheight: 1178911,
        blockindex: 1,
        blocktime: 1763890000,
        txid: TX_IN,
        time: 1763889000,
        timereceived: 1763889000,
      },
      {
        address: BOB,
        category: 'send',
        amount: -2.5,
        vout: 0,
        fee: -0.0001,
        confirmations: 0,
        txid: TX_SENT,
        time: 1763900100,
        timereceived: 1763900100,
        abandoned: false,
      },
    ],
  },
  // the latest transactions of Alice's label, looked through for her sends not mined yet
  {
    method: 'listtransactions',
    params: ['user:alice:primary', 100, 0, true],
    result: [
      {
        address: ALICE,
        category: 'receive',
        amount: 12.5,
        label: 'user:alice:primary',
        vout: 0,
        confirmations: 12,
        blockhash: '000000aa',
        blockheight: 1178911,
        blockindex: 1,
        blocktime: 1763890000,
        txid: TX_IN,
        time: 1763889000,
        timereceived: 1763889000,
      },
      {
        address: BOB,
        category: 'send',
        amount: -2.5,
        vout: 0,
        fee: -0.0001,
        confirmations: 0,
        txid: TX_SENT,
        time: 1763900100,
        timereceived: 1763900100,
        abandoned: false,
      },
    ],
  },
  {
    method: 'gettransaction',
    params: [TX_IN],
    result: {
      amount: 12.5,
      confirmations: 12,
      blockhash: '000000aa',
      blockheight: 1178911,
      blockindex: 1,
      blocktime: 1763890000,
      txid: TX_IN,
      time: 1763889000,
      timereceived: 1763889000,
      details: [{ address: ALICE, category: 'receive', amount: 12.5, label: 'user:alice:primary', vout: 0 }],
      hex: '0200000001',
    },
  },
  { method: 'gettransaction', params: ['00'.repeat(32)], error: { code: -5, message: 'Invalid or non-wallet transaction id' } },
  { method: 'masternode', params: ['count'], result: { total: 3458, enabled: 3391 } },
];

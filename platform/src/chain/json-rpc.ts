import { BASE_UNITS_PER_AXEL, DomainError, parseAxel, WalletErrors, type BaseUnits } from '@axel/domain';
import type { ChainBalance, ChainInfo, ChainPort, ChainTransaction, ChainTransactionDetail, SendRequest } from './port';

/**
 * Where a signed transaction is kept before it is broadcast: a retried send with the same key
 * rebroadcasts the same signed bytes (the same txid), so it can never pay twice.
 */
export interface SendJournal {
  /** Keeps the first record for a key and answers whichever record is kept. */
  claim(key: string, record: { txid: string; hex: string }): Promise<{ txid: string; hex: string }>;
  find(key: string): Promise<{ txid: string; hex: string } | null>;
}

export class RpcError extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Node amounts are JSON numbers of coins; they are read through their decimal text, never float arithmetic. */
export const unitsFromCoins = (value: unknown): BaseUnits => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RpcError(-1, `not an amount: ${String(value)}`);
  const negative = value < 0;
  const units = parseAxel(Math.abs(value).toFixed(8));
  if (units === null) throw new RpcError(-1, `not an amount: ${value}`);
  return negative ? -units : units;
};

/** Coins for the node as a JSON number written from exact decimal text (at most 8 places round-trip). */
export const coinsFromUnits = (units: BaseUnits): number => {
  const whole = Math.trunc(units / BASE_UNITS_PER_AXEL);
  const fraction = String(units % BASE_UNITS_PER_AXEL).padStart(8, '0');
  return Number(`${whole}.${fraction}`);
};

/** How many of an address's latest transactions are looked through for sends not mined yet. */
const OUTGOING_WINDOW = 100;

/** The fee a send of the custodial wallet leaves to the miners, with its change back to the sender. */
export const RPC_SEND_FEE: BaseUnits = 10_000; // 0.0001 AXEL

interface Unspent {
  txid: string;
  vout: number;
  address: string;
  amount: number;
  confirmations: number;
}

/**
 * A Bitcoin Core / Dash Core node over JSON-RPC (AXEL_RPC_URL, credentials in the URL). Each
 * custodial address carries its own label, so `listtransactions <label>` lists that address and
 * `listunspent` its own coins. A send spends the sender's own confirmed outputs with the change
 * back to it, signed by the node's wallet and journalled before broadcast.
 */
export class JsonRpcChain implements ChainPort {
  readonly kind = 'rpc' as const;
  private readonly endpoint: string;
  private readonly authorization: string | undefined;
  private nextId = 1;

  constructor(private readonly options: { url: string; journal?: SendJournal; timeoutMs?: number }) {
    const url = new URL(options.url);
    this.authorization = url.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined;
    url.username = '';
    url.password = '';
    this.endpoint = url.toString();
  }

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...(this.authorization ? { authorization: this.authorization } : {}) },
      body: JSON.stringify({ jsonrpc: '1.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
    });
    const text = await response.text();
    let answer: { result?: T; error?: { code: number; message: string } | null };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new RpcError(-1, `${method}: HTTP ${response.status}`);
    }
    if (answer.error) throw new RpcError(answer.error.code, `${method}: ${answer.error.message}`);
    return answer.result as T;
  }

  async info(): Promise<ChainInfo> {
    const i = await this.call<{ chain: string; blocks: number; bestblockhash: string; mediantime?: number; time?: number }>('getblockchaininfo');
    const seconds = i.time ?? i.mediantime;
    return {
      chain: i.chain,
      development: false,
      blocks: i.blocks,
      bestBlockHash: i.bestblockhash,
      time: seconds ? new Date(seconds * 1000).toISOString() : null,
    };
  }

  /** The address of this label: the one the node already has for it, else a new one. */
  async newAddress(label: string): Promise<string> {
    try {
      const known = await this.call<Record<string, { purpose: string }>>('getaddressesbylabel', [label]);
      const first = Object.keys(known)[0];
      if (first) return first;
    } catch (error) {
      // -11: no addresses with this label yet
      if (!(error instanceof RpcError) || error.rpcCode !== -11) throw error;
    }
    return this.call<string>('getnewaddress', [label]);
  }

  private async unspent(address: string, minconf: number, maxconf = 9_999_999): Promise<Unspent[]> {
    return this.call<Unspent[]>('listunspent', [minconf, maxconf, [address]]);
  }

  async balance(address: string): Promise<ChainBalance> {
    const [confirmed, unconfirmed, outgoing] = await Promise.all([this.unspent(address, 1), this.unspent(address, 0, 0), this.outgoing(address)]);
    const sum = (list: Unspent[]) => list.reduce((s, u) => s + unitsFromCoins(u.amount), 0);
    return { confirmed: sum(confirmed), unconfirmed: sum(unconfirmed), outgoing };
  }

  /** The address's sends still in the mempool (the node lists them under its label with 0 confirmations). */
  private async outgoing(address: string): Promise<BaseUnits> {
    const label = await this.labelOf(address);
    if (!label) return 0;
    const recent = await this.call<RpcTx[]>('listtransactions', [label, OUTGOING_WINDOW, 0, true]);
    return recent.filter((t) => t.category === 'send' && t.confirmations === 0).reduce((s, t) => s + Math.abs(unitsFromCoins(t.amount)), 0);
  }

  /** The whole node wallet, with `getbalance "*" minconf`: what the treasury holds on a real node. */
  async walletBalance(): Promise<Omit<ChainBalance, 'outgoing'>> {
    const [all, confirmed] = await Promise.all([this.call<number>('getbalance', ['*', 0]), this.call<number>('getbalance', ['*', 1])]);
    return { confirmed: unitsFromCoins(confirmed), unconfirmed: unitsFromCoins(all) - unitsFromCoins(confirmed) };
  }

  async send(request: SendRequest): Promise<{ txid: string }> {
    const known = await this.options.journal?.find(request.idempotencyKey);
    if (known) return this.broadcast(known);
    if (request.requireSettled && (await this.unspent(request.from, 0, 0)).length > 0) throw new DomainError(WalletErrors.unconfirmed);
    const coins = (await this.unspent(request.from, 1)).sort((a, b) => b.amount - a.amount);
    const needed = request.amount + RPC_SEND_FEE;
    const inputs: Unspent[] = [];
    let total = 0;
    for (const coin of coins) {
      if (total >= needed) break;
      inputs.push(coin);
      total += unitsFromCoins(coin.amount);
    }
    if (total < needed) throw new DomainError(WalletErrors.insufficientFunds);
    const outputs: Record<string, number> = { [request.to]: coinsFromUnits(request.amount) };
    const change = total - needed;
    if (change > 0) outputs[request.from] = coinsFromUnits(change + (request.to === request.from ? request.amount : 0));
    // the payload becomes an OP_RETURN output of the same transaction
    const withData: Record<string, number | string> = request.data ? { ...outputs, data: request.data } : outputs;
    const raw = await this.call<string>('createrawtransaction', [inputs.map((c) => ({ txid: c.txid, vout: c.vout })), withData]);
    const signed = await this.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
    if (!signed.complete) throw new RpcError(-1, 'the node could not sign the transaction');
    const txid = await this.call<string>('decoderawtransaction', [signed.hex]).then((d) => (d as unknown as { txid: string }).txid);
    const kept = this.options.journal ? await this.options.journal.claim(request.idempotencyKey, { txid, hex: signed.hex }) : { txid, hex: signed.hex };
    return this.broadcast(kept);
  }

  private async broadcast(record: { txid: string; hex: string }): Promise<{ txid: string }> {
    try {
      await this.call<string>('sendrawtransaction', [record.hex]);
    } catch (error) {
      // a rebroadcast of what the node already has (mempool or chain) is the payment already made
      if (!(error instanceof RpcError) || !/already|txn-already-known|-27/.test(`${error.message} ${error.rpcCode}`)) throw error;
    }
    return { txid: record.txid };
  }

  async transactions(address: string, page: { page: number; perPage: number }) {
    const label = await this.labelOf(address);
    const skip = (page.page - 1) * page.perPage;
    const list = await this.call<RpcTx[]>('listtransactions', [label ?? '*', page.perPage, skip, true]);
    const ours = list.filter((t) => t.address === address || t.category === 'send');
    // the node lists oldest first within the page
    const data: ChainTransaction[] = ours.reverse().map((t) => ({
      txid: t.txid,
      category: t.category === 'send' ? 'send' : t.category === 'generate' || t.category === 'immature' ? 'generate' : 'receive',
      from: t.category === 'send' ? address : null,
      to: t.category === 'send' ? t.address : address,
      amount: Math.abs(unitsFromCoins(t.amount)),
      time: new Date(t.time * 1000).toISOString(),
      confirmations: Math.max(0, t.confirmations),
      blockHeight: t.blockheight ?? null,
      blockHash: t.blockhash ?? null,
      blockTime: t.blocktime ? new Date(t.blocktime * 1000).toISOString() : null,
    }));
    return { total: skip + data.length + (list.length === page.perPage ? 1 : 0), data };
  }

  private async labelOf(address: string): Promise<string | null> {
    const info = await this.call<{ labels?: (string | { name: string })[]; label?: string }>('getaddressinfo', [address]);
    const first = info.labels?.[0];
    return typeof first === 'string' ? first : (first?.name ?? info.label ?? null);
  }

  async transaction(txid: string): Promise<ChainTransactionDetail | null> {
    try {
      const t = await this.call<RpcTx & { details: { address: string; category: string; amount: number }[]; hex?: string }>('gettransaction', [txid]);
      const received = t.details.find((d) => d.category === 'receive');
      const sent = t.details.find((d) => d.category === 'send');
      return {
        txid: t.txid,
        from: null,
        to: received?.address ?? sent?.address ?? '',
        amount: Math.abs(unitsFromCoins(received?.amount ?? sent?.amount ?? t.amount)),
        time: new Date(t.time * 1000).toISOString(),
        confirmations: Math.max(0, t.confirmations),
        blockHeight: t.blockheight ?? null,
        blockHash: t.blockhash ?? null,
        blockTime: t.blocktime ? new Date(t.blocktime * 1000).toISOString() : null,
        linked: [],
        data: t.hex ? opReturnData(t.hex) : null,
      };
    } catch (error) {
      // -5: invalid or non-wallet transaction id
      if (error instanceof RpcError && error.rpcCode === -5) return null;
      throw error;
    }
  }

  /** Dash Core's `masternode count`: an object in current versions, a bare number in old ones. */
  async masternodeCount() {
    try {
      const count = await this.call<number | { total: number; enabled: number }>('masternode', ['count']);
      return typeof count === 'number' ? { total: count, enabled: count } : { total: count.total, enabled: count.enabled };
    } catch (error) {
      // -32601: a Bitcoin Core node has no masternodes
      if (error instanceof RpcError && error.rpcCode === -32601) return { total: 0, enabled: 0 };
      throw error;
    }
  }
}

/**
 * The payload of a raw transaction's first OP_RETURN output (hex), or null: outputs are read as the
 * serialisation lays them out (version, segwit marker, inputs, outputs), so no other bytes are
 * mistaken for a payload.
 */
export const opReturnData = (hex: string): string | null => {
  try {
    const b = Buffer.from(hex, 'hex');
    let at = 4;
    const varint = () => {
      const first = b[at++]!;
      if (first < 0xfd) return first;
      const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
      const value = Number(b.readUIntLE(at, Math.min(size, 6)));
      at += size;
      return value;
    };
    if (b[at] === 0 && b[at + 1] === 1) at += 2;
    const inputs = varint();
    for (let i = 0; i < inputs; i++) {
      at += 36;
      const script = varint();
      at += script + 4;
    }
    const outputs = varint();
    for (let i = 0; i < outputs; i++) {
      at += 8;
      const length = varint();
      const script = b.subarray(at, at + length);
      at += length;
      if (script[0] !== 0x6a || script.length < 2) continue;
      const push = script[1]!;
      if (push >= 1 && push <= 0x4b && script.length === 2 + push) return script.subarray(2).toString('hex');
      if (push === 0x4c && script.length === 3 + script[2]!) return script.subarray(3).toString('hex');
    }
    return null;
  } catch {
    return null;
  }
};

interface RpcTx {
  txid: string;
  address: string;
  category: 'send' | 'receive' | 'generate' | 'immature' | 'orphan';
  amount: number;
  confirmations: number;
  blockhash?: string;
  blockheight?: number;
  blocktime?: number;
  time: number;
}

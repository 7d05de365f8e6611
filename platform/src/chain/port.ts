import type { AddressBalance, BaseUnits } from '@axel/domain';
import type { CommandContext } from '../commands/handler';

/**
 * The chain behind the wallet. Two adapters: `DevelopmentChain` (an event-sourced ledger in our
 * own store, like bitcoind's regtest) and `JsonRpcChain` (a Bitcoin Core / Dash Core node).
 * Amounts are integer base units (10^8 a token) on this side of the port; adapters convert.
 */
export interface ChainInfo {
  /** `development` for the embedded chain, else the node's own name (`main`, `test`, `regtest`). */
  readonly chain: string;
  readonly development: boolean;
  readonly blocks: number;
  readonly bestBlockHash: string | null;
  readonly time: string | null;
}

/** Confirmed (spendable: mined, minus what is already on its way out), unconfirmed (on its way in), outgoing (sent, not mined yet). */
export type ChainBalance = AddressBalance;

export interface ChainTransaction {
  readonly txid: string;
  /** As the address sees it: `receive`, `send`, or `generate` (minted). */
  readonly category: 'send' | 'receive' | 'generate';
  readonly from: string | null;
  readonly to: string;
  readonly amount: BaseUnits;
  readonly time: string;
  readonly confirmations: number;
  readonly blockHeight: number | null;
  readonly blockHash: string | null;
  readonly blockTime: string | null;
}

export interface ChainTransactionDetail extends Omit<ChainTransaction, 'category'> {
  /** Other transactions of the same block. */
  readonly linked: readonly string[];
  /** The data payload the transaction carries (hex), when it has one. */
  readonly data?: string | null;
}

export interface SendRequest {
  readonly from: string;
  readonly to: string;
  readonly amount: BaseUnits;
  /** The same key is the same payment: a retry never pays twice. */
  readonly idempotencyKey: string;
  /** Refuse while the sender has unconfirmed tokens (a user's send; not the treasury's payouts). */
  readonly requireSettled: boolean;
  /**
   * A data payload for the chain to timestamp (hex, at most 80 bytes): a Secure Fetch certificate's
   * SHA-256. The development chain keeps it on the transaction; a node puts it in an OP_RETURN output.
   */
  readonly data?: string;
  /** Who asks, for the ledger's own record. */
  readonly actor?: { readonly id: string | null; readonly kind: 'user' | 'staff' | 'process' | 'system' };
}

export interface ChainPort {
  readonly kind: 'development' | 'rpc';
  info(): Promise<ChainInfo>;
  /** An address for this label; the development chain derives it, so the same label gives the same address. */
  newAddress(label: string): Promise<string>;
  balance(address: string): Promise<ChainBalance>;
  send(request: SendRequest): Promise<{ txid: string }>;
  /** Newest first. */
  transactions(address: string, page: { page: number; perPage: number }): Promise<{ total: number; data: ChainTransaction[] }>;
  transaction(txid: string): Promise<ChainTransactionDetail | null>;
  masternodeCount(): Promise<{ total: number; enabled: number }>;
  /** The development chain's faucet; absent on a real node. The actor is kept on the mint, for the audit. */
  readonly faucet?: (to: string, amount: BaseUnits, idempotencyKey: string, actor?: CommandContext) => Promise<{ txid: string }>;
}

export interface ChainBlock {
  readonly height: number;
  readonly hash: string;
  readonly time: string;
  readonly txids: readonly string[];
}

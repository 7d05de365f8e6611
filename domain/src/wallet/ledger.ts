import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';
import type { BaseUnits } from './amount';
import { sendableOf, type AddressBalance } from './sendable';
import { WalletErrors } from './wallet.errors';

/**
 * The development chain: an event-sourced double-entry ledger standing in for a real node, the way
 * bitcoind's regtest does. Every token comes from a mint (the faucet, or the treasury's supply) and
 * every movement takes from one address what it gives to another, so the sum of all balances is
 * always what was minted. Transactions wait in the mempool, unconfirmed, until a block is mined.
 */
export const DEV_CHAIN_STREAM = 'devchain-ledger';
/** After the last transaction, blocks keep coming until it has this many confirmations; then the chain idles. */
export const DEV_CHAIN_SETTLE_CONFIRMATIONS = 6;

const Units = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
// a chain address, never a person's words (so it is no personal field)
const Address = z.string().regex(/^[A-Za-z0-9]{1,64}$/);
const TxId = z.string().regex(/^[A-Za-z0-9-]{20,100}$/);
/** A payload the transaction carries for the chain to timestamp (a hash, never a person's words). */
const Payload = z.string().regex(/^(?:[0-9a-f]{2}){1,80}$/);
export const isChainPayload = (data: string): boolean => Payload.safeParse(data).success;

export const ChainCoinsMinted = defineEvent('ChainCoinsMinted', z.object({ txid: TxId, to: Address, amount: Units, time: z.string() }));
export const ChainTransferAccepted = defineEvent(
  'ChainTransferAccepted',
  z.object({ txid: TxId, from: Address, to: Address, amount: Units, time: z.string(), data: Payload.optional() }),
);
export const ChainBlockMined = defineEvent(
  'ChainBlockMined',
  z.object({ height: z.number().int().positive(), hash: z.string().min(1).max(100), time: z.string(), txids: z.array(TxId) }),
);
export const ledgerEventDefinitions = [ChainCoinsMinted, ChainTransferAccepted, ChainBlockMined];
export type LedgerEvent = EventOf<typeof ChainCoinsMinted> | EventOf<typeof ChainTransferAccepted> | EventOf<typeof ChainBlockMined>;

export type LedgerCommand =
  | Command<'Mint', { txid: string; to: string; amount: BaseUnits }>
  | Command<'Transfer', { txid: string; from: string; to: string; amount: BaseUnits; requireSettled?: boolean; data?: string }>
  | Command<'MineBlock', { hash: string }>
  /** The first block of a new chain: the treasury's supply, minted and mined at once. */
  | Command<'Genesis', { txid: string; to: string; amount: BaseUnits; hash: string }>;

export interface LedgerAccount {
  /** Mined net balance. */
  readonly settled: BaseUnits;
  /** Incoming, not mined yet. */
  readonly pendingIn: BaseUnits;
  /** Outgoing, not mined yet (already unavailable for spending). */
  readonly pendingOut: BaseUnits;
}

export interface LedgerTx {
  readonly txid: string;
  readonly kind: 'mint' | 'transfer';
  readonly from: string | null;
  readonly to: string;
  readonly amount: BaseUnits;
  readonly time: string;
  readonly blockHeight: number | null;
  /** The data payload (hex) a transfer carries, when it has one. */
  readonly data?: string;
}

export interface LedgerBlock {
  readonly height: number;
  readonly hash: string;
  readonly time: string;
  readonly txids: readonly string[];
}

export interface LedgerState {
  readonly minted: BaseUnits;
  readonly accounts: Readonly<Record<string, LedgerAccount>>;
  readonly txs: Readonly<Record<string, LedgerTx>>;
  readonly byAddress: Readonly<Record<string, readonly string[]>>;
  readonly mempool: readonly string[];
  /** blocks[h - 1] is the block of height h. */
  readonly blocks: readonly LedgerBlock[];
  readonly lastTxHeight: number;
}

const EMPTY: LedgerAccount = { settled: 0, pendingIn: 0, pendingOut: 0 };

export const initialLedgerState = (): LedgerState => ({
  minted: 0,
  accounts: {},
  txs: {},
  byAddress: {},
  mempool: [],
  blocks: [],
  lastTxHeight: 0,
});

export const ledgerAccount = (state: LedgerState, address: string): LedgerAccount => state.accounts[address] ?? EMPTY;

/** What a wallet shows: confirmed (spendable), unconfirmed (on its way in) and outgoing (sent, not mined yet). */
export const ledgerBalance = (state: LedgerState, address: string): AddressBalance => {
  const a = ledgerAccount(state, address);
  return { confirmed: a.settled - a.pendingOut, unconfirmed: a.pendingIn, outgoing: a.pendingOut };
};

export const ledgerHeight = (state: LedgerState): number => state.blocks.length;

export const confirmations = (state: LedgerState, tx: LedgerTx): number => (tx.blockHeight === null ? 0 : ledgerHeight(state) - tx.blockHeight + 1);

const sameTransfer = (tx: LedgerTx, d: { from: string; to: string; amount: number }) =>
  tx.kind === 'transfer' && tx.from === d.from && tx.to === d.to && tx.amount === d.amount;

const decide = (command: LedgerCommand, state: LedgerState): LedgerEvent[] => {
  const time = command.metadata.now.toISOString();
  switch (command.type) {
    case 'Mint': {
      const { txid, to, amount } = command.data;
      const known = state.txs[txid];
      if (known) {
        if (known.kind === 'mint' && known.to === to && known.amount === amount) return [];
        throw new DomainError(WalletErrors.idempotencyConflict);
      }
      if (!Number.isSafeInteger(amount) || amount <= 0 || state.minted + amount > Number.MAX_SAFE_INTEGER) {
        throw new DomainError(WalletErrors.invalidAmount);
      }
      return [{ type: 'ChainCoinsMinted', data: { txid, to, amount, time } }];
    }
    case 'Transfer': {
      const { txid, from, to, amount, requireSettled, data } = command.data;
      const known = state.txs[txid];
      // the same transaction id is the same payment: a retry is answered by what was done
      if (known) {
        if (sameTransfer(known, command.data)) return [];
        throw new DomainError(WalletErrors.idempotencyConflict);
      }
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new DomainError(WalletErrors.invalidAmount);
      if (data !== undefined && !isChainPayload(data)) throw new DomainError(WalletErrors.invalidAmount);
      const source = ledgerAccount(state, from);
      if (requireSettled && sendableOf(ledgerBalance(state, from)).blockedBy) throw new DomainError(WalletErrors.unconfirmed);
      if (source.settled - source.pendingOut < amount) throw new DomainError(WalletErrors.insufficientFunds);
      return [{ type: 'ChainTransferAccepted', data: { txid, from, to, amount, time, ...(data ? { data } : {}) } }];
    }
    case 'MineBlock': {
      const height = ledgerHeight(state);
      const settled = state.lastTxHeight === 0 || height - state.lastTxHeight + 1 >= DEV_CHAIN_SETTLE_CONFIRMATIONS;
      if (state.mempool.length === 0 && settled) return [];
      return [{ type: 'ChainBlockMined', data: { height: height + 1, hash: command.data.hash, time, txids: [...state.mempool] } }];
    }
    case 'Genesis': {
      const { txid, to, amount, hash } = command.data;
      // a chain that has anything already had its beginning
      if (state.blocks.length > 0 || Object.keys(state.txs).length > 0) return [];
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new DomainError(WalletErrors.invalidAmount);
      return [
        { type: 'ChainCoinsMinted', data: { txid, to, amount, time } },
        { type: 'ChainBlockMined', data: { height: 1, hash, time, txids: [txid] } },
      ];
    }
    default:
      return assertNever(command);
  }
};

const withAccount = (state: LedgerState, address: string, change: (a: LedgerAccount) => LedgerAccount) => ({
  ...state.accounts,
  [address]: change(ledgerAccount(state, address)),
});

const indexTx = (state: LedgerState, tx: LedgerTx) => {
  const byAddress = { ...state.byAddress };
  for (const address of new Set([tx.from, tx.to])) if (address) byAddress[address] = [...(byAddress[address] ?? []), tx.txid];
  return byAddress;
};

const evolve = (state: LedgerState, event: LedgerEvent): LedgerState => {
  switch (event.type) {
    case 'ChainCoinsMinted': {
      const tx: LedgerTx = {
        txid: event.data.txid,
        kind: 'mint',
        from: null,
        to: event.data.to,
        amount: event.data.amount,
        time: event.data.time,
        blockHeight: null,
      };
      return {
        ...state,
        minted: state.minted + tx.amount,
        accounts: withAccount(state, tx.to, (a) => ({ ...a, pendingIn: a.pendingIn + tx.amount })),
        txs: { ...state.txs, [tx.txid]: tx },
        byAddress: indexTx(state, tx),
        mempool: [...state.mempool, tx.txid],
      };
    }
    case 'ChainTransferAccepted': {
      const d = event.data;
      const tx: LedgerTx = {
        txid: d.txid,
        kind: 'transfer',
        from: d.from,
        to: d.to,
        amount: d.amount,
        time: d.time,
        blockHeight: null,
        ...(d.data ? { data: d.data } : {}),
      };
      const debited = { ...state, accounts: withAccount(state, d.from, (a) => ({ ...a, pendingOut: a.pendingOut + d.amount })) };
      return {
        ...debited,
        accounts: withAccount(debited, d.to, (a) => ({ ...a, pendingIn: a.pendingIn + d.amount })),
        txs: { ...state.txs, [tx.txid]: tx },
        byAddress: indexTx(state, tx),
        mempool: [...state.mempool, tx.txid],
      };
    }
    case 'ChainBlockMined': {
      const { height, hash, time, txids } = event.data;
      const accounts: Record<string, LedgerAccount> = { ...state.accounts };
      const txs: Record<string, LedgerTx> = { ...state.txs };
      const account = (address: string) => accounts[address] ?? EMPTY;
      for (const txid of txids) {
        const tx = txs[txid];
        if (!tx || tx.blockHeight !== null) continue;
        txs[txid] = { ...tx, blockHeight: height };
        if (tx.from) {
          const from = account(tx.from);
          accounts[tx.from] = { ...from, settled: from.settled - tx.amount, pendingOut: from.pendingOut - tx.amount };
        }
        const to = account(tx.to);
        accounts[tx.to] = { ...to, settled: to.settled + tx.amount, pendingIn: to.pendingIn - tx.amount };
      }
      const mined = new Set(txids);
      return {
        ...state,
        accounts,
        txs,
        mempool: state.mempool.filter((id) => !mined.has(id)),
        blocks: [...state.blocks, { height, hash, time, txids }],
        lastTxHeight: txids.length ? height : state.lastTxHeight,
      };
    }
    default:
      return state;
  }
};

export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  decide,
  evolve,
  initialState: initialLedgerState,
};

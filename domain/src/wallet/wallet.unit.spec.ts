import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { confirmations, ledgerBalance, ledgerDecider, type LedgerCommand, type LedgerEvent } from './ledger';
import { sendableOf } from './sendable';
import { isTransactionId, isWalletAddress } from './wallet';
import { WalletErrors } from './wallet.errors';

const at = new Date('2026-11-01T00:00:00Z');
const given = DeciderSpecification.for(ledgerDecider);
const history = (commands: LedgerCommand[]): LedgerEvent[] => DeciderSpecification.history(ledgerDecider, commands);
const mint = (txid: string, to: string, amount: number): LedgerCommand => ({ type: 'Mint', data: { txid, to, amount }, metadata: { now: at } });
const send = (txid: string, from: string, to: string, amount: number, requireSettled = true): LedgerCommand => ({
  type: 'Transfer',
  data: { txid, from, to, amount, requireSettled },
  metadata: { now: at },
});
const mine = (hash = 'h'): LedgerCommand => ({ type: 'MineBlock', data: { hash }, metadata: { now: at } });
const one = (events: LedgerEvent[]) => expect(events).toHaveLength(1);

describe('development chain', () => {
  const T1 = 'transaction-0000000001';
  const T2 = 'transaction-0000000002';
  const T3 = 'transaction-0000000003';

  it('keeps minted tokens unconfirmed until a block is mined, then counts confirmations per block', () => {
    given([])
      .when(mint(T1, 'alice', 500))
      .thenState((state) => {
        expect(ledgerBalance(state, 'alice')).toEqual({ confirmed: 0, unconfirmed: 500, outgoing: 0 });
        expect(confirmations(state, state.txs[T1]!)).toBe(0);
      });
    given(history([mint(T1, 'alice', 500), mine()]))
      .when(mine())
      .thenState((after) => {
        expect(ledgerBalance(after, 'alice')).toEqual({ confirmed: 500, unconfirmed: 0, outgoing: 0 });
        expect(confirmations(after, after.txs[T1]!)).toBe(2);
      });
  });

  it('a send takes from the sender at once and reaches the receiver unconfirmed', () => {
    given(history([mint(T1, 'alice', 500), mine()]))
      .when(send(T2, 'alice', 'bob', 200))
      .thenState((state) => {
        expect(ledgerBalance(state, 'alice')).toEqual({ confirmed: 300, unconfirmed: 0, outgoing: 200 });
        expect(ledgerBalance(state, 'bob')).toEqual({ confirmed: 0, unconfirmed: 200, outgoing: 0 });
      });
  });

  it('refuses a send beyond the confirmed balance', () => {
    given(history([mint(T1, 'alice', 500), mine()]))
      .when(send(T2, 'alice', 'bob', 501))
      .thenThrows(WalletErrors.insufficientFunds);
  });

  it('refuses a further send while the sender has unconfirmed tokens', () => {
    const sent = history([mint(T1, 'alice', 500), mine(), send(T2, 'alice', 'bob', 100)]);
    given(sent)
      .when(send(T3, 'alice', 'bob', 100))
      .thenThrows(WalletErrors.unconfirmed);
    // the treasury pays many at once: it does not ask for settled funds
    given(sent)
      .when(send(T3, 'alice', 'bob', 100, false))
      .then(one);
  });

  it('after a send nothing is sendable until it is mined: the pending send says why, and the chain refuses alike', () => {
    const sent = history([mint(T1, 'alice', 1000), mine(), send(T2, 'alice', 'bob', 150)]);
    const state = fold(ledgerDecider, sent);
    expect(sendableOf(ledgerBalance(state, 'alice'))).toEqual({ amount: 0, blockedBy: 'outgoing' });
    expect(sendableOf(ledgerBalance(state, 'bob'))).toEqual({ amount: 0, blockedBy: 'incoming' });
    given(sent)
      .when(send(T3, 'bob', 'alice', 1))
      .thenThrows(WalletErrors.unconfirmed);
    given(sent)
      .when(mine('h2'))
      .thenState((mined) => expect(sendableOf(ledgerBalance(mined, 'alice'))).toEqual({ amount: 850, blockedBy: null }));
    given(history([mint(T1, 'alice', 1000), mine(), send(T2, 'alice', 'bob', 150), mine('h2')]))
      .when(send(T3, 'alice', 'bob', 850))
      .then(one);
  });

  it('a new chain begins with the treasury funded and confirmed in block 1; a chain with history gets no second beginning', () => {
    const genesis = (to: string): LedgerCommand => ({
      type: 'Genesis',
      data: { txid: 'genesis-treasury-000000', to, amount: 10_000, hash: 'g' },
      metadata: { now: at },
    });
    given([])
      .when(genesis('treasury'))
      .thenState((state, events) => {
        expect(events.map((e) => e.type)).toEqual(['ChainCoinsMinted', 'ChainBlockMined']);
        expect(ledgerBalance(state, 'treasury')).toEqual({ confirmed: 10_000, unconfirmed: 0, outgoing: 0 });
        expect(state.blocks).toHaveLength(1);
      });
    const begun = history([genesis('treasury')]);
    given(begun).when(genesis('treasury')).thenNothingHappened();
    given(history([mint(T1, 'alice', 1)]))
      .when(genesis('treasury'))
      .thenNothingHappened();
    given(begun)
      .when(send(T2, 'treasury', 'alice', 10_000, false))
      .then(one);
  });

  it('answers a retried send with nothing new, and a reused id with other content as a conflict', () => {
    const sent = history([mint(T1, 'alice', 500), mine(), send(T2, 'alice', 'bob', 100)]);
    given(sent)
      .when(send(T2, 'alice', 'bob', 100))
      .thenNothingHappened();
    given(sent)
      .when(send(T2, 'alice', 'bob', 101))
      .thenThrows(WalletErrors.idempotencyConflict);
  });

  it('mines until the last transaction has 6 confirmations, then idles', () => {
    given([]).when(mine()).thenNothingHappened();
    given(history([mint(T1, 'alice', 1), mine(), mine(), mine(), mine(), mine(), mine()]))
      .when(mine())
      .thenState((state, events) => {
        expect(events).toEqual([]);
        expect(state.blocks).toHaveLength(6);
        expect(confirmations(state, state.txs[T1]!)).toBe(6);
      });
    expect(fold(ledgerDecider, history([mint(T1, 'alice', 1), mine()])).blocks).toHaveLength(1);
  });
});

describe('address and transaction id rules', () => {
  it('an address is exactly 34 letters or digits', () => {
    expect(isWalletAddress('y'.repeat(34))).toBe(true);
    expect(isWalletAddress('y'.repeat(33))).toBe(false);
    expect(isWalletAddress('y'.repeat(35))).toBe(false);
    expect(isWalletAddress(`${'y'.repeat(33)}-`)).toBe(false);
  });
  it('a transaction id is alphanumeric with at least 20 characters', () => {
    expect(isTransactionId('a'.repeat(20))).toBe(true);
    expect(isTransactionId('a'.repeat(19))).toBe(false);
    expect(isTransactionId(`${'a'.repeat(20)}_`)).toBe(false);
  });
});

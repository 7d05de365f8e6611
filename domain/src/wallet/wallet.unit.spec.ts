import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { confirmations, ledgerBalance, ledgerDecider, type LedgerCommand, type LedgerEvent, type LedgerState } from './ledger';
import { sendableOf } from './sendable';
import { isTransactionId, isWalletAddress } from './wallet';

const at = new Date('2026-11-01T00:00:00Z');
const given = (commands: LedgerCommand[]): { state: LedgerState; events: LedgerEvent[] } => {
  let state = ledgerDecider.initialState();
  const events: LedgerEvent[] = [];
  for (const c of commands) {
    const out = ledgerDecider.decide(c, state);
    events.push(...out);
    state = out.reduce(ledgerDecider.evolve, state);
  }
  return { state, events };
};
const mint = (txid: string, to: string, amount: number): LedgerCommand => ({ type: 'Mint', data: { txid, to, amount }, metadata: { now: at } });
const send = (txid: string, from: string, to: string, amount: number, requireSettled = true): LedgerCommand => ({
  type: 'Transfer',
  data: { txid, from, to, amount, requireSettled },
  metadata: { now: at },
});
const mine = (hash = 'h'): LedgerCommand => ({ type: 'MineBlock', data: { hash }, metadata: { now: at } });
const expectError = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
};

describe('development chain', () => {
  const T1 = 'transaction-0000000001';
  const T2 = 'transaction-0000000002';
  const T3 = 'transaction-0000000003';

  it('keeps minted tokens unconfirmed until a block is mined, then counts confirmations per block', () => {
    const { state } = given([mint(T1, 'alice', 500)]);
    expect(ledgerBalance(state, 'alice')).toEqual({ confirmed: 0, unconfirmed: 500, outgoing: 0 });
    expect(confirmations(state, state.txs[T1]!)).toBe(0);
    const after = given([mint(T1, 'alice', 500), mine(), mine()]).state;
    expect(ledgerBalance(after, 'alice')).toEqual({ confirmed: 500, unconfirmed: 0, outgoing: 0 });
    expect(confirmations(after, after.txs[T1]!)).toBe(2);
  });

  it('a send takes from the sender at once and reaches the receiver unconfirmed', () => {
    const { state } = given([mint(T1, 'alice', 500), mine(), send(T2, 'alice', 'bob', 200)]);
    expect(ledgerBalance(state, 'alice')).toEqual({ confirmed: 300, unconfirmed: 0, outgoing: 200 });
    expect(ledgerBalance(state, 'bob')).toEqual({ confirmed: 0, unconfirmed: 200, outgoing: 0 });
  });

  it('refuses a send beyond the confirmed balance', () => {
    const { state } = given([mint(T1, 'alice', 500), mine()]);
    expectError(() => ledgerDecider.decide(send(T2, 'alice', 'bob', 501), state), 'WALLET_INSUFFICIENT_FUNDS');
  });

  it('refuses a further send while the sender has unconfirmed tokens', () => {
    const { state } = given([mint(T1, 'alice', 500), mine(), send(T2, 'alice', 'bob', 100)]);
    expectError(() => ledgerDecider.decide(send(T3, 'alice', 'bob', 100), state), 'WALLET_UNCONFIRMED');
    // the treasury pays many at once: it does not ask for settled funds
    expect(ledgerDecider.decide(send(T3, 'alice', 'bob', 100, false), state)).toHaveLength(1);
  });

  it('after a send nothing is sendable until it is mined: the pending send says why, and the chain refuses alike', () => {
    const { state } = given([mint(T1, 'alice', 1000), mine(), send(T2, 'alice', 'bob', 150)]);
    expect(sendableOf(ledgerBalance(state, 'alice'))).toEqual({ amount: 0, blockedBy: 'outgoing' });
    expect(sendableOf(ledgerBalance(state, 'bob'))).toEqual({ amount: 0, blockedBy: 'incoming' });
    expectError(() => ledgerDecider.decide(send(T3, 'bob', 'alice', 1), state), 'WALLET_UNCONFIRMED');
    const mined = given([mint(T1, 'alice', 1000), mine(), send(T2, 'alice', 'bob', 150), mine('h2')]).state;
    expect(sendableOf(ledgerBalance(mined, 'alice'))).toEqual({ amount: 850, blockedBy: null });
    expect(ledgerDecider.decide(send(T3, 'alice', 'bob', 850), mined)).toHaveLength(1);
  });

  it('a new chain begins with the treasury funded and confirmed in block 1; a chain with history gets no second beginning', () => {
    const genesis = (to: string): LedgerCommand => ({
      type: 'Genesis',
      data: { txid: 'genesis-treasury-000000', to, amount: 10_000, hash: 'g' },
      metadata: { now: at },
    });
    const { state, events } = given([genesis('treasury')]);
    expect(events.map((e) => e.type)).toEqual(['ChainCoinsMinted', 'ChainBlockMined']);
    expect(ledgerBalance(state, 'treasury')).toEqual({ confirmed: 10_000, unconfirmed: 0, outgoing: 0 });
    expect(state.blocks).toHaveLength(1);
    expect(ledgerDecider.decide(genesis('treasury'), state)).toEqual([]);
    expect(ledgerDecider.decide(genesis('treasury'), given([mint(T1, 'alice', 1)]).state)).toEqual([]);
    expect(ledgerDecider.decide(send(T2, 'treasury', 'alice', 10_000, false), state)).toHaveLength(1);
  });

  it('answers a retried send with nothing new, and a reused id with other content as a conflict', () => {
    const { state } = given([mint(T1, 'alice', 500), mine(), send(T2, 'alice', 'bob', 100)]);
    expect(ledgerDecider.decide(send(T2, 'alice', 'bob', 100), state)).toEqual([]);
    expectError(() => ledgerDecider.decide(send(T2, 'alice', 'bob', 101), state), 'IDEMPOTENCY_KEY_REUSED');
  });

  it('mines until the last transaction has 6 confirmations, then idles', () => {
    const idle = ledgerDecider.initialState();
    expect(ledgerDecider.decide(mine(), idle)).toEqual([]);
    const { state } = given([mint(T1, 'alice', 1), mine(), mine(), mine(), mine(), mine(), mine(), mine()]);
    expect(state.blocks).toHaveLength(6);
    expect(confirmations(state, state.txs[T1]!)).toBe(6);
    expect(fold(ledgerDecider, given([mint(T1, 'alice', 1), mine()]).events).blocks).toHaveLength(1);
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { formatAxel, parseAxel } from './amount';
import { ledgerBalance, ledgerDecider, type LedgerCommand, type LedgerEvent, type LedgerState } from './ledger';
import { sendableOf } from './sendable';

const units = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

describe('AXEL amounts', () => {
  it('format then parse gives back the same base units', () => {
    fc.assert(fc.property(units, (u) => parseAxel(formatAxel(u)) === u));
  });

  it('a decimal of at most 8 places parses to whole units and formats to its shortest equal form', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 90_000_000n }), fc.stringMatching(/^[0-9]{0,8}$/))
      .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`));
    fc.assert(
      fc.property(decimal, (text) => {
        const parsed = parseAxel(text);
        expect(parsed).not.toBeNull();
        const formatted = formatAxel(parsed!);
        expect(parseAxel(formatted)).toBe(parsed);
        // the same number: compare as exact decimals, never floats
        const [w, f = ''] = text.split('.');
        const [w2, f2 = ''] = formatted.split('.');
        expect(BigInt(w2!)).toBe(BigInt(w!));
        expect(f2.padEnd(8, '0')).toBe(f.padEnd(8, '0'));
      }),
    );
  });

  it('refuses more than 8 decimals, signs, exponents, blanks and overflow', () => {
    for (const bad of ['', '.', '1.', '.5', '-1', '+1', '1e3', '0.000000001', '01', '1,5', 'NaN', 'Infinity', '99999999999999999', ' ', '0x10']) {
      expect(parseAxel(bad), bad).toBeNull();
    }
  });
});

// ---- the development chain ------------------------------------------------------------------

const ADDRESSES = ['a1', 'a2', 'a3', 'a4'];
const now = new Date('2026-11-01T00:00:00Z');

type Step =
  | { kind: 'mint'; to: string; amount: number; key: number }
  | { kind: 'send'; from: string; to: string; amount: number; key: number; settled: boolean }
  | { kind: 'mine' };

const address = fc.constantFrom(...ADDRESSES);
const amount = fc.integer({ min: 1, max: 5_000_000_000 });
// keys from a small range, so retries of one transaction (same key) happen often
const key = fc.integer({ min: 0, max: 30 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('mint' as const), to: address, amount, key }),
  fc.record({ kind: fc.constant('send' as const), from: address, to: address, amount, key, settled: fc.boolean() }),
  fc.record({ kind: fc.constant('mine' as const) }),
);

const toCommand = (s: Step, height: number): LedgerCommand => {
  const metadata = { now };
  if (s.kind === 'mint') return { type: 'Mint', data: { txid: `mint-transaction-${s.key}-${s.to}-${s.amount}`, to: s.to, amount: s.amount }, metadata };
  if (s.kind === 'send') {
    return { type: 'Transfer', data: { txid: `send-transaction-key-${s.key}`, from: s.from, to: s.to, amount: s.amount, requireSettled: s.settled }, metadata };
  }
  return { type: 'MineBlock', data: { hash: `block-${height + 1}` }, metadata };
};

/**
 * Runs commands as the command path does: several writers decide on the same stale state, the
 * first append wins and the others retry on the fresh state (optimistic concurrency).
 */
const run = (batches: Step[][]) => {
  let state: LedgerState = ledgerDecider.initialState();
  const events: LedgerEvent[] = [];
  for (const batch of batches) {
    let pending = batch;
    while (pending.length) {
      const snapshot = state;
      const attempts = pending.map((s) => {
        try {
          return { s, events: ledgerDecider.decide(toCommand(s, snapshot.blocks.length), snapshot) };
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return { s, events: [] as LedgerEvent[] };
        }
      });
      const [winner, ...rest] = attempts;
      for (const e of winner!.events) {
        state = ledgerDecider.evolve(state, e);
        events.push(e);
      }
      pending = rest.map((a) => a.s);
    }
  }
  return { state, events };
};

const total = (state: LedgerState) =>
  Object.keys(state.accounts).reduce((sum, a) => {
    const b = ledgerBalance(state, a);
    return sum + b.confirmed + b.unconfirmed;
  }, 0);

describe('development chain ledger', () => {
  const batches = fc.array(fc.array(step, { minLength: 1, maxLength: 5 }), { maxLength: 40 });

  it('the sum of all balances always equals what was minted, and no balance goes negative', () => {
    fc.assert(
      fc.property(batches, (bs) => {
        const { state, events } = run(bs);
        expect(total(state)).toBe(state.minted);
        const minted = events.filter((e) => e.type === 'ChainCoinsMinted').reduce((s, e) => s + (e.data as { amount: number }).amount, 0);
        expect(state.minted).toBe(minted);
        for (const a of Object.keys(state.accounts)) {
          const acc = state.accounts[a]!;
          expect(acc.settled - acc.pendingOut).toBeGreaterThanOrEqual(0);
          expect(acc.pendingIn).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('no transaction is applied twice, however often it is retried', () => {
    fc.assert(
      fc.property(batches, (bs) => {
        const { events } = run(bs);
        const ids = events.filter((e) => e.type !== 'ChainBlockMined').map((e) => (e.data as { txid: string }).txid);
        expect(new Set(ids).size).toBe(ids.length);
        const mined = events.flatMap((e) => (e.type === 'ChainBlockMined' ? e.data.txids : []));
        expect(new Set(mined).size).toBe(mined.length);
      }),
    );
  });

  it("what the wallet shows as sendable is what a user's send may move: all of it passes, a unit more or anything while blocked is refused", () => {
    fc.assert(
      fc.property(batches, (bs) => {
        const { state } = run(bs);
        for (const address of Object.keys(state.accounts)) {
          const { amount, blockedBy } = sendableOf(ledgerBalance(state, address));
          const attempt = (units: number) => () =>
            ledgerDecider.decide(
              {
                type: 'Transfer',
                data: { txid: `probe-transaction-${address}-${units}`, from: address, to: 'probe', amount: units, requireSettled: true },
                metadata: { now },
              },
              state,
            );
          if (amount > 0) expect(attempt(amount)()).toHaveLength(1);
          const over = attempt(amount + 1);
          expect(over).toThrow(DomainError);
          if (blockedBy) expect(over).toThrow(/unconfirmed/);
        }
      }),
    );
  });

  it('once the mempool is empty and mined, every balance is confirmed', () => {
    fc.assert(
      fc.property(batches, (bs) => {
        const { state } = run([...bs, [{ kind: 'mine' }]]);
        for (const a of Object.keys(state.accounts)) expect(ledgerBalance(state, a).unconfirmed).toBe(0);
        expect(total(state)).toBe(state.minted);
      }),
    );
  });
});

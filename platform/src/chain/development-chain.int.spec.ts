import { EventRegistry, ledgerEventDefinitions } from '@axel/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore } from '../../../test/db';
import { newId } from '../ids';
import { DevelopmentChain } from './development-chain';

let t: Awaited<ReturnType<typeof createTestStore>>;
const registry = new EventRegistry().register(...ledgerEventDefinitions);
beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t?.close();
});

const chainOn = (stream: string) => new DevelopmentChain({ store: t.store, registry, now: () => new Date(), stream });

describe('development chain on the event store', () => {
  it('several chain instances (processes) sending at once never create or lose a token, nor pay a key twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ from: fc.nat(3), to: fc.nat(3), amount: fc.integer({ min: 1, max: 400 }), key: fc.nat(12) }), { minLength: 1, maxLength: 25 }),
        async (sends) => {
          const stream = `devchain-test-${newId()}`;
          // two adapters over one stream: as two API processes would be
          const [a, b] = [chainOn(stream), chainOn(stream)];
          const addresses = await Promise.all([0, 1, 2, 3].map((i) => a.newAddress(`${stream}-${i}`)));
          for (const address of addresses) await a.faucet!(address, 1000, `${stream}-${address}`);
          await a.mine();
          const results = await Promise.allSettled(
            sends.map((s, i) =>
              (i % 2 ? a : b).send({
                from: addresses[s.from]!,
                to: addresses[s.to]!,
                amount: s.amount,
                idempotencyKey: `${stream}-${s.key}-${s.from}-${s.to}-${s.amount}`,
                requireSettled: false,
              }),
            ),
          );
          for (const r of results)
            if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toMatch(/WALLET_INSUFFICIENT_FUNDS|IDEMPOTENCY_KEY_REUSED/);
          await b.mine();
          const balances = await Promise.all(addresses.map((x) => a.balance(x)));
          expect(balances.reduce((s, x) => s + x.confirmed + x.unconfirmed, 0)).toBe(4000);
          for (const x of balances) expect(x.unconfirmed).toBe(0);
          for (const x of balances) expect(x.outgoing).toBe(0);
          const { events } = await t.store.readStream(stream);
          const txids = events.filter((e) => e.type === 'ChainTransferAccepted').map((e) => (e.data as { txid: string }).txid);
          expect(new Set(txids).size).toBe(txids.length);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('lists transactions newest first with confirmations and the other transactions of their block', async () => {
    const stream = `devchain-test-${newId()}`;
    const chain = chainOn(stream);
    const [alice, bob] = [await chain.newAddress('alice'), await chain.newAddress('bob')];
    const { txid: minted } = await chain.faucet!(alice, 5000, 'm1');
    await chain.mine();
    const { txid: sent } = await chain.send({ from: alice, to: bob, amount: 1200, idempotencyKey: 's1', requireSettled: true });
    const { txid: again } = await chain.send({ from: alice, to: bob, amount: 1200, idempotencyKey: 's1', requireSettled: true });
    expect(again).toBe(sent);
    await chain.faucet!(bob, 1, 'm2');
    expect((await chain.transaction(sent))?.confirmations).toBe(0);
    await chain.mine();
    await chain.mine();
    const page = await chain.transactions(alice, { page: 1, perPage: 10 });
    expect(page.total).toBe(2);
    expect(page.data.map((x) => [x.txid, x.category, x.confirmations])).toEqual([
      [sent, 'send', 2],
      [minted, 'generate', 3],
    ]);
    const detail = await chain.transaction(sent);
    expect(detail?.linked).toHaveLength(1);
    expect(await chain.balance(alice)).toEqual({ confirmed: 3800, unconfirmed: 0, outgoing: 0 });
    expect(await chain.balance(bob)).toEqual({ confirmed: 1201, unconfirmed: 0, outgoing: 0 });
    expect((await chain.info()).blocks).toBe(3);
  });

  it("a new chain begins with the treasury's supply confirmed in block 1, written once however many processes start it", async () => {
    const stream = `devchain-test-${newId()}`;
    const genesis = { label: 'axel-treasury', amount: 10_000 * 100_000_000 };
    const starters = [0, 1, 2].map(() => new DevelopmentChain({ store: t.store, registry, now: () => new Date(), stream, genesis }));
    const infos = await Promise.all(starters.map((c) => c.info()));
    for (const info of infos) expect(info.blocks).toBe(1);
    const treasury = await starters[0]!.newAddress('axel-treasury');
    expect(await starters[1]!.balance(treasury)).toEqual({ confirmed: genesis.amount, unconfirmed: 0, outgoing: 0 });
    const { events } = await t.store.readStream(stream);
    expect(events.map((e) => e.type)).toEqual(['ChainCoinsMinted', 'ChainBlockMined']);
    // the treasury pays at once, and the pending payment shows as outgoing until mined
    const buyer = await starters[2]!.newAddress('buyer');
    await starters[2]!.send({ from: treasury, to: buyer, amount: 500, idempotencyKey: `${stream}-pay`, requireSettled: false });
    expect(await starters[0]!.balance(treasury)).toEqual({ confirmed: genesis.amount - 500, unconfirmed: 0, outgoing: 500 });
    // a chain that already has a history is not begun again
    const later = new DevelopmentChain({ store: t.store, registry, now: () => new Date(), stream, genesis });
    expect((await later.info()).blocks).toBe(1);
    expect((await t.store.readStream(stream)).events).toHaveLength(3);
  });
});

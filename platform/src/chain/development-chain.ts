import { createHash } from 'node:crypto';
import {
  confirmations,
  DEV_CHAIN_SETTLE_CONFIRMATIONS,
  DEV_CHAIN_STREAM,
  ledgerBalance,
  ledgerDecider,
  type BaseUnits,
  type EventRegistry,
  type LedgerCommand,
  type LedgerEvent,
  type LedgerState,
  type LedgerTx,
} from '@axel/domain';
import { metadataFor, type CommandContext } from '../commands/handler';
import { expected, WrongExpectedRevisionError, type EventStore } from '../eventstore/port';
import { deterministicId, newId } from '../ids';
import { developmentAddress } from './base58check';
import type { ChainBlock, ChainInfo, ChainPort, ChainTransaction, ChainTransactionDetail, SendRequest } from './port';

const txidFor = (scope: string, key: string) => createHash('sha256').update(`${scope}\0${key}`).digest('hex');

/**
 * The embedded development chain. Its ledger is one event stream; this adapter keeps the folded
 * state and reads only the events appended since (by this process or another one), so every
 * answer reflects the stream, and every write is an append with the expected revision: two
 * writers never both spend the same tokens.
 */
export class DevelopmentChain implements ChainPort {
  readonly kind = 'development' as const;
  private state: LedgerState = ledgerDecider.initialState();
  private revision = -1;
  private queue: Promise<unknown> = Promise.resolve();

  private beginning: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      store: EventStore;
      registry: EventRegistry;
      now: () => Date;
      stream?: string;
      /** A new chain begins with this supply confirmed on the address of this label (the treasury), as a real chain's genesis block. */
      genesis?: { label: string; amount: BaseUnits };
    },
  ) {}

  private get stream() {
    return this.deps.stream ?? DEV_CHAIN_STREAM;
  }

  /**
   * The genesis block, written once by whichever process reads the empty chain first: its events
   * have fixed ids and are appended only to a stream that does not exist yet, so a second writer
   * finds the stream taken and simply reads what the first one wrote.
   */
  private begin(): Promise<void> {
    this.beginning ??= (async () => {
      const genesis = this.deps.genesis;
      if (!genesis || genesis.amount <= 0) return;
      const state = await this.catchUp();
      const to = developmentAddress(genesis.label);
      const txid = txidFor('genesis', to);
      const hash = createHash('sha256').update(`genesis\0${to}\0${genesis.amount}`).digest('hex');
      const events = ledgerDecider.decide({ type: 'Genesis', data: { txid, to, amount: genesis.amount, hash }, metadata: { now: this.deps.now() } }, state);
      if (events.length === 0) return;
      const metadata = metadataFor({ actorId: null, actorKind: 'system' }, this.deps.now());
      const toAppend = events.map((event, index) => ({
        id: deterministicId('genesis', this.stream, String(index)),
        ...this.deps.registry.encode(event),
        metadata,
      }));
      try {
        await this.deps.store.append(this.stream, toAppend, expected.revision(this.revision));
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
      await this.catchUp();
    })().catch((error: unknown) => {
      // a store that failed is asked again by the next call
      this.beginning = null;
      throw error;
    });
    return this.beginning;
  }

  /** One refresh or write at a time in this process; other processes are held off by the revision check. */
  private serial<T>(job: () => Promise<T>): Promise<T> {
    const work = async () => {
      await this.begin();
      return job();
    };
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async catchUp(): Promise<LedgerState> {
    const { events } = await this.deps.store.readStream(this.stream, this.revision + 1);
    for (const recorded of events) {
      this.state = ledgerDecider.evolve(this.state, this.deps.registry.decode(recorded.type, recorded.schemaVersion, recorded.data) as LedgerEvent);
      this.revision = recorded.revision;
    }
    return this.state;
  }

  private read<T>(view: (state: LedgerState) => T): Promise<T> {
    return this.serial(async () => view(await this.catchUp()));
  }

  /** Decide on the newest state and append; on a concurrent append, catch up and decide again. */
  private execute(command: LedgerCommand, ctx: CommandContext): Promise<LedgerEvent[]> {
    return this.serial(async () => {
      for (let attempt = 0; ; attempt++) {
        const state = await this.catchUp();
        const events = ledgerDecider.decide(command, state);
        if (events.length === 0) return events;
        const metadata = metadataFor(ctx, command.metadata.now);
        const key = ctx.idempotencyKey;
        const toAppend = events.map((event, index) => ({
          id: key ? deterministicId(key, this.stream, String(index)) : newId(),
          ...this.deps.registry.encode(event),
          metadata,
        }));
        try {
          await this.deps.store.append(this.stream, toAppend, expected.revision(this.revision));
          await this.catchUp();
          return events;
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError && attempt < 20) continue;
          throw error;
        }
      }
    });
  }

  async info(): Promise<ChainInfo> {
    return this.read((s) => {
      const tip = s.blocks[s.blocks.length - 1];
      return { chain: 'development', development: true, blocks: s.blocks.length, bestBlockHash: tip?.hash ?? null, time: tip?.time ?? null };
    });
  }

  async newAddress(label: string): Promise<string> {
    return developmentAddress(label);
  }

  async balance(address: string) {
    return this.read((s) => ledgerBalance(s, address));
  }

  async send(request: SendRequest): Promise<{ txid: string }> {
    const txid = txidFor('send', request.idempotencyKey);
    await this.execute(
      {
        type: 'Transfer',
        data: {
          txid,
          from: request.from,
          to: request.to,
          amount: request.amount,
          requireSettled: request.requireSettled,
          ...(request.data ? { data: request.data } : {}),
        },
        metadata: { now: this.deps.now() },
      },
      { actorId: request.actor?.id ?? null, actorKind: request.actor?.kind ?? 'system', idempotencyKey: `chain-send:${txid}` },
    );
    return { txid };
  }

  readonly faucet = async (to: string, amount: BaseUnits, idempotencyKey: string, actor?: CommandContext): Promise<{ txid: string }> => {
    const txid = txidFor('mint', idempotencyKey);
    await this.execute(
      { type: 'Mint', data: { txid, to, amount }, metadata: { now: this.deps.now() } },
      { ...(actor ?? { actorId: null, actorKind: 'system' }), idempotencyKey: `chain-mint:${txid}` },
    );
    return { txid };
  };

  /** Mines the mempool into a block when one is due; null when there was nothing to mine. */
  async mine(): Promise<ChainBlock | null> {
    const state = await this.read((s) => s);
    const tip = state.blocks[state.blocks.length - 1];
    const hash = createHash('sha256')
      .update(`${tip?.hash ?? 'genesis'}\0${state.blocks.length + 1}\0${state.mempool.join(',')}`)
      .digest('hex');
    const events = await this.execute({ type: 'MineBlock', data: { hash }, metadata: { now: this.deps.now() } }, { actorId: null, actorKind: 'system' });
    const mined = events.find((e) => e.type === 'ChainBlockMined');
    return mined && mined.type === 'ChainBlockMined' ? mined.data : null;
  }

  /**
   * When the next block is due: a block interval after the newer of the tip and the oldest waiting
   * transaction (so a transaction always waits one interval, unconfirmed); null when idle.
   */
  async nextBlockDue(blockMs: number): Promise<Date | null> {
    return this.read((s) => {
      const height = s.blocks.length;
      const settled = s.lastTxHeight === 0 || height - s.lastTxHeight + 1 >= DEV_CHAIN_SETTLE_CONFIRMATIONS;
      if (s.mempool.length === 0 && settled) return null;
      const tip = s.blocks[height - 1];
      const oldest = s.mempool[0] ? s.txs[s.mempool[0]] : undefined;
      const since = Math.max(tip ? Date.parse(tip.time) : 0, oldest ? Date.parse(oldest.time) : 0);
      return new Date(since + blockMs);
    });
  }

  private view(state: LedgerState, tx: LedgerTx) {
    const block = tx.blockHeight === null ? undefined : state.blocks[tx.blockHeight - 1];
    return {
      txid: tx.txid,
      from: tx.from,
      to: tx.to,
      amount: tx.amount,
      time: tx.time,
      confirmations: confirmations(state, tx),
      blockHeight: tx.blockHeight,
      blockHash: block?.hash ?? null,
      blockTime: block?.time ?? null,
    };
  }

  async transactions(address: string, page: { page: number; perPage: number }) {
    return this.read((s) => {
      const ids = s.byAddress[address] ?? [];
      const newestFirst = [...ids].reverse();
      const slice = newestFirst.slice((page.page - 1) * page.perPage, page.page * page.perPage);
      const data: ChainTransaction[] = slice.map((id) => {
        const tx = s.txs[id]!;
        const category = tx.kind === 'mint' ? 'generate' : tx.from === address ? 'send' : 'receive';
        return { ...this.view(s, tx), category };
      });
      return { total: ids.length, data };
    });
  }

  async transaction(txid: string): Promise<ChainTransactionDetail | null> {
    return this.read((s) => {
      const tx = s.txs[txid];
      if (!tx) return null;
      const block = tx.blockHeight === null ? undefined : s.blocks[tx.blockHeight - 1];
      return { ...this.view(s, tx), linked: (block?.txids ?? []).filter((id) => id !== txid), data: tx.data ?? null };
    });
  }

  async masternodeCount() {
    // the development chain runs without masternodes
    return { total: 0, enabled: 0 };
  }

  /** Totals for the staff dashboard. */
  async totals() {
    return this.read((s) => ({
      minted: s.minted,
      transactions: Object.keys(s.txs).length,
      addresses: Object.keys(s.accounts).length,
      mempool: s.mempool.length,
    }));
  }
}

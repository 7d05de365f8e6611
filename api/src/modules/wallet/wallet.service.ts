import {
  CommonErrors,
  DomainError,
  formatAxel,
  MINIMUM_SEND,
  parseAxel,
  pinningCost,
  sendableOf,
  walletDecider,
  WalletErrors,
  walletStreamName,
  type BaseUnits,
  type WalletCommand,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { ChainPort, ChainTransaction } from '@axel/platform/chain/index';
import type { AppContext } from '../../context';
import { countLedgerCall } from '../../metrics';

/** A balance request abandoned after 20 s is a ledger timeout (spec §9). */
export const LEDGER_TIMEOUT_MS = 20_000;

/** A call to the ledger, given up after `ms`; every call is counted by its outcome. */
export const withLedgerTimeout = async <T>(work: Promise<T>, ms = LEDGER_TIMEOUT_MS): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  try {
    const result = await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new DomainError(WalletErrors.ledgerTimeout));
        }, ms);
      }),
    ]);
    countLedgerCall('ok');
    return result;
  } catch (error) {
    countLedgerCall(timedOut ? 'timeout' : 'error');
    throw error;
  } finally {
    clearTimeout(timer);
  }
};

export interface Addresses {
  readonly primary: string;
  readonly fuel: string;
}

export const TREASURY_LABEL = 'axel-treasury';

/**
 * The custodial wallet: each user's addresses on the chain, their sends and pinning payments.
 * Sends and pins spend from the primary address; the fuel address receives like the primary one.
 */
/** The wallet of an app, built on first use by the wallet module; other slices are given it (anchors, pinning payments). */
export type WalletOf = (ctx: AppContext) => Promise<WalletService>;

export class WalletService {
  constructor(
    private readonly ctx: AppContext,
    readonly chain: ChainPort,
  ) {}

  private command(userId: string, command: Omit<WalletCommand, 'metadata'>, actor: CommandContext) {
    return handleCommand(this.ctx.commands, walletDecider, walletStreamName(userId), { ...command, metadata: { now: this.ctx.now() } } as WalletCommand, actor);
  }

  async addresses(userId: string): Promise<Addresses | null> {
    const { state } = await loadState(this.ctx.commands, walletDecider, walletStreamName(userId));
    return state.addresses;
  }

  async notes(userId: string): Promise<Readonly<Record<string, string>>> {
    const { state } = await loadState(this.ctx.commands, walletDecider, walletStreamName(userId));
    return state.notes;
  }

  private requireAddresses = async (userId: string): Promise<Addresses> => {
    const addresses = await this.addresses(userId);
    if (!addresses) throw new DomainError(WalletErrors.noAddress);
    return addresses;
  };

  /** Creates the user's addresses once; a second call answers the same ones. */
  async createAddresses(userId: string, actor: CommandContext): Promise<{ addresses: Addresses; created: boolean; position: number }> {
    const existing = await this.addresses(userId);
    if (existing) return { addresses: existing, created: false, position: 0 };
    const [primary, fuel] = await withLedgerTimeout(
      Promise.all([this.chain.newAddress(`user:${userId}:primary`), this.chain.newAddress(`user:${userId}:fuel`)]),
    );
    const result = await this.command(userId, { type: 'CreateWalletAddresses', data: { userId, primary, fuel } }, actor);
    return { addresses: result.state.addresses!, created: result.events.length > 0, position: result.position };
  }

  async treasury(): Promise<string> {
    return this.chain.newAddress(TREASURY_LABEL);
  }

  async overview(userId: string) {
    const addresses = await this.addresses(userId);
    if (!addresses) return { addresses: [], main: '0', fuel: '0', pending: '0', available: '0', outgoing: '0', sendable: '0', sendBlockedBy: null };
    const [main, fuel] = await withLedgerTimeout(Promise.all([this.chain.balance(addresses.primary), this.chain.balance(addresses.fuel)]));
    // a send spends from the primary address: what it may move, and what it waits for
    const sendable = sendableOf(main);
    return {
      addresses: [
        { type: 'primary' as const, address: addresses.primary },
        { type: 'fuel' as const, address: addresses.fuel },
      ],
      main: formatAxel(main.confirmed + main.unconfirmed),
      fuel: formatAxel(fuel.confirmed + fuel.unconfirmed),
      pending: formatAxel(main.unconfirmed + fuel.unconfirmed),
      available: formatAxel(main.confirmed + fuel.confirmed),
      outgoing: formatAxel(main.outgoing + fuel.outgoing),
      sendable: formatAxel(sendable.amount),
      sendBlockedBy: sendable.blockedBy,
    };
  }

  async balance(userId: string) {
    const addresses = await this.addresses(userId);
    if (!addresses) return { confirmed: '0', unconfirmed: '0' };
    const [main, fuel] = await withLedgerTimeout(Promise.all([this.chain.balance(addresses.primary), this.chain.balance(addresses.fuel)]));
    return { confirmed: formatAxel(main.confirmed + fuel.confirmed), unconfirmed: formatAxel(main.unconfirmed + fuel.unconfirmed) };
  }

  async transactions(userId: string, query: { address?: string; page: number; perPage: number }) {
    const addresses = await this.addresses(userId);
    if (!addresses) return { data: [], total: 0, page: query.page, perPage: query.perPage };
    const address = query.address ?? addresses.primary;
    if (address !== addresses.primary && address !== addresses.fuel) throw new DomainError(CommonErrors.forbidden);
    const [page, notes, treasury] = await Promise.all([withLedgerTimeout(this.chain.transactions(address, query)), this.notes(userId), this.treasury()]);
    return {
      data: page.data.map((tx) => transactionView(tx, address, notes[tx.txid] ?? null, treasury)),
      total: page.total,
      page: query.page,
      perPage: query.perPage,
    };
  }

  /**
   * A user's send. The idempotency key is the payment: a retry with the same key answers the same
   * transaction and pays nothing more; the chain refuses a send while unconfirmed tokens wait.
   */
  async send(userId: string, input: { address: string; amount: string; note: string; idempotencyKey: string }, actor: CommandContext) {
    const amount = parseSendAmount(input.amount);
    const { primary } = await this.requireAddresses(userId);
    const { txid } = await withLedgerTimeout(
      this.chain.send({
        from: primary,
        to: input.address,
        amount,
        idempotencyKey: `user:${userId}:send:${input.idempotencyKey}`,
        requireSettled: true,
        actor: { id: actor.actorId, kind: 'user' },
      }),
    );
    const noted = await this.command(userId, { type: 'NoteSend', data: { txid, note: input.note } }, { ...actor, idempotencyKey: `wallet-note:${txid}` });
    return { txid, amount: formatAxel(amount), address: input.address, position: noted.position };
  }

  /**
   * Pays for pinning (a Secure Fetch, and its certificate) from the user's confirmed balance to
   * the treasury. The sharing slice calls this with a key naming what is paid for, so paying for
   * the same fetch twice is the same payment.
   */
  async payForPinning(request: { userId: string; certificate: boolean; idempotencyKey: string; actor?: CommandContext; data?: string }) {
    const amount = pinningCost({ certificate: request.certificate });
    const addresses = await this.addresses(request.userId);
    if (!addresses) throw new DomainError(WalletErrors.insufficientToPin);
    const treasury = await this.treasury();
    try {
      const { txid } = await withLedgerTimeout(
        this.chain.send({
          from: addresses.primary,
          to: treasury,
          amount,
          idempotencyKey: `user:${request.userId}:pin:${request.idempotencyKey}`,
          requireSettled: false,
          ...(request.data ? { data: request.data } : {}),
          actor: { id: request.actor?.actorId ?? request.userId, kind: 'user' },
        }),
      );
      return { txid, amount: formatAxel(amount) };
    } catch (error) {
      if (error instanceof DomainError && error.code === WalletErrors.insufficientFunds.code) throw new DomainError(WalletErrors.insufficientToPin);
      throw error;
    }
  }
}

export const parseSendAmount = (text: string): BaseUnits => {
  const amount = parseAxel(text);
  if (amount === null || amount === 0) throw new DomainError(WalletErrors.invalidAmount);
  if (amount < MINIMUM_SEND) {
    throw new DomainError(WalletErrors.belowMinimum, { minimum: formatAxel(MINIMUM_SEND) });
  }
  return amount;
};

/**
 * What a transaction was, when the chain alone can tell: test tokens minted, tokens from the
 * treasury (a purchase, a payout), a payment to it (pinning); null for a transfer between people.
 */
const transactionAbout = (tx: ChainTransaction, treasury: string): 'minted' | 'fromTreasury' | 'toTreasury' | null => {
  if (tx.category === 'generate') return 'minted';
  if (tx.category === 'receive' && tx.from === treasury) return 'fromTreasury';
  if (tx.category === 'send' && tx.to === treasury) return 'toTreasury';
  return null;
};

export const transactionView = (tx: ChainTransaction, address: string, note: string | null, treasury: string) => ({
  id: tx.txid,
  about: transactionAbout(tx, treasury),
  txid: tx.txid,
  note,
  timestamp: tx.time,
  category: tx.category,
  type: tx.category,
  amount: formatAxel(tx.category === 'send' ? -tx.amount : tx.amount),
  address: tx.category === 'send' ? tx.to : (tx.from ?? address),
  account: address,
  confirmations: tx.confirmations,
  blockIndex: tx.blockHeight,
  blockHash: tx.blockHash,
  blockTime: tx.blockTime,
});

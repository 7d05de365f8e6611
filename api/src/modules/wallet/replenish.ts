import { BASE_UNITS_PER_AXEL, BillingErrors, DomainError, formatAxel, parseAxel, WalletErrors, type BaseUnits } from '@axel/domain';
import type { Migration } from '@axel/platform';
import type { AppContext } from '../../context';
import { randomToken } from '../../secrets';
import { findUser } from '../accounts/users.queries';
import { TOKEN_CHECKOUT_MARK, type PaymentProvider, type TokenCheckout, type TokenCheckoutHandler } from '../billing/payments/port';
import { withLedgerTimeout, type WalletService } from './wallet.service';

/** The price of one AXEL in US cents (the spec names none): 1.00 USD. */
export const AXEL_PRICE_CENTS = 100;
/** Bought at once: at least 1 AXEL (1.00 USD), at most 10,000 AXEL. */
export const REPLENISH_MINIMUM: BaseUnits = 1 * BASE_UNITS_PER_AXEL;
export const REPLENISH_MAXIMUM: BaseUnits = 10_000 * BASE_UNITS_PER_AXEL;

/** What an amount of base units costs, in cents, rounded up to a whole cent; integers only. */
export const replenishPriceCents = (amount: BaseUnits): number => {
  const base = BigInt(BASE_UNITS_PER_AXEL);
  return Number((BigInt(amount) * BigInt(AXEL_PRICE_CENTS) + base - 1n) / base);
};

export const parseReplenishAmount = (text: string): BaseUnits => {
  const amount = parseAxel(text);
  if (amount === null || amount === 0 || amount > REPLENISH_MAXIMUM) throw new DomainError(WalletErrors.invalidAmount, { maximum: formatAxel(REPLENISH_MAXIMUM) });
  if (amount < REPLENISH_MINIMUM) throw new DomainError(WalletErrors.belowMinimum, { minimum: formatAxel(REPLENISH_MINIMUM) });
  return amount;
};

export const replenishMigrations: Migration[] = [
  {
    id: 'wallet-002-replenishments',
    sql: `create table if not exists wallet_replenishments (
      checkout_id text primary key,
      user_id text not null,
      amount bigint not null,
      amount_cents integer not null,
      status text not null default 'open',
      txid text,
      created_at timestamptz not null default now()
    )`,
  },
];

interface Row {
  user_id: string;
  amount: string;
  amount_cents: number;
  status: TokenCheckout['status'];
}

/**
 * Buying tokens: a checkout at the payment provider; once it is paid the treasury sends the tokens
 * to the buyer's primary address. The chain send's key names the checkout, so a repeated report of
 * the payment (a second Pay, a Stripe webhook retried) pays nothing more.
 */
export class Replenishments implements TokenCheckoutHandler {
  constructor(
    private readonly ctx: AppContext,
    private readonly wallet: () => Promise<WalletService>,
    private readonly provider: () => PaymentProvider | null,
  ) {}

  private async row(checkoutId: string): Promise<Row | null> {
    const { rows } = await this.ctx.pool.query<Row>('select user_id, amount::text as amount, amount_cents, status from wallet_replenishments where checkout_id = $1', [checkoutId]);
    return rows[0] ?? null;
  }

  async start(userId: string, amountText: string): Promise<{ checkoutId: string; checkoutLink: string }> {
    const amount = parseReplenishAmount(amountText);
    const provider = this.provider();
    if (!provider) throw new DomainError(BillingErrors.paymentsUnavailable);
    const wallet = await this.wallet();
    if (!(await wallet.addresses(userId))) throw new DomainError(WalletErrors.noAddress);
    const checkoutId = `${userId}.${TOKEN_CHECKOUT_MARK}${randomToken(24)}`;
    const cents = replenishPriceCents(amount);
    await this.ctx.pool.query('insert into wallet_replenishments (checkout_id, user_id, amount, amount_cents) values ($1, $2, $3, $4)', [checkoutId, userId, amount, cents]);
    const user = await findUser(this.ctx.pool, userId);
    try {
      const { checkoutLink } = await provider.createCheckout({ purpose: 'tokens', checkoutId, userId, email: user?.email ?? null, amount: cents, description: `${formatAxel(amount)} AXEL` });
      return { checkoutId, checkoutLink };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.ctx.log.error({ err: error, provider: provider.kind }, 'payment provider failed to open a token checkout');
      throw new DomainError(BillingErrors.providerFailed);
    }
  }

  async find(checkoutId: string): Promise<TokenCheckout | null> {
    const row = await this.row(checkoutId);
    return row && { userId: row.user_id, amountCents: row.amount_cents, description: `${formatAxel(Number(row.amount))} AXEL`, status: row.status };
  }

  async completed(checkoutId: string): Promise<{ position: number }> {
    const { rows } = await this.ctx.pool.query<Row>(
      `update wallet_replenishments set status = 'paid' where checkout_id = $1 and status <> 'declined' returning user_id, amount::text as amount, amount_cents, status`,
      [checkoutId],
    );
    const row = rows[0];
    if (!row) {
      if (await this.row(checkoutId)) throw new DomainError(BillingErrors.checkoutClosed);
      throw new DomainError(BillingErrors.checkoutNotFound);
    }
    const wallet = await this.wallet();
    const addresses = await wallet.addresses(row.user_id);
    if (!addresses) throw new DomainError(WalletErrors.noAddress);
    // sent again on every report of the payment: the key makes every send after the first the same one
    const { txid } = await withLedgerTimeout(
      wallet.chain.send({
        from: await wallet.treasury(),
        to: addresses.primary,
        amount: Number(row.amount),
        idempotencyKey: `replenish:${checkoutId}`,
        requireSettled: false,
        actor: { id: null, kind: 'system' },
      }),
    );
    await this.ctx.pool.query('update wallet_replenishments set txid = $2 where checkout_id = $1', [checkoutId, txid]);
    return { position: 0 };
  }

  async declined(checkoutId: string): Promise<{ position: number }> {
    const { rowCount } = await this.ctx.pool.query(`update wallet_replenishments set status = 'declined' where checkout_id = $1 and status in ('open', 'declined')`, [checkoutId]);
    if (!rowCount) {
      if (await this.row(checkoutId)) throw new DomainError(BillingErrors.checkoutClosed);
      throw new DomainError(BillingErrors.checkoutNotFound);
    }
    return { position: 0 };
  }
}

import {
  BillingErrors,
  DomainError,
  formatAxel,
  parseAxel,
  REPLENISH_MAXIMUM,
  REPLENISH_MINIMUM,
  replenishPriceCents,
  WalletErrors,
  type BaseUnits,
} from '@axel/domain';
import type { Migration } from '@axel/platform';
import type { AppContext } from '../../context';
import { randomToken } from '../../secrets';
import { findUser } from '@axel/projections/users/users.queries';
import { TOKEN_CHECKOUT_MARK, type PaymentProvider, type TokenCheckout, type TokenCheckoutHandler } from '../billing/payments/port';
import { withLedgerTimeout, type WalletService } from './wallet.service';

export const parseReplenishAmount = (text: string): BaseUnits => {
  const amount = parseAxel(text);
  if (amount === null || amount === 0 || amount > REPLENISH_MAXIMUM)
    throw new DomainError(WalletErrors.invalidAmount, { maximum: formatAxel(REPLENISH_MAXIMUM) });
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
  {
    // the treasury's send is a retried step: a paid checkout waits here until the send succeeds
    id: 'wallet-003-replenish-retries',
    sql: `alter table wallet_replenishments
      add column if not exists attempts integer not null default 0,
      add column if not exists next_attempt_at timestamptz,
      add column if not exists last_error text,
      add column if not exists paid_at timestamptz,
      add column if not exists sent_at timestamptz;
    create index if not exists wallet_replenishments_waiting on wallet_replenishments (next_attempt_at) where status = 'paid' and txid is null`,
  },
];

/** Waits between retries of a failed treasury send: 5 s, doubled each time, at most 5 minutes. */
export const REPLENISH_RETRY_FIRST_MS = 5_000;
export const REPLENISH_RETRY_MAX_MS = 5 * 60_000;
/** A claimed send not finished by then (a crashed worker) is tried again. */
const CLAIM_MS = 60_000;

/** A paid checkout whose tokens the treasury has not sent yet (staff see them on the wallet dashboard). */
export interface WaitingReplenishment {
  readonly checkoutId: string;
  readonly userId: string;
  readonly email: string | null;
  readonly amount: string;
  readonly amountCents: number;
  readonly paidAt: string | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly nextAttemptAt: string | null;
}

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
    const { rows } = await this.ctx.pool.query<Row>(
      'select user_id, amount::text as amount, amount_cents, status from wallet_replenishments where checkout_id = $1',
      [checkoutId],
    );
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
    await this.ctx.pool.query('insert into wallet_replenishments (checkout_id, user_id, amount, amount_cents) values ($1, $2, $3, $4)', [
      checkoutId,
      userId,
      amount,
      cents,
    ]);
    const user = await findUser(this.ctx.pool, userId);
    try {
      const { checkoutLink } = await provider.createCheckout({
        purpose: 'tokens',
        checkoutId,
        userId,
        email: user?.email ?? null,
        amount: cents,
        description: `${formatAxel(amount)} AXEL`,
      });
      return { checkoutId, checkoutLink };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.ctx.log.error({ err: error, provider: provider.kind }, 'payment provider failed to open a token checkout');
      throw new DomainError(BillingErrors.providerFailed);
    }
  }

  /** The buyer's view of one checkout: paid, declined or still open, and whether the tokens are sent or waiting. */
  async state(userId: string, checkoutId: string) {
    const { rows } = await this.ctx.pool.query<Row & { txid: string | null }>(
      'select user_id, amount::text as amount, amount_cents, status, txid from wallet_replenishments where checkout_id = $1 and user_id = $2',
      [checkoutId, userId],
    );
    const row = rows[0];
    if (!row) throw new DomainError(BillingErrors.checkoutNotFound);
    return {
      checkoutId,
      amount: formatAxel(Number(row.amount)),
      amountCents: row.amount_cents,
      status: row.status,
      tokens: row.status !== 'paid' ? ('none' as const) : row.txid ? ('sent' as const) : ('waiting' as const),
      txid: row.txid,
    };
  }

  async find(checkoutId: string): Promise<TokenCheckout | null> {
    const row = await this.row(checkoutId);
    return row && { userId: row.user_id, amountCents: row.amount_cents, description: `${formatAxel(Number(row.amount))} AXEL`, status: row.status };
  }

  async completed(checkoutId: string): Promise<{ position: number }> {
    const now = this.ctx.now();
    const { rows } = await this.ctx.pool.query<Row & { txid: string | null }>(
      `update wallet_replenishments set status = 'paid', paid_at = coalesce(paid_at, $2), next_attempt_at = case when txid is null then $2 else next_attempt_at end
        where checkout_id = $1 and status <> 'declined' returning user_id, amount::text as amount, amount_cents, status, txid`,
      [checkoutId, now],
    );
    const row = rows[0];
    if (!row) {
      if (await this.row(checkoutId)) throw new DomainError(BillingErrors.checkoutClosed);
      throw new DomainError(BillingErrors.checkoutNotFound);
    }
    // the payment is ours once reported; the send is tried now and, failing, again later (see `retryWaiting`)
    if (!row.txid) await this.send(checkoutId, row);
    return { position: 0 };
  }

  /**
   * The treasury's send for a paid checkout. Its key names the checkout, so however often it is
   * tried (a repeated report, a retry after a crash, two workers) the buyer is paid once. A failure
   * (a treasury without funds, the ledger not answering) leaves the checkout waiting for a retry.
   */
  private async send(checkoutId: string, row: Pick<Row, 'user_id' | 'amount'>): Promise<string | null> {
    try {
      const wallet = await this.wallet();
      const addresses = await wallet.addresses(row.user_id);
      if (!addresses) throw new DomainError(WalletErrors.noAddress);
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
      await this.ctx.pool.query('update wallet_replenishments set txid = $2, sent_at = $3, next_attempt_at = null, last_error = null where checkout_id = $1', [
        checkoutId,
        txid,
        this.ctx.now(),
      ]);
      return txid;
    } catch (error) {
      const code = error instanceof DomainError ? String(error.code) : 'SEND_FAILED';
      if (!(error instanceof DomainError)) this.ctx.log.error({ err: error, checkoutId }, 'treasury send of a replenishment failed');
      else this.ctx.log.warn({ checkoutId, code }, 'treasury send of a replenishment waits for a retry');
      await this.ctx.pool.query(
        `update wallet_replenishments set attempts = attempts + 1, last_error = $2,
          next_attempt_at = $3::timestamptz + make_interval(secs => (least($4::float8 * power(2, least(attempts, 20)), $5::float8)) / 1000)
          where checkout_id = $1 and txid is null`,
        [checkoutId, code, this.ctx.now(), REPLENISH_RETRY_FIRST_MS, REPLENISH_RETRY_MAX_MS],
      );
      return null;
    }
  }

  /** Sends what waits and is due: claimed one at a time, so two workers never try the same one at once. */
  async retryWaiting(limit = 20): Promise<number> {
    let sent = 0;
    for (let i = 0; i < limit; i++) {
      const now = this.ctx.now();
      const { rows } = await this.ctx.pool.query<Row & { checkout_id: string }>(
        `update wallet_replenishments set next_attempt_at = $1::timestamptz + make_interval(secs => $2::float8 / 1000)
          where checkout_id = (select checkout_id from wallet_replenishments where status = 'paid' and txid is null and next_attempt_at <= $1
                               order by next_attempt_at limit 1 for update skip locked)
          returning checkout_id, user_id, amount::text as amount, amount_cents, status`,
        [now, CLAIM_MS],
      );
      const row = rows[0];
      if (!row) break;
      if (await this.send(row.checkout_id, row)) sent++;
    }
    return sent;
  }

  async waiting(): Promise<WaitingReplenishment[]> {
    const { rows } = await this.ctx.pool.query<{
      checkout_id: string;
      user_id: string;
      email: string | null;
      amount: string;
      amount_cents: number;
      paid_at: Date | null;
      attempts: number;
      last_error: string | null;
      next_attempt_at: Date | null;
    }>(
      `select r.checkout_id, r.user_id, u.email, r.amount::text as amount, r.amount_cents, r.paid_at, r.attempts, r.last_error, r.next_attempt_at
         from wallet_replenishments r left join users u on u.id = r.user_id
        where r.status = 'paid' and r.txid is null order by r.paid_at nulls first, r.created_at limit 200`,
    );
    return rows.map((r) => ({
      checkoutId: r.checkout_id,
      userId: r.user_id,
      email: r.email,
      amount: formatAxel(Number(r.amount)),
      amountCents: r.amount_cents,
      paidAt: r.paid_at?.toISOString() ?? null,
      attempts: r.attempts,
      lastError: r.last_error,
      nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    }));
  }

  async declined(checkoutId: string): Promise<{ position: number }> {
    const { rowCount } = await this.ctx.pool.query(
      `update wallet_replenishments set status = 'declined' where checkout_id = $1 and status in ('open', 'declined')`,
      [checkoutId],
    );
    if (!rowCount) {
      if (await this.row(checkoutId)) throw new DomainError(BillingErrors.checkoutClosed);
      throw new DomainError(BillingErrors.checkoutNotFound);
    }
    return { position: 0 };
  }
}

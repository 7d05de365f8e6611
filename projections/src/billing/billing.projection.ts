import type { BillingEvent } from '@axel/domain/billing/billing.events';
import type { PromoCodeEvent } from '@axel/domain/billing/promo-code';
import { defineProjection } from '../runner/projection';

type Source = BillingEvent | PromoCodeEvent;

const userOf = (streamName: string) => streamName.slice('billing-'.length);
const codeOf = (streamName: string) => streamName.slice('promocode-'.length);

/**
 * Billing across users, for staff: promo codes (the console's list), subscriptions and payments
 * (the billing dashboard). A user's own plan is read from their stream, never from here, so it is
 * never behind.
 */
export const billingProjection = defineProjection<'billing_promocodes' | 'billing_subscriptions' | 'billing_payments', Source>({
  name: 'billing',
  handles: [
    'SubscriptionStarted',
    'SubscriptionRenewed',
    'SubscriptionCanceled',
    'RenewalFailed',
    'AccountDeactivatedForNonPayment',
    'PaymentRecorded',
    'PromoCodeCreated',
    'PromoCodeUpdated',
    'PromoCodeStatusChanged',
    'PromoCodeDeleted',
    'PromoCodeUsed',
  ],
  tables: {
    billing_promocodes: (t) => `create table "${t}" (
      code text primary key,
      title text not null,
      status text not null,
      product_ids integer[] not null,
      terms jsonb not null,
      used_times integer not null default 0,
      deleted boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );`,
    billing_subscriptions: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      product_id integer not null,
      quantity integer not null,
      provider text not null,
      start_date timestamptz not null,
      next_payment_date timestamptz,
      end_date timestamptz,
      canceled_at timestamptz,
      grace_end_date timestamptz,
      deactivated_at timestamptz,
      created_at timestamptz not null
    );
    create index on "${t}" (user_id);`,
    billing_payments: (t) => `create table "${t}" (
      id text primary key,
      user_id text not null,
      subscription_id text not null,
      product_id integer not null,
      amount bigint not null,
      status text not null,
      provider text not null,
      promo_code text,
      created_at timestamptz not null
    );
    create index on "${t}" (user_id, created_at desc);`,
  },
  async apply(tx, events, t) {
    const P = `"${t.billing_promocodes}"`;
    const S = `"${t.billing_subscriptions}"`;
    const PAY = `"${t.billing_payments}"`;
    for (const e of events) {
      switch (e.type) {
        case 'SubscriptionStarted': {
          const d = e.data;
          await tx.query(
            `insert into ${S} (id, user_id, product_id, quantity, provider, start_date, next_payment_date, end_date, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing`,
            [d.subscriptionId, userOf(e.streamName), d.productId, d.quantity, d.provider, d.startDate, d.nextPaymentDate, d.endDate, d.at],
          );
          break;
        }
        case 'SubscriptionRenewed':
          await tx.query(`update ${S} set next_payment_date = $2, grace_end_date = null, deactivated_at = null where id = $1`, [
            e.data.subscriptionId,
            e.data.nextPaymentDate,
          ]);
          break;
        case 'SubscriptionCanceled':
          await tx.query(`update ${S} set end_date = $2, canceled_at = $3 where id = $1`, [e.data.subscriptionId, e.data.endDate, e.data.at]);
          break;
        case 'RenewalFailed':
          await tx.query(`update ${S} set grace_end_date = $2 where id = $1 and grace_end_date is null`, [e.data.subscriptionId, e.data.graceEndDate]);
          break;
        case 'AccountDeactivatedForNonPayment':
          await tx.query(`update ${S} set deactivated_at = $2 where id = $1`, [e.data.subscriptionId, e.data.at]);
          break;
        case 'PaymentRecorded': {
          const d = e.data;
          await tx.query(
            `insert into ${PAY} (id, user_id, subscription_id, product_id, amount, status, provider, promo_code, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing`,
            [d.paymentId, userOf(e.streamName), d.subscriptionId, d.productId, d.amount, d.status, d.provider, d.promoCode, d.at],
          );
          break;
        }
        case 'PromoCodeCreated': {
          const { code, status, at, ...terms } = e.data;
          await tx.query(
            `insert into ${P} (code, title, status, product_ids, terms, used_times, deleted, created_at, updated_at)
             values ($1, $2, $3, $4, $5, 0, false, $6, $6)
             on conflict (code) do update set title = $2, status = $3, product_ids = $4, terms = $5, used_times = 0, deleted = false, created_at = $6, updated_at = $6`,
            [code, terms.title, status, terms.productIds, JSON.stringify(terms), at],
          );
          break;
        }
        case 'PromoCodeUpdated': {
          const { at, ...terms } = e.data;
          await tx.query(`update ${P} set title = $2, product_ids = $3, terms = $4, updated_at = $5 where code = $1`, [
            codeOf(e.streamName),
            terms.title,
            terms.productIds,
            JSON.stringify(terms),
            at,
          ]);
          break;
        }
        case 'PromoCodeStatusChanged':
          await tx.query(`update ${P} set status = $2, updated_at = $3 where code = $1`, [codeOf(e.streamName), e.data.status, e.data.at]);
          break;
        case 'PromoCodeDeleted':
          await tx.query(`update ${P} set deleted = true, updated_at = $2 where code = $1`, [codeOf(e.streamName), e.data.at]);
          break;
        case 'PromoCodeUsed':
          await tx.query(`update ${P} set used_times = used_times + 1 where code = $1`, [codeOf(e.streamName)]);
          break;
        default:
          break;
      }
    }
  },
});

import type { AppContext } from '../../../context';
import type { BillingService } from '../billing.service';

/**
 * The test payment provider renews its subscriptions on their next payment date, always paid, as
 * a card on file would be (Stripe does this itself). A renewal's payment id derives from the
 * subscription and the date it pays for, so running this twice, or on two processes, pays once.
 * Subscriptions in grace wait for the user (or the renewal call) instead.
 */
export const renewDueTestSubscriptions = async (ctx: AppContext, service: BillingService): Promise<number> => {
  const { rows } = await ctx.pool.query<{ id: string; user_id: string; next_payment_date: Date }>(
    `select id, user_id, next_payment_date from billing_subscriptions
      where provider = 'test' and next_payment_date <= $1 and end_date is null and canceled_at is null and grace_end_date is null
      order by next_payment_date limit 500`,
    [ctx.now()],
  );
  let renewed = 0;
  for (const row of rows) {
    try {
      const { position } = await service.apply(
        {
          kind: 'renewal',
          userId: row.user_id,
          subscriptionId: row.id,
          paymentId: `test-renewal:${row.id}:${row.next_payment_date.toISOString()}`,
          outcome: 'paid',
        },
        null,
      );
      if (position) renewed++;
    } catch (error) {
      ctx.log.warn({ subscriptionId: row.id, err: error }, 'test renewal not applied');
    }
  }
  return renewed;
};

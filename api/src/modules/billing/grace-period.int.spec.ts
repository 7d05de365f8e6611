import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

const DAY = 24 * 60 * 60 * 1000;

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const helpers = accountHelpers(t);
const { signIn, lastMail, mailCount } = helpers;
/** Sessions time out while the clock jumps weeks: sign in again for each look. */
const staff = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/** Moves the test clock to `at` and runs every process timer due by then. */
const advanceTo = async (at: number) => {
  const ms = at - t().clock.now().getTime();
  if (ms > 0) t().clock.advance(ms);
  await runtime().fireDueTimers();
  await runtime().whenIdle();
};

const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
  let v = await read();
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
};

/** A Professional subscriber whose first renewal just failed. */
const failedRenewal = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await signIn(email);
  const bought = await http.post(`/api/users/${id}/products/`, { productId: 200 });
  expect(bought.status).toBe(201);
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink).pathname.split('/').pop()!);
  expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
  const [sub] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
  expect((await http.post(`/api/dev/users/${id}/subscriptions/${sub.id}/renewal`, { outcome: 'failed' })).status).toBe(200);
  const [grace] = (await http.get(`/api/users/${id}/grace-period-info/`)).body;
  const dates = {
    graceEnd: Date.parse(grace.gracePeriodEndDate),
    storageDeletion: Date.parse(grace.scheduledStorageDeletionDate),
    accountDeletion: Date.parse(grace.scheduledAccDeletionDate),
  };
  expect((await lastMail(email, 'Your payment failed')).text).toContain(grace.gracePeriodEndDate.slice(0, 10));
  const processId = `grace-period:${id}:${sub.id}`;
  const process = await until(
    async () => (await (await staff()).get(`/api/admin/processes/${encodeURIComponent(processId)}`)).body,
    (p) => p?.status === 'running' && p.nextTimerAt !== null,
  );
  expect(process).toMatchObject({ type: 'grace-period', status: 'running' });
  return { email, id, subscriptionId: sub.id as string, dates, processId };
};

const info = async (email: string, id: string) => (await (await signIn(email)).http.get(`/api/users/${id}/`)).body;
const processOf = async (processId: string) => (await (await staff()).get(`/api/admin/processes/${encodeURIComponent(processId)}`)).body;
/**
 * The process once it shows `phase` (or as it is after a few seconds): a timer's step ends in commands
 * whose events the process applies after `advanceTo` has seen the commands dispatched.
 */
const phaseReached = (processId: string, phase: string) =>
  until(
    () => processOf(processId),
    (p) => p.state?.phase === phase,
  );
const pay = async (userId: string, subscriptionId: string) => {
  const res = await (await staff()).post(`/api/dev/users/${userId}/subscriptions/${subscriptionId}/renewal`, { outcome: 'paid' });
  expect(res.status).toBe(200);
};

describe('the grace period after a failed renewal', () => {
  it('walks the whole timeline: warnings, deactivation at the grace end, storage then account deletion', async () => {
    const { email, id, dates, processId } = await failedRenewal();
    expect(await info(email, id)).toMatchObject({ status: 'active', isGraceUnpaidUser: true, isUnpaidUser: false, isProfessional: true });

    await advanceTo(dates.graceEnd - 2 * DAY);
    expect(
      await until(
        () => mailCount(email),
        (n) => n >= 3,
      ),
    ).toBeGreaterThanOrEqual(3);
    expect((await lastMail(email, 'Reminder: your AXEL Drive payment is due')).text).toContain(new Date(dates.graceEnd).toISOString().slice(0, 10));
    expect(await info(email, id)).toMatchObject({ isGraceUnpaidUser: true });

    await advanceTo(dates.graceEnd + DAY);
    expect((await lastMail(email, 'Your AXEL Drive account was deactivated')).text).toContain(new Date(dates.storageDeletion).toISOString().slice(0, 10));
    expect(await info(email, id)).toMatchObject({ status: 'unpaid', isUnpaidUser: true, isGraceUnpaidUser: false });
    const { http } = await signIn(email);
    expect((await http.get(`/api/users/${id}/grace-period-info/`)).body[0]).toMatchObject({
      graceType: 'end',
      deleteProductAction: false,
      userProductStatus: 'unpaid',
    });
    expect((await phaseReached(processId, 'deactivated')).state).toMatchObject({ phase: 'deactivated' });

    await advanceTo(dates.storageDeletion + DAY);
    expect((await lastMail(email, 'Your AXEL Drive files are being deleted')).text).toContain(new Date(dates.accountDeletion).toISOString().slice(0, 10));
    expect((await phaseReached(processId, 'storage_deleted')).state).toMatchObject({ phase: 'storage_deleted' });

    await advanceTo(dates.accountDeletion + DAY);
    const done = await until(
      () => processOf(processId),
      (p) => p.status === 'completed',
    );
    expect(done.state).toMatchObject({ phase: 'account_deleted' });
    const deleted = await until(
      async () => (await (await staff()).get(`/api/admin/deleted-users/${id}`)).body,
      (u) => u?.deletedAt !== null && u?.deletedAt !== undefined,
    );
    expect(deleted).toMatchObject({ deletedBy: 'non_payment' });
    expect((await signIn(email)).res.status).toBeGreaterThanOrEqual(400);
  }, 120_000);

  for (const stage of ['grace', 'deactivated', 'storage_deleted'] as const) {
    it(`a payment while ${stage} ends the process and restores the account`, async () => {
      const { email, id, subscriptionId, dates, processId } = await failedRenewal();
      const at = { grace: dates.graceEnd - DAY, deactivated: dates.graceEnd + DAY, storage_deleted: dates.storageDeletion + DAY }[stage];
      await advanceTo(at);
      expect((await phaseReached(processId, stage)).state).toMatchObject({ phase: stage });
      await pay(id, subscriptionId);
      const done = await until(
        () => processOf(processId),
        (p) => p.status === 'completed',
      );
      expect(done.state).toMatchObject({ phase: 'paid' });
      await lastMail(email, 'Thank you: your payment was received');
      expect(await info(email, id)).toMatchObject({ status: 'active', isUnpaidUser: false, isGraceUnpaidUser: false, isProfessional: true });
      expect((await (await signIn(email)).http.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);

      // nothing further happens on the old dates
      const mails = await mailCount(email);
      await advanceTo(dates.accountDeletion + DAY);
      expect(await mailCount(email)).toBe(mails);
      expect((await (await staff()).get(`/api/admin/users/${id}`)).body.deletedAt).toBeNull();
    }, 120_000);
  }
});

describe('"Pay now": the overdue renewal paid directly', () => {
  it('answers the test checkout for the amount due; paying it ends the grace period as a renewal payment does', async () => {
    const { email, id, subscriptionId, dates, processId } = await failedRenewal();
    await advanceTo(dates.graceEnd + DAY);
    expect((await phaseReached(processId, 'deactivated')).state).toMatchObject({ phase: 'deactivated' });
    const { http } = await signIn(email);

    // someone else's subscription, or one with nothing due, is not paid here
    const other = await helpers.signUpConfirmed();
    expect((await (await signIn(other.email)).http.post(`/api/users/${id}/subscriptions/${subscriptionId}/pay`)).status).toBe(403);
    expect((await http.post(`/api/users/${id}/subscriptions/nosuchsubscription/pay`)).body.code).toBe('SUBSCRIPTION_NOT_FOUND');

    const due = await http.post(`/api/users/${id}/subscriptions/${subscriptionId}/pay`);
    expect(due.status, JSON.stringify(due.body)).toBe(201);
    expect(due.body).toMatchObject({ amount: 1999, currency: 'USD' });
    const link = new URL(due.body.checkoutLink);
    const page = await (await fetch(link)).text();
    expect(page).toContain('Overdue renewal payment');
    expect(page).toContain('19.99 USD');
    // a second "Pay now" opens another page; only one of them can be paid
    const second = await http.post(`/api/users/${id}/subscriptions/${subscriptionId}/pay`);
    const [before] = (await http.get(`/api/users/${id}/subscriptions/`)).body;
    const session = (l: string) => encodeURIComponent(decodeURIComponent(new URL(l).pathname.slice('/dev/checkout/'.length)));
    const paid = await http.post(`/api/dev/checkout/${session(due.body.checkoutLink)}/pay`);
    expect(paid.body).toMatchObject({ status: 'paid' });
    expect((await http.post(`/api/dev/checkout/${session(second.body.checkoutLink)}/pay`)).body.code).toBe('NOTHING_OVERDUE');

    const done = await until(
      () => processOf(processId),
      (p) => p.status === 'completed',
    );
    expect(done.state).toMatchObject({ phase: 'paid' });
    expect(await info(email, id)).toMatchObject({ status: 'active', isUnpaidUser: false, isGraceUnpaidUser: false, isProfessional: true });
    const again = (await signIn(email)).http;
    expect((await again.get(`/api/users/${id}/grace-period-info/`)).body).toEqual([]);
    const payments = (await again.get(`/api/users/${id}/payments/?sort=-createdAt`)).body;
    expect(payments).toMatchObject({ total: 3, data: [{ status: 'succeeded', amount: 1999 }, { status: 'failed' }, { status: 'succeeded' }] });
    const [sub] = (await again.get(`/api/users/${id}/subscriptions/`)).body;
    // the overdue cycle is the one paid: the next payment is one cycle after the missed date
    const missed = new Date(before.nextPaymentDate);
    missed.setUTCMonth(missed.getUTCMonth() + 1);
    expect(sub.nextPaymentDate).toBe(missed.toISOString());
    expect((await again.post(`/api/users/${id}/subscriptions/${subscriptionId}/pay`)).body.code).toBe('NOTHING_OVERDUE');
  }, 120_000);
});

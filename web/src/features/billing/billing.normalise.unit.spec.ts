import { describe, expect, it } from 'vitest';
import { pageOf, toGraceInfo, toPayment, toPlanInfo, toProduct, toPromoQuote, toSubscription } from './billing.normalise';

describe('billing answers', () => {
  it('reads a product with its storage from assets.quota.sizeTotal and its cycle from validity', () => {
    const p = toProduct({
      id: 30,
      name: 'Professional',
      type: 'plan',
      price: 1999,
      validity: 'month',
      weight: 30,
      assets: { quota: { sizeTotal: 536870912000 } },
    });
    expect(p).toMatchObject({ id: 30, price: 1999, cycle: 'monthly', quotaBytes: 536870912000, currency: 'USD', parentId: null });
    expect(toProduct({ id: '31', price: '19990', cycle: 'yearly', type: 'weird' })).toMatchObject({ id: 31, price: 19990, cycle: 'yearly', type: 'plan' });
  });

  it('reads lists bare or wrapped, with their total', () => {
    expect(pageOf([{ id: 'a', amount: 100 }], toPayment)).toMatchObject({ total: 1, data: [{ id: 'a', amount: 100 }] });
    expect(pageOf({ data: [{ id: 'a' }], total: 75 }, toPayment).total).toBe(75);
    expect(pageOf(null, toPayment)).toEqual({ data: [], total: 0 });
  });

  it("the next payment is the server's, promo price and all; none when the server names none", () => {
    const next = { date: '2027-01-01T00:00:00.000Z', amount: 1000, regularAmount: 1999, promoCode: 'HALF', promoPaymentsLeft: 2, currency: 'usd' };
    expect(toSubscription({ id: 's', productId: 200, status: 'active', price: 1999, nextPayment: next })).toMatchObject({
      price: 1999,
      nextPayment: { ...next, currency: 'USD' },
    });
    expect(toSubscription({ id: 's', productId: 200, status: 'canceled', price: 1999, nextPayment: null }).nextPayment).toBeNull();
    expect(toPromoQuote('HALF', [{ productId: 200, price: 1999, promoPrice: 1000, dueToday: 0, cycles: 3, freeTrialDays: 14 }])).toEqual({
      code: 'HALF',
      productId: 200,
      price: 1999,
      promoPrice: 1000,
      dueToday: 0,
      cycles: 3,
      freeTrialDays: 14,
      currency: 'USD',
    });
    expect(toPromoQuote('X', [])).toBeNull();
  });

  it('a subscription that says nothing about cancelling may be cancelled while active', () => {
    expect(toSubscription({ id: 's', productId: 30, status: 'active' }).cancelSubscriptionAction).toBe(true);
    expect(toSubscription({ id: 's', productId: 30, status: 'canceled', endDate: '2027-01-01' })).toMatchObject({
      cancelSubscriptionAction: false,
      endDate: '2027-01-01',
    });
  });

  it('no grace period reads as null', () => {
    expect(toGraceInfo(null)).toBeNull();
    expect(toGraceInfo({})).toBeNull();
    expect(toGraceInfo([])).toBeNull();
    expect(toGraceInfo({ gracePeriodEndDate: '2027-01-01', graceType: 'end' })).toMatchObject({ graceType: 'end', gracePeriodEndDate: '2027-01-01' });
  });

  it('reads the plan with its payment delay flag', () => {
    expect(toPlanInfo({ productId: 200, productName: 'Professional', quotaBytes: 500e9, paymentDelay: true })).toEqual({
      productId: 200,
      productName: 'Professional',
      quotaBytes: 500e9,
      startDate: null,
      paymentDelay: true,
    });
    expect(toPlanInfo(null).paymentDelay).toBe(false);
  });
});

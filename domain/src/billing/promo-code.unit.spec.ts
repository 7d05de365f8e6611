import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError, type ErrorDefinition } from '../shared/errors';
import { productById } from './billing.catalogue';
import { BillingErrors } from './billing.errors';
import { applyPromoCode, PROMO_RESERVATION_MS, promoCodeDecider, usesTaken, type PromoCodeCommand, type PromoCodeEvent, type PromoTerms } from './promo-code';

const T0 = new Date('2026-03-01T00:00:00.000Z');
const terms = (over: Partial<PromoTerms> = {}): PromoTerms => ({
  title: 'Spring',
  productIds: [200, 201],
  cycles: null,
  price: null,
  discount: { amount: 50, unit: 'percent' },
  startDate: '2026-02-01T00:00:00.000Z',
  expiryDate: '2026-04-01T00:00:00.000Z',
  numberOfUses: null,
  recurrence: 'recurring',
  freeTrialDays: 0,
  extraQuotaBytes: null,
  customFields: [],
  notes: null,
  ...over,
});

const decide = (events: PromoCodeEvent[], command: Omit<PromoCodeCommand, 'metadata'>) =>
  promoCodeDecider.decide({ ...command, metadata: { now: T0 } } as PromoCodeCommand, fold(promoCodeDecider, events));
const created = (over: Partial<PromoTerms> = {}, status: 'active' | 'inactive' = 'active') =>
  decide([], { type: 'CreatePromoCode', data: { code: 'spring', status, terms: terms(over) } });
const stateOf = (events: PromoCodeEvent[]) => fold(promoCodeDecider, events);

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return (e as DomainError).code;
  }
  return null;
};
const refusedWith = (fn: () => unknown, def: ErrorDefinition) => expect(code(fn)).toBe(def.code);

describe('promo code rules (§5)', () => {
  it('stores the code upper-cased and refuses a second one of the same spelling', () => {
    const events = created();
    expect(events[0]!.data).toMatchObject({ code: 'SPRING' });
    refusedWith(() => decide(events, { type: 'CreatePromoCode', data: { code: 'SPRING', status: 'active', terms: terms() } }), BillingErrors.promoExists);
  });

  it('needs a title, a product, an expiry after the start, and storage that is not 0', () => {
    expect(code(() => created({ title: ' ' }))).toBe('VALIDATION_FAILED');
    expect(code(() => created({ productIds: [] }))).toBe('VALIDATION_FAILED');
    expect(code(() => created({ expiryDate: '2026-01-01T00:00:00.000Z' }))).toBe('VALIDATION_FAILED');
    expect(code(() => created({ extraQuotaBytes: 0 }))).toBe('VALIDATION_FAILED');
  });

  it('needs a valid price or discount: not both, a percent at most 100, and some offer at all', () => {
    refusedWith(() => created({ price: 99 }), BillingErrors.promoInvalidPrice);
    refusedWith(() => created({ discount: { amount: 101, unit: 'percent' } }), BillingErrors.promoInvalidPrice);
    refusedWith(() => created({ discount: null }), BillingErrors.promoInvalidPrice);
    expect(created({ discount: null, freeTrialDays: 30 })).toHaveLength(1);
  });

  it('toggles and deletes', () => {
    const events = created();
    const off = decide(events, { type: 'SetPromoCodeStatus', data: { status: 'inactive' } });
    expect(stateOf([...events, ...off]).status).toBe('inactive');
    const gone = decide(events, { type: 'DeletePromoCode', data: {} });
    refusedWith(() => decide([...events, ...gone], { type: 'UpdatePromoCode', data: { terms: terms() } }), BillingErrors.promoNotFound);
  });
});

describe('promo codes at checkout', () => {
  const pro = productById(200)!;
  it('5007 for another product or no code, 5010 inactive or out of dates, 5015 when used up', () => {
    refusedWith(() => applyPromoCode({ status: 'none' }, pro, 1, T0, {}), BillingErrors.promoInvalid);
    refusedWith(() => applyPromoCode(stateOf(created()), productById(100)!, 1, T0, {}), BillingErrors.promoInvalid);
    refusedWith(() => applyPromoCode(stateOf(created({}, 'inactive')), pro, 1, T0, {}), BillingErrors.promoInactive);
    refusedWith(() => applyPromoCode(stateOf(created()), pro, 1, new Date('2026-05-01T00:00:00Z'), {}), BillingErrors.promoInactive);
    const once = created({ numberOfUses: 1 });
    const used = decide(once, { type: 'RecordPromoCodeUse', data: { userId: 'u1', checkoutId: 'c1' } });
    refusedWith(() => applyPromoCode(stateOf([...once, ...used]), pro, 1, T0, {}), BillingErrors.promoQuotaReached);
    // a use is counted once per checkout
    expect(decide([...once, ...used], { type: 'RecordPromoCodeUse', data: { userId: 'u1', checkoutId: 'c1' } })).toEqual([]);
  });

  it('expresses the offers: 50% off, the holiday 0.99 for 3 months, the 20% member discount, a trial, extra quota', () => {
    expect(applyPromoCode(stateOf(created()), pro, 1, T0, {}).price).toBe(Math.round(1999 / 2));
    const holiday = applyPromoCode(stateOf(created({ discount: null, price: 99, cycles: 3, productIds: [100] })), productById(100)!, 1, T0, {});
    expect(holiday).toMatchObject({ price: 99, cycles: 3 });
    expect(applyPromoCode(stateOf(created({ discount: { amount: 20, unit: 'percent' } })), pro, 1, T0, {}).price).toBe(1599);
    expect(applyPromoCode(stateOf(created({ discount: null, freeTrialDays: 60 })), pro, 1, T0, {})).toMatchObject({ freeTrialDays: 60, price: 1999 });
    expect(applyPromoCode(stateOf(created({ extraQuotaBytes: 1024 ** 3 })), pro, 1, T0, {}).extraQuotaBytes).toBe(1024 ** 3);
    expect(applyPromoCode(stateOf(created({ discount: { amount: 500, unit: 'usd' } })), pro, 1, T0, {}).price).toBe(1499);
    expect(applyPromoCode(stateOf(created({ recurrence: 'once' })), pro, 1, T0, {}).cycles).toBe(1);
  });

  it("a fixed price is per unit: 100 extra seats at 0.99 cost 99.00; a price above the product's charges the product's", () => {
    const seats = productById(520)!;
    const fixed = stateOf(created({ discount: null, price: 99, productIds: [520] }));
    expect(applyPromoCode(fixed, seats, 100, T0, {}).price).toBe(9900);
    expect(applyPromoCode(fixed, seats, 1, T0, {}).price).toBe(99);
    const dear = stateOf(created({ discount: null, price: 250, productIds: [520] }));
    expect(applyPromoCode(dear, seats, 3, T0, {}).price).toBe(600);
  });

  it('asks for its custom fields within their limits', () => {
    const withBar = stateOf(created({ customFields: [{ name: 'barNumber', maxLength: 5, maxValue: 10000 }] }));
    refusedWith(() => applyPromoCode(withBar, pro, 1, T0, {}), BillingErrors.promoFieldRequired);
    refusedWith(() => applyPromoCode(withBar, pro, 1, T0, { barNumber: '10001' }), BillingErrors.promoFieldRequired);
    expect(applyPromoCode(withBar, pro, 1, T0, { barNumber: '9999' }).code).toBe('SPRING');
  });
});

const pro200 = productById(200)!;

describe('a checkout holds a use of its code until it is paid, declined or expired', () => {
  const reserve = (events: PromoCodeEvent[], checkoutId: string, now = T0) =>
    promoCodeDecider.decide(
      { type: 'ReservePromoCodeUse', data: { userId: 'u1', checkoutId, productId: 200, quantity: 1, customFields: {} }, metadata: { now } },
      fold(promoCodeDecider, events),
    );

  it('refuses a checkout beyond the limit while the others hold their uses; a release frees one', () => {
    let events = created({ numberOfUses: 2 });
    events = [...events, ...reserve(events, 'c1')];
    events = [...events, ...reserve(events, 'c2')];
    refusedWith(() => reserve(events, 'c3'), BillingErrors.promoQuotaReached);
    // the same checkout asking again holds nothing more
    expect(reserve(events, 'c1')).toEqual([]);
    events = [...events, ...decide(events, { type: 'ReleasePromoCodeUse', data: { checkoutId: 'c2', reason: 'declined' } })];
    expect(reserve(events, 'c3')).toHaveLength(1);
    // a paid hold becomes a use, and stays counted
    events = [...events, ...decide(events, { type: 'RecordPromoCodeUse', data: { userId: 'u1', checkoutId: 'c1' } })];
    expect(stateOf(events)).toMatchObject({ usedTimes: 1, reservations: {} });
    expect(decide(events, { type: 'ReleasePromoCodeUse', data: { checkoutId: 'c1', reason: 'declined' } })).toEqual([]);
  });

  it('a hold past its time frees itself', () => {
    const events = created({ numberOfUses: 1 });
    const held = [...events, ...reserve(events, 'c1')];
    refusedWith(() => reserve(held, 'c2', new Date(T0.getTime() + PROMO_RESERVATION_MS - 1)), BillingErrors.promoQuotaReached);
    expect(reserve(held, 'c2', new Date(T0.getTime() + PROMO_RESERVATION_MS))).toHaveLength(1);
  });

  it('the checkout holding a use is not refused for its own hold', () => {
    const events = created({ numberOfUses: 1 });
    const state = stateOf([...events, ...reserve(events, 'c1')]);
    expect(applyPromoCode(state, pro200, 1, T0, {}, 'c1').price).toBe(1000);
    refusedWith(() => applyPromoCode(state, pro200, 1, T0, {}), BillingErrors.promoQuotaReached);
  });

  test.prop([
    fc.integer({ min: 1, max: 4 }),
    fc.array(fc.tuple(fc.constantFrom('reserve', 'release', 'pay'), fc.integer({ min: 0, max: 7 })), { maxLength: 40 }),
  ])('whatever checkouts start, pay and give up, paid and held uses never exceed the limit', (limit, steps) => {
    let events = created({ numberOfUses: limit });
    for (const [step, n] of steps) {
      const checkoutId = `c${n}`;
      const state = stateOf(events);
      if (step === 'reserve') {
        try {
          events = [...events, ...reserve(events, checkoutId)];
        } catch (e) {
          expect((e as DomainError).code).toBe(BillingErrors.promoQuotaReached.code);
        }
      } else if (step === 'release') {
        events = [...events, ...decide(events, { type: 'ReleasePromoCodeUse', data: { checkoutId, reason: 'declined' } })];
      } else if (state.status !== 'none' && state.reservations[checkoutId]) {
        // only a checkout that holds a use can be paid
        events = [...events, ...decide(events, { type: 'RecordPromoCodeUse', data: { userId: 'u1', checkoutId } })];
      }
      const after = stateOf(events);
      if (after.status !== 'none') expect(usesTaken(after, T0)).toBeLessThanOrEqual(limit);
    }
  });
});

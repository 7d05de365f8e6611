import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { CommonErrors, DomainError, type ErrorDefinition } from '../shared/errors';
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

const at = T0.toISOString();
const command = (type: PromoCodeCommand['type'], data: unknown, now = T0) => ({ type, data, metadata: { now } }) as PromoCodeCommand;
const created = (over: Partial<PromoTerms> = {}, status: 'active' | 'inactive' = 'active'): PromoCodeEvent => ({
  type: 'PromoCodeCreated',
  data: { ...terms(over), code: 'SPRING', status, at },
});
const reserved = (checkoutId: string, now = T0): PromoCodeEvent => ({
  type: 'PromoCodeUseReserved',
  data: { userId: 'u1', checkoutId, expiresAt: new Date(now.getTime() + PROMO_RESERVATION_MS).toISOString(), at: now.toISOString() },
});
const used = (checkoutId: string): PromoCodeEvent => ({ type: 'PromoCodeUsed', data: { userId: 'u1', checkoutId, at } });
const released = (checkoutId: string): PromoCodeEvent => ({ type: 'PromoCodeUseReleased', data: { checkoutId, reason: 'declined', at } });
const stateOf = (events: PromoCodeEvent[]) => fold(promoCodeDecider, events);

const given = DeciderSpecification.for(promoCodeDecider);
const create = (over: Partial<PromoTerms> = {}) => given([]).when(command('CreatePromoCode', { code: 'spring', status: 'active', terms: terms(over) }));

const refusedWith = (fn: () => unknown, def: ErrorDefinition) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe(def.code);
    return;
  }
  expect.fail(`expected a refusal with ${def.code}`);
};

describe('promo code rules (§5)', () => {
  it('stores the code upper-cased and refuses a second one of the same spelling', () => {
    create().then([created()]);
    given([created()])
      .when(command('CreatePromoCode', { code: 'SPRING', status: 'active', terms: terms() }))
      .thenThrows(BillingErrors.promoExists);
  });

  it('needs a title, a product, an expiry after the start, and storage that is not 0', () => {
    create({ title: ' ' }).thenThrows(CommonErrors.validation);
    create({ productIds: [] }).thenThrows(CommonErrors.validation);
    create({ expiryDate: '2026-01-01T00:00:00.000Z' }).thenThrows(CommonErrors.validation);
    create({ extraQuotaBytes: 0 }).thenThrows(CommonErrors.validation);
  });

  it('needs a valid price or discount: not both, a percent at most 100, and some offer at all', () => {
    create({ price: 99 }).thenThrows(BillingErrors.promoInvalidPrice);
    create({ discount: { amount: 101, unit: 'percent' } }).thenThrows(BillingErrors.promoInvalidPrice);
    create({ discount: null }).thenThrows(BillingErrors.promoInvalidPrice);
    create({ discount: null, freeTrialDays: 30 }).then((events) => expect(events).toHaveLength(1));
  });

  it('toggles and deletes', () => {
    given([created()])
      .when(command('SetPromoCodeStatus', { status: 'inactive' }))
      .thenState((state) => expect(state.status).toBe('inactive'));
    given([created()])
      .when(command('DeletePromoCode', {}))
      .then([{ type: 'PromoCodeDeleted', data: { at } }]);
    given([created(), { type: 'PromoCodeDeleted', data: { at } }])
      .when(command('UpdatePromoCode', { terms: terms() }))
      .thenThrows(BillingErrors.promoNotFound);
  });
});

describe('promo codes at checkout', () => {
  const pro = productById(200)!;
  it('5007 for another product or no code, 5010 inactive or out of dates, 5015 when used up', () => {
    refusedWith(() => applyPromoCode({ status: 'none' }, pro, 1, T0, {}), BillingErrors.promoInvalid);
    refusedWith(() => applyPromoCode(stateOf([created()]), productById(100)!, 1, T0, {}), BillingErrors.promoInvalid);
    refusedWith(() => applyPromoCode(stateOf([created({}, 'inactive')]), pro, 1, T0, {}), BillingErrors.promoInactive);
    refusedWith(() => applyPromoCode(stateOf([created()]), pro, 1, new Date('2026-05-01T00:00:00Z'), {}), BillingErrors.promoInactive);
    given([created({ numberOfUses: 1 })])
      .when(command('RecordPromoCodeUse', { userId: 'u1', checkoutId: 'c1' }))
      .thenState((state) => refusedWith(() => applyPromoCode(state, pro, 1, T0, {}), BillingErrors.promoQuotaReached));
    // a use is counted once per checkout
    given([created({ numberOfUses: 1 }), used('c1')])
      .when(command('RecordPromoCodeUse', { userId: 'u1', checkoutId: 'c1' }))
      .thenNothingHappened();
  });

  it('expresses the offers: 50% off, the holiday 0.99 for 3 months, the 20% member discount, a trial, extra quota', () => {
    expect(applyPromoCode(stateOf([created()]), pro, 1, T0, {}).price).toBe(Math.round(1999 / 2));
    const holiday = applyPromoCode(stateOf([created({ discount: null, price: 99, cycles: 3, productIds: [100] })]), productById(100)!, 1, T0, {});
    expect(holiday).toMatchObject({ price: 99, cycles: 3 });
    expect(applyPromoCode(stateOf([created({ discount: { amount: 20, unit: 'percent' } })]), pro, 1, T0, {}).price).toBe(1599);
    expect(applyPromoCode(stateOf([created({ discount: null, freeTrialDays: 60 })]), pro, 1, T0, {})).toMatchObject({ freeTrialDays: 60, price: 1999 });
    expect(applyPromoCode(stateOf([created({ extraQuotaBytes: 1024 ** 3 })]), pro, 1, T0, {}).extraQuotaBytes).toBe(1024 ** 3);
    expect(applyPromoCode(stateOf([created({ discount: { amount: 500, unit: 'usd' } })]), pro, 1, T0, {}).price).toBe(1499);
    expect(applyPromoCode(stateOf([created({ recurrence: 'once' })]), pro, 1, T0, {}).cycles).toBe(1);
  });

  it("a fixed price is per unit: 100 extra seats at 0.99 cost 99.00; a price above the product's charges the product's", () => {
    const seats = productById(520)!;
    const fixed = stateOf([created({ discount: null, price: 99, productIds: [520] })]);
    expect(applyPromoCode(fixed, seats, 100, T0, {}).price).toBe(9900);
    expect(applyPromoCode(fixed, seats, 1, T0, {}).price).toBe(99);
    const dear = stateOf([created({ discount: null, price: 250, productIds: [520] })]);
    expect(applyPromoCode(dear, seats, 3, T0, {}).price).toBe(600);
  });

  it('asks for its custom fields within their limits', () => {
    const withBar = stateOf([created({ customFields: [{ name: 'barNumber', maxLength: 5, maxValue: 10000 }] })]);
    refusedWith(() => applyPromoCode(withBar, pro, 1, T0, {}), BillingErrors.promoFieldRequired);
    refusedWith(() => applyPromoCode(withBar, pro, 1, T0, { barNumber: '10001' }), BillingErrors.promoFieldRequired);
    expect(applyPromoCode(withBar, pro, 1, T0, { barNumber: '9999' }).code).toBe('SPRING');
  });
});

const pro200 = productById(200)!;

describe('a checkout holds a use of its code until it is paid, declined or expired', () => {
  const reserve = (checkoutId: string, now = T0) =>
    command('ReservePromoCodeUse', { userId: 'u1', checkoutId, productId: 200, quantity: 1, customFields: {} }, now);

  it('refuses a checkout beyond the limit while the others hold their uses; a release frees one', () => {
    given([created({ numberOfUses: 2 })])
      .when(reserve('c1'))
      .then([reserved('c1')]);
    given([created({ numberOfUses: 2 }), reserved('c1')])
      .when(reserve('c2'))
      .then([reserved('c2')]);
    const bothHeld = [created({ numberOfUses: 2 }), reserved('c1'), reserved('c2')];
    given(bothHeld).when(reserve('c3')).thenThrows(BillingErrors.promoQuotaReached);
    // the same checkout asking again holds nothing more
    given(bothHeld).when(reserve('c1')).thenNothingHappened();
    given(bothHeld)
      .when(command('ReleasePromoCodeUse', { checkoutId: 'c2', reason: 'declined' }))
      .then([released('c2')]);
    given([...bothHeld, released('c2')])
      .when(reserve('c3'))
      .then((events) => expect(events).toHaveLength(1));
    // a paid hold becomes a use, and stays counted
    const paid = [...bothHeld, released('c2')];
    given(paid)
      .when(command('RecordPromoCodeUse', { userId: 'u1', checkoutId: 'c1' }))
      .thenState((state) => expect(state).toMatchObject({ usedTimes: 1, reservations: {} }));
    given([...paid, used('c1')])
      .when(command('ReleasePromoCodeUse', { checkoutId: 'c1', reason: 'declined' }))
      .thenNothingHappened();
  });

  it('a hold past its time frees itself', () => {
    const held = [created({ numberOfUses: 1 }), reserved('c1')];
    given(held)
      .when(reserve('c2', new Date(T0.getTime() + PROMO_RESERVATION_MS - 1)))
      .thenThrows(BillingErrors.promoQuotaReached);
    given(held)
      .when(reserve('c2', new Date(T0.getTime() + PROMO_RESERVATION_MS)))
      .then((events) => expect(events).toHaveLength(1));
  });

  it('the checkout holding a use is not refused for its own hold', () => {
    given([created({ numberOfUses: 1 })])
      .when(reserve('c1'))
      .thenState((state) => {
        expect(applyPromoCode(state, pro200, 1, T0, {}, 'c1').price).toBe(1000);
        refusedWith(() => applyPromoCode(state, pro200, 1, T0, {}), BillingErrors.promoQuotaReached);
      });
  });

  test.prop([
    fc.integer({ min: 1, max: 4 }),
    fc.array(fc.tuple(fc.constantFrom('reserve', 'release', 'pay'), fc.integer({ min: 0, max: 7 })), { maxLength: 40 }),
  ])('whatever checkouts start, pay and give up, paid and held uses never exceed the limit', (limit, steps) => {
    let events = [created({ numberOfUses: limit })];
    for (const [step, n] of steps) {
      const checkoutId = `c${n}`;
      const state = stateOf(events);
      // what the command handler does: decide on the folded stream, append what was decided
      if (step === 'reserve') {
        try {
          events = [...events, ...promoCodeDecider.decide(reserve(checkoutId), state)];
        } catch (e) {
          expect((e as DomainError).code).toBe(BillingErrors.promoQuotaReached.code);
        }
      } else if (step === 'release') {
        events = [...events, ...promoCodeDecider.decide(command('ReleasePromoCodeUse', { checkoutId, reason: 'declined' }), state)];
      } else if (state.status !== 'none' && state.reservations[checkoutId]) {
        // only a checkout that holds a use can be paid
        events = [...events, ...promoCodeDecider.decide(command('RecordPromoCodeUse', { userId: 'u1', checkoutId }), state)];
      }
      const after = stateOf(events);
      if (after.status !== 'none') expect(usesTaken(after, T0)).toBeLessThanOrEqual(limit);
    }
  });
});

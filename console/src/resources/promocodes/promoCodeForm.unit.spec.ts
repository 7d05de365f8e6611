import { describe, expect, it } from 'vitest';
import { zodValidate } from '../../forms/zodValidate';
import { centsToDollars, dollarsToCents, gbToBytes, promoCodeFormSchema, promoProductChoices, withNulls } from './promoCodeForm';

const valid = {
  code: 'SPRING50',
  title: 'Spring offer',
  status: 'active',
  productIds: [200],
  cycles: 12,
  price: null,
  discount: { amount: 50, unit: 'percent' },
  startDate: '2026-03-01T00:00:00.000Z',
  expiryDate: '2026-06-01T00:00:00.000Z',
  numberOfUses: 100,
  recurrence: 'recurring',
  freeTrialDays: 0,
  extraQuotaBytes: null,
  customFields: [{ name: 'state', maxLength: 20, maxValue: null }],
  notes: '',
};
const validate = zodValidate(promoCodeFormSchema, { emptyAs: null });
const K = 'resources.promocodes.validation';

describe('promo code form rules (§5)', () => {
  it('accepts a complete code and sends the API shape', () => {
    expect(validate(valid)).toEqual({});
    const body = promoCodeFormSchema.parse(valid);
    expect(body.discount).toEqual({ amount: 50, unit: 'percent' });
    expect(body.notes).toBeNull();
  });

  it('requires the fields and at least one product', () => {
    const errors = validate({ ...valid, code: '', title: '  ', productIds: [], startDate: undefined });
    expect(errors).toMatchObject({ code: `${K}.required`, title: `${K}.required`, productIds: `${K}.products`, startDate: `${K}.required` });
  });

  it('wants the expiry date after the start date', () => {
    expect(validate({ ...valid, expiryDate: valid.startDate })).toEqual({ expiryDate: `${K}.expiryBeforeStart` });
  });

  it('refuses a price and a discount together, a percent over 100, and a code that offers nothing', () => {
    expect(validate({ ...valid, price: 99 })).toEqual({ price: `${K}.priceAndDiscount` });
    expect(validate({ ...valid, discount: { amount: 101, unit: 'percent' } })).toEqual({ discount: { amount: `${K}.percent` } });
    expect(validate({ ...valid, discount: null })).toEqual({ price: `${K}.offer` });
    expect(validate({ ...valid, discount: null, price: -1 })).toMatchObject({ price: `${K}.price` });
    expect(validate({ ...valid, discount: null, freeTrialDays: 30 })).toEqual({});
  });

  it('keeps custom fields at most 10000 and of length at most 20, each named once', () => {
    expect(validate({ ...valid, customFields: [{ name: 'barNumber', maxLength: 21, maxValue: null }] })).toEqual({
      customFields: { 0: { maxLength: `${K}.customLength` } },
    });
    expect(validate({ ...valid, customFields: [{ name: 'barNumber', maxLength: 10, maxValue: 10001 }] })).toEqual({
      customFields: { 0: { maxValue: `${K}.customValue` } },
    });
    expect(validate({ ...valid, customFields: [{ name: 'barNumber', maxLength: 10, maxValue: 10000 }] })).toEqual({});
    expect(
      validate({
        ...valid,
        customFields: [
          { name: 'state', maxLength: 5, maxValue: null },
          { name: 'state', maxLength: 5, maxValue: null },
        ],
      }),
    ).toEqual({
      customFields: `${K}.duplicateField`,
    });
  });

  it('reads inputs never touched as empty, also inside the discount and the custom fields', () => {
    const untouched = { ...valid, price: 99, discount: { unit: '' }, customFields: [{ name: 'barNumber', maxLength: 5 }], notes: undefined, cycles: undefined };
    expect(validate(withNulls(untouched) as Record<string, unknown>)).toEqual({});
    expect(promoCodeFormSchema.parse(withNulls(untouched))).toMatchObject({
      discount: null,
      customFields: [{ name: 'barNumber', maxLength: 5, maxValue: null }],
      cycles: null,
    });
    expect(validate(untouched)).toEqual({});
  });

  it('never gives 0 storage', () => {
    expect(validate({ ...valid, extraQuotaBytes: 0 })).toEqual({ extraQuotaBytes: `${K}.storage` });
    expect(gbToBytes('0')).toBe(0);
    expect(gbToBytes('5')).toBe(5_000_000_000);
  });

  it('turns typed dollars into cents without floats, and back', () => {
    expect(dollarsToCents('9.99')).toBe(999);
    expect(dollarsToCents('0.99')).toBe(99);
    expect(dollarsToCents('$20')).toBe(2000);
    expect(dollarsToCents('19.9')).toBe(1990);
    expect(dollarsToCents('')).toBeNull();
    expect(dollarsToCents('1.999')).toBe('1.999');
    expect(centsToDollars(999)).toBe('9.99');
    expect(centsToDollars(2000)).toBe('20.00');
    expect(validate({ ...valid, discount: null, price: dollarsToCents('abc') })).toMatchObject({ price: expect.any(String) });
  });

  it('offers only products that can be bought', () => {
    const ids = promoProductChoices().map((c) => c.id);
    expect(ids).toContain(200);
    expect(ids).not.toContain(1);
    expect(ids).not.toContain(310);
  });
});

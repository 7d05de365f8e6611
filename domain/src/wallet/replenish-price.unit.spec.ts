import { BASE_UNITS_PER_AXEL } from './amount';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AXEL_PRICE_CENTS, REPLENISH_MAXIMUM, REPLENISH_MINIMUM, replenishPriceCents } from './replenish-price';

describe('replenish price', () => {
  it('is the amount times the price, rounded up to a whole cent, never less', () => {
    fc.assert(
      fc.property(fc.integer({ min: REPLENISH_MINIMUM, max: REPLENISH_MAXIMUM }), (amount) => {
        const cents = replenishPriceCents(amount);
        const exact = BigInt(amount) * BigInt(AXEL_PRICE_CENTS);
        expect(Number.isSafeInteger(cents)).toBe(true);
        expect(BigInt(cents) * BigInt(BASE_UNITS_PER_AXEL) >= exact).toBe(true);
        expect(BigInt(cents - 1) * BigInt(BASE_UNITS_PER_AXEL) < exact).toBe(true);
      }),
    );
    expect(replenishPriceCents(250_000_000)).toBe(250);
    expect(replenishPriceCents(100_000_001)).toBe(101);
  });
});

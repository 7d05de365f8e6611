import { BASE_UNITS_PER_AXEL, type BaseUnits } from './amount';

/** The price of one AXEL in US cents (the spec names none): 1.00 USD. */
export const AXEL_PRICE_CENTS = 100;
/** Bought at once: at least 1 AXEL (1.00 USD), at most 10,000 AXEL. */
export const REPLENISH_MINIMUM: BaseUnits = 1 * BASE_UNITS_PER_AXEL;
export const REPLENISH_MAXIMUM: BaseUnits = 10_000 * BASE_UNITS_PER_AXEL;

/** What an amount of base units costs, in cents, rounded up to a whole cent; integers only. The checkout charges it, the wallet shows it first. */
export const replenishPriceCents = (amount: BaseUnits): number => {
  const base = BigInt(BASE_UNITS_PER_AXEL);
  return Number((BigInt(amount) * BigInt(AXEL_PRICE_CENTS) + base - 1n) / base);
};

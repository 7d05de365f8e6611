/**
 * AXEL amounts. At the API an amount is a decimal string of AXEL with at most 8 decimals; inside it
 * is an integer count of base units (10^8 a token). Parsing goes through bigint so no float ever
 * touches a balance, and the result must stay a safe integer so events can hold it as a number.
 */
export const BASE_UNITS_PER_AXEL = 100_000_000;
export const AXEL_DECIMALS = 8;

/** Base units, a non-negative safe integer. */
export type BaseUnits = number;

const DECIMAL = /^(0|[1-9][0-9]{0,15})(?:\.([0-9]{1,8}))?$/;

/** "0.003" -> 300000; null for anything that is not a plain non-negative decimal of at most 8 places. */
export const parseAxel = (text: string): BaseUnits | null => {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(AXEL_DECIMALS, '0'));
  const units = whole * BigInt(BASE_UNITS_PER_AXEL) + fraction;
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : null;
};

/** 300000 -> "0.003": the shortest decimal that parses back to the same units. */
export const formatAxel = (units: BaseUnits): string => {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not an amount of base units: ${units}`);
  const negative = units < 0;
  const value = BigInt(Math.abs(units));
  const base = BigInt(BASE_UNITS_PER_AXEL);
  const whole = (value / base).toString();
  const fraction = (value % base).toString().padStart(AXEL_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
};

/** The smallest amount a send may move (shown to the user as the cost of a transaction). */
export const MINIMUM_SEND: BaseUnits = 100_000; // 0.001 AXEL
/** A Secure Fetch pin costs 0.003 AXEL; its certificate 0.006 more (spec §9). */
export const PIN_FETCH_COST: BaseUnits = 300_000;
export const PIN_CERTIFICATE_COST: BaseUnits = 600_000;
export const pinningCost = (options: { certificate: boolean }): BaseUnits => PIN_FETCH_COST + (options.certificate ? PIN_CERTIFICATE_COST : 0);

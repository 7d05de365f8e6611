/**
 * AXEL amounts as the API carries them: decimal strings of AXEL with at most 8 decimals. Inside
 * the app they are integers of base units (10^8 per AXEL) held as bigint, so no sum or comparison
 * ever goes through floating point.
 */
export const BASE_UNITS_PER_AXEL = 100_000_000n;
export const AXEL_DECIMALS = 8;

const DECIMAL = /^(\d+)(?:\.(\d{0,8}))?$/;

/** Base units of a decimal string of AXEL, or null when it is not one (sign, exponent, 9 decimals...). */
export const parseAxel = (text: string): bigint | null => {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const whole = BigInt(m[1]!);
  const fraction = BigInt((m[2] ?? '').padEnd(AXEL_DECIMALS, '0'));
  return whole * BASE_UNITS_PER_AXEL + fraction;
};

/** The shortest decimal string of AXEL for an amount of base units: 300000n -> "0.003". */
export const formatAxel = (units: bigint): string => {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / BASE_UNITS_PER_AXEL;
  const fraction = (abs % BASE_UNITS_PER_AXEL).toString().padStart(AXEL_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
};

/**
 * An amount from the API, whatever its spelling (a decimal string, possibly signed, or a number of
 * AXEL), as base units; null when unreadable. Numbers are read through their decimal text, never
 * multiplied as floats.
 */
export const toUnits = (value: unknown): bigint | null => {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return toUnits(value.toFixed(AXEL_DECIMALS));
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.startsWith('-')) {
    const units = parseAxel(text.slice(1));
    return units === null ? null : -units;
  }
  return parseAxel(text.startsWith('+') ? text.slice(1) : text);
};

/** A display string of an API amount (grouped whole part, the locale's decimal mark, no trailing zeros). */
export const displayAxel = (value: unknown, locale = 'en-US'): string => {
  const units = toUnits(value);
  if (units === null) return '—';
  const text = formatAxel(units);
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.');
  const parts = new Intl.NumberFormat(locale).formatToParts(1234.5);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction ? `${decimal}${fraction}` : ''}`;
};

import { formatAxel, parseAxel, type BaseUnits } from '@axel/domain/wallet/amount';

/**
 * AXEL amounts as the API carries them: decimal strings of AXEL with at most 8 decimals, read and
 * written by the domain's own functions into integers of base units (10^8 per AXEL, safe
 * integers), so no sum or comparison ever goes through floating point.
 */
export { formatAxel, parseAxel, type BaseUnits };

/**
 * An amount from the API, whatever its spelling (a decimal string, possibly signed, or a number of
 * AXEL), as base units; null when unreadable. Numbers are read through their decimal text, never
 * multiplied as floats.
 */
export const toUnits = (value: unknown): BaseUnits | null => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return toUnits(value.toFixed(8).replace(/\.?0+$/, ''));
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

import { GB } from '@axel/domain/billing/billing.catalogue';
import { localeTag } from '../../components/i18nHelpers';

/** Digits after the decimal point per currency; the product sells in USD, so 2 unless told otherwise. */
const MINOR_DIGITS: Record<string, number> = { USD: 2, EUR: 2, BRL: 2, MXN: 2, JPY: 0 };

/**
 * A price in minor units as the reader's locale writes money. The integer is split into whole and
 * minor parts with integer arithmetic, so no float ever rounds a cent away.
 */
export const formatMoney = (minor: number, currency: string, language: string): string => {
  const code = currency.toUpperCase();
  const digits = MINOR_DIGITS[code] ?? 2;
  const scale = 10 ** digits;
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  const whole = Math.trunc(abs / scale);
  const cents = abs % scale;
  const decimal = digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(cents).padStart(digits, '0')}`;
  return new Intl.NumberFormat(localeTag(language), { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    decimal as unknown as number,
  );
};

/** The catalogue's own gigabyte, so a plan's size reads as it is sold whichever unit the catalogue counts in. */
const TB = 1000 * GB;

/** Storage as plans are sold: 10 GB, 500 GB, 1 TB. */
export const formatStorage = (bytes: number, language: string): string => {
  const nf = new Intl.NumberFormat(localeTag(language), { maximumFractionDigits: 1 });
  if (bytes >= TB) return `${nf.format(bytes / TB)} TB`;
  if (bytes >= GB) return `${nf.format(bytes / GB)} GB`;
  return `${nf.format((bytes * 1000) / GB)} MB`;
};

/** Percent saved by paying a year at once instead of twelve months: whole basis points, no floats. */
export const yearlySavingPercent = (monthlyMinor: number, yearlyMinor: number): number => {
  const twelve = monthlyMinor * 12;
  if (twelve <= 0 || yearlyMinor >= twelve) return 0;
  return Math.round(((twelve - yearlyMinor) * 1000) / twelve) / 10;
};

import { describeUserAgent } from '../notifications/user-agent';
import { formatAxel } from '../wallet/amount';

/** The pieces every locale's activity sentences are built from (values as words, sizes, money, counts). */
export type Data = Readonly<Record<string, unknown>>;
export type Sentence = (d: Data) => string;

/** A value as words; erased personal values already read as "[erased]", objects as their keys. */
export const text = (value: unknown, fallback = 'unknown'): string => {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => text(v)).join(', ');
  return Object.keys(value).join(', ') || fallback;
};

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
/** 1536 -> "1.5 KB" (powers of 1024). */
export const bytes = (value: unknown): string => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return text(value);
  let size = n;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${unit === 0 ? size : Number(size.toFixed(1))} ${UNITS[unit]}`;
};

/** Base units (10^8 per AXEL) as "1.5 AXEL". */
export const axel = (value: unknown): string => (Number.isSafeInteger(value) ? `${formatAxel(value as number)} AXEL` : text(value));

/** Cents as "$12.34". */
export const usd = (value: unknown): string => (Number.isSafeInteger(value) ? `$${((value as number) / 100).toFixed(2)}` : text(value));

/** "1 file", "3 files": the count of an array or a number, with the locale's singular and plural. */
export const count = (value: unknown, one: string, many = `${one}s`): string => {
  const n = Array.isArray(value) ? value.length : Number(value);
  return `${Number.isFinite(n) ? n : 0} ${n === 1 ? one : many}`;
};

export const quoted = (value: unknown): string => `"${text(value)}"`;
export const short = (id: unknown): string => text(id).slice(0, 12);

/** " from Firefox on Windows" in the locale's words, or nothing when the user agent says nothing known (or was erased). */
export const deviceIn =
  (from: string, on: string) =>
  (userAgent: unknown): string => {
    const { browser, system } = describeUserAgent(typeof userAgent === 'string' ? userAgent : null);
    if (browser && system) return ` ${from} ${browser} ${on} ${system}`;
    return browser || system ? ` ${from} ${browser ?? system}` : '';
  };

/** ", 20% off" / ", $5.00 off" in the locale's word for "off". */
export const discountIn =
  (off: (amount: string) => string) =>
  (value: unknown): string => {
    const d = value as { amount?: unknown; unit?: unknown } | null;
    if (!d || typeof d !== 'object') return '';
    return `, ${off(d.unit === 'percent' ? `${text(d.amount)}%` : usd(d.amount))}`;
  };

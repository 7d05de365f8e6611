import { productById } from '../billing/billing.catalogue';
import { describeUserAgent } from '../notifications/user-agent';
import { formatSize } from '../shared/sizes';
import { formatAxel } from '../wallet/amount';

/** The pieces every locale's activity sentences are built from (values as words, sizes, money, counts). */
export type Data = Readonly<Record<string, unknown>>;

/** The values a sentence writes in the reader's terms: sizes, instants in their time zone, plans by name. */
export interface Writers {
  readonly bytes: (value: unknown) => string;
  readonly when: (value: unknown, fallback?: string) => string;
  readonly product: (value: unknown) => string;
}
export type Sentence = (d: Data, w: Writers) => string;

/** A value as words; erased personal values already read as "[erased]", objects as their keys. */
export const text = (value: unknown, fallback = 'unknown'): string => {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => text(v)).join(', ');
  return Object.keys(value).join(', ') || fallback;
};

/** 1536 -> "1.5 KB", as sizes read everywhere in the product (see {@link formatSize}). */
export const bytes = (value: unknown, tag = 'en-US'): string => {
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return formatSize(n, tag) ?? text(value);
};

const validTimeZone = (timeZone: string | undefined): string => {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
};

/** The writers of one language tag ("nl-NL") and time zone ("Europe/Amsterdam"; an unknown zone reads as UTC). */
export const writersFor = (tag: string, timeZone?: string): Writers => {
  const zone = validTimeZone(timeZone);
  const dates = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
  return {
    bytes: (value) => bytes(value, tag),
    when: (value, fallback = 'unknown') => {
      if (value === null || value === undefined || value === '') return fallback;
      const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
      return date && !Number.isNaN(date.getTime()) ? dates.format(date) : text(value, fallback);
    },
    product: (value) => {
      const product = Number.isSafeInteger(value) ? productById(value as number) : undefined;
      return product ? product.name : text(value);
    },
  };
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

/** A set of folder grants as its levels in the locale's words and how many of each ("view ×2, full ×1"), or `none` when empty. */
export const grantsIn = (grants: unknown, levels: Readonly<Record<string, string>>, none: string): string => {
  if (!Array.isArray(grants) || grants.length === 0) return none;
  const counts = new Map<string, number>();
  for (const g of grants as { level?: unknown }[]) {
    const level = levels[String(g?.level)] ?? text(g?.level);
    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  return [...counts].map(([level, n]) => `${level} ×${n}`).join(', ');
};

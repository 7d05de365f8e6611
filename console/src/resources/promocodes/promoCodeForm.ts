import { GB, PRODUCTS, type Product } from '@axel/domain/billing/billing.catalogue';
import { CUSTOM_FIELD_MAX_LENGTH, CUSTOM_FIELD_MAX_VALUE, CUSTOM_FIELD_NAMES } from '@axel/domain/billing/promo-code';
import { z } from 'zod';

/**
 * The promo code form's rules (§5): required fields, at least one product, a valid price or
 * discount (dollars or percent, never both), expiry after start, custom fields at most 10000 and
 * of length at most 20, storage never 0. The form holds the API's own shape (money in cents,
 * storage in bytes); the inputs only show cents as dollars and bytes as GB.
 */
const K = 'resources.promocodes.validation';

const required = `${K}.required`;
const optionalInt = (min: number, message: string) =>
  z.union([z.null(), z.literal(''), z.number().int(message).min(min, message)]).transform((v) => (v === '' ? null : v));

const day = z.string(required).regex(/^\d{4}-\d{2}-\d{2}T/, required);

export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

export const promoCodeFormSchema = z
  .object({
    code: z.string(required).trim().min(1, required).regex(PROMO_CODE_PATTERN, `${K}.code`),
    title: z.string(required).trim().min(1, required).max(200, `${K}.tooLong`),
    status: z.enum(['active', 'inactive'], required),
    productIds: z.array(z.number().int(), required).min(1, `${K}.products`),
    cycles: optionalInt(1, `${K}.positive`),
    price: optionalInt(0, `${K}.price`),
    discount: z
      .union([
        z.null(),
        z.object({
          amount: z.union([z.null(), z.literal(''), z.number().int(`${K}.discount`).positive(`${K}.discount`)]).optional(),
          unit: z.union([z.null(), z.literal(''), z.enum(['usd', 'percent'])]).optional(),
        }),
      ])
      .transform((d) => (d && typeof d.amount === 'number' ? { amount: d.amount, unit: d.unit || 'usd' } : null)),
    startDate: day,
    expiryDate: day,
    numberOfUses: optionalInt(1, `${K}.positive`),
    recurrence: z.enum(['once', 'recurring'], required),
    freeTrialDays: z
      .union([z.null(), z.literal(''), z.number().int(`${K}.nonNegative`).min(0, `${K}.nonNegative`)])
      .transform((v) => (v === '' || v === null ? 0 : v)),
    extraQuotaBytes: z.union([z.null(), z.literal(''), z.number().int(`${K}.storage`).positive(`${K}.storage`)]).transform((v) => (v === '' ? null : v)),
    customFields: z
      .union([
        z.null(),
        z.array(
          z.object({
            name: z.enum(CUSTOM_FIELD_NAMES, required),
            maxLength: z.number(`${K}.customLength`).int(`${K}.customLength`).min(1, `${K}.customLength`).max(CUSTOM_FIELD_MAX_LENGTH, `${K}.customLength`),
            maxValue: z
              .union([z.null(), z.literal(''), z.number().int(`${K}.customValue`).min(1, `${K}.customValue`).max(CUSTOM_FIELD_MAX_VALUE, `${K}.customValue`)])
              .optional()
              .transform((v) => (v === '' || v === undefined ? null : v)),
          }),
        ),
      ])
      .transform((v) => v ?? []),
    notes: z.union([z.null(), z.string().max(2000, `${K}.tooLong`)]).transform((v) => (v && v.trim() ? v : null)),
  })
  .superRefine((v, ctx) => {
    if (Date.parse(v.expiryDate) <= Date.parse(v.startDate)) ctx.addIssue({ code: 'custom', path: ['expiryDate'], message: `${K}.expiryBeforeStart` });
    if (v.price !== null && v.discount !== null) ctx.addIssue({ code: 'custom', path: ['price'], message: `${K}.priceAndDiscount` });
    if (v.discount?.unit === 'percent' && v.discount.amount > 100) ctx.addIssue({ code: 'custom', path: ['discount', 'amount'], message: `${K}.percent` });
    if (v.price === null && v.discount === null && v.freeTrialDays === 0 && v.extraQuotaBytes === null) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `${K}.offer` });
    }
    const names = v.customFields.map((f) => f.name);
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', path: ['customFields'], message: `${K}.duplicateField` });
  });

/** Dollars typed by staff to cents, by splitting the text: "9.99" is 999, never 998.9999. */
export const dollarsToCents = (text: unknown): number | string | null => {
  if (text === null || text === undefined) return null;
  if (typeof text === 'number') return Number.isInteger(text) ? text * 100 : String(text);
  const s = String(text).trim().replace(/^\$/, '');
  if (s === '') return null;
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return s;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
};

export const centsToDollars = (cents: unknown): string => {
  if (typeof cents !== 'number' || !Number.isInteger(cents)) return cents === null || cents === undefined ? '' : String(cents);
  return `${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
};

/** A discount in dollars is cents like a price; a percent is a whole number. */
export const discountParse = (unit: unknown) => (text: unknown) =>
  unit === 'percent'
    ? String(text ?? '').trim() === ''
      ? null
      : /^\d+$/.test(String(text).trim())
        ? Number(String(text).trim())
        : String(text)
    : dollarsToCents(text);
export const discountFormat = (unit: unknown) => (value: unknown) =>
  unit === 'percent' ? (value === null || value === undefined ? '' : String(value)) : centsToDollars(value);

export const gbToBytes = (text: unknown): number | string | null => {
  const s = String(text ?? '').trim();
  if (s === '') return null;
  return /^\d{1,6}$/.test(s) ? Number(s) * GB : s;
};
export const bytesToGb = (bytes: unknown): string => (typeof bytes === 'number' ? String(Math.round(bytes / GB)) : '');

/** A date input's day as the start (UTC midnight) of that day, and back. */
export const dayToIso = (day: unknown): string | null =>
  typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00.000Z` : day ? String(day) : null;
export const isoToDay = (iso: unknown): string => (typeof iso === 'string' ? iso.slice(0, 10) : '');

/** The products a code can be for: every purchasable plan and extra-member product, named with its cycle. */
export const promoProductChoices = (products: readonly Product[] = PRODUCTS) =>
  products
    .filter((p) => p.price > 0 && (p.type === 'plan' || p.type === 'custom-plan' || p.type === 'extra-members'))
    .map((p) => ({ id: p.id, name: `${p.name} (${p.validity === 'year' ? 'yearly' : 'monthly'})` }));

/** The form's values with every undefined value as null, however deep (react-admin leaves untouched inputs undefined). */
export const withNulls = (value: unknown): unknown => {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(withNulls);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNulls(v)]));
  return value;
};

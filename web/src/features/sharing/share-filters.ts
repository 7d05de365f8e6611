import { emailSchema } from '@axel/domain/accounts/accounts.validation';
import { expiryInstant } from './sharing.validation';

/** The owner's list filters as typed: the expiry range as date inputs give it (YYYY-MM-DD or ''), the e-mail lookup. */
export interface ShareFilterValues {
  expiresFrom: string;
  expiresTo: string;
  email: string;
}

export const emptyShareFilters = (): ShareFilterValues => ({ expiresFrom: '', expiresTo: '', email: '' });

/** What the list call takes: ISO instants (the first and last moment of the owner's days) and the address. */
export interface ShareFilterQuery {
  expiresFrom?: string;
  expiresAt?: string;
  email?: string;
}

export type ShareFilterField = keyof ShareFilterValues;
export type ShareFilterResult = { ok: true; query: ShareFilterQuery } | { ok: false; errors: Partial<Record<ShareFilterField, string>> };

const startOfDay = (day: string): Date | null => {
  const end = expiryInstant(day);
  if (!end || Number.isNaN(end.getTime())) return end;
  return new Date(end.getFullYear(), end.getMonth(), end.getDate(), 0, 0, 0, 0);
};

/**
 * The filters as a list query (spec §7): a range needs a valid date on each side it names, its
 * start not after its end; the e-mail lookup needs a valid address and the whole range (the API
 * refuses an address alone). Errors name the i18n key under the field.
 */
export const shareFilterQuery = (values: ShareFilterValues): ShareFilterResult => {
  const errors: Partial<Record<ShareFilterField, string>> = {};
  const from = values.expiresFrom ? startOfDay(values.expiresFrom) : null;
  const to = values.expiresTo ? expiryInstant(values.expiresTo) : null;
  if (from && Number.isNaN(from.getTime())) errors.expiresFrom = 'sharing.filters.badDate';
  if (to && Number.isNaN(to.getTime())) errors.expiresTo = 'sharing.filters.badDate';
  if (from && to && !errors.expiresFrom && !errors.expiresTo && from.getTime() > to.getTime()) errors.expiresTo = 'sharing.filters.rangeOrder';
  const email = values.email.trim();
  if (email) {
    if (!emailSchema.safeParse(email).success) errors.email = 'sharing.filters.badEmail';
    else if (!from || !to) errors.email = 'sharing.filters.emailNeedsRange';
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    query: {
      ...(from ? { expiresFrom: from.toISOString() } : {}),
      ...(to ? { expiresAt: to.toISOString() } : {}),
      ...(email ? { email: email.toLowerCase() } : {}),
    },
  };
};

/** Whether any filter is set (the list then goes through the filtered call, not the title search). */
export const hasFilters = (query: ShareFilterQuery) => Boolean(query.expiresFrom || query.expiresAt || query.email);

export interface PlanUsage {
  count: number;
  limit: number | null;
  left: number | null;
  reached: boolean;
}

/** The month's share count against the plan: `left` null when the plan has no limit. */
export const planUsage = (count: number, limit: number | null | undefined): PlanUsage => {
  if (limit === null || limit === undefined) return { count, limit: null, left: null, reached: false };
  const left = Math.max(0, limit - count);
  return { count, limit, left, reached: left === 0 };
};

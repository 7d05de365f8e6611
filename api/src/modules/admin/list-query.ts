import { z } from 'zod';
import { validationError } from '../../http/errors';
import { findUnsafeValue } from '../../http/input-hygiene';

/** The furthest a list can be paged: beyond it no offset means anything, and SQL's bigint ends. */
export const MAX_LIST_OFFSET = 1_000_000_000;

const parseJson = (value: string | undefined): unknown => {
  if (!value) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};

/**
 * List parameters in both dialects: the product's own (`page` from 1, `perPage`, `sort` as
 * `field` or `-field`, `search`) and ra-data-simple-rest's (`range=[0,9]`, `sort=["field","ASC"]`,
 * `filter={"q":"..."}`).
 */
export const ListQuerySchema = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_OFFSET / 500)
    .optional(),
  perPage: z.coerce.number().int().min(1).max(500).optional(),
  sort: z.string().max(200).optional(),
  search: z.string().max(200).optional(),
  range: z
    .string()
    .max(100)
    .optional()
    .refine((v) => {
      const range = parseJson(v);
      // a well-formed range must stay in bounds; a malformed one is ignored as before
      return !(Array.isArray(range) && range.some((n) => typeof n === 'number' && (!Number.isSafeInteger(n) || n > MAX_LIST_OFFSET)));
    }, 'validation.invalid'),
  filter: z.string().max(2000).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export interface ListParams {
  readonly offset: number;
  readonly limit: number;
  readonly sortField: string;
  readonly sortDir: 'asc' | 'desc';
  readonly search: string | null;
  readonly filter: Record<string, unknown>;
}

export const parseListQuery = (
  q: ListQuery,
  defaults: { sortField: string; sortDir: 'asc' | 'desc'; perPage: number },
  sortable: readonly string[],
): ListParams => {
  let offset = 0;
  let limit = q.perPage ?? defaults.perPage;
  const range = parseJson(q.range);
  if (Array.isArray(range) && range.length === 2 && range.every((n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_LIST_OFFSET) && range[1] >= range[0]) {
    offset = range[0];
    limit = Math.min(range[1] - range[0] + 1, 500);
  } else if (q.page) {
    offset = (q.page - 1) * limit;
  }

  let sortField = defaults.sortField;
  let sortDir = defaults.sortDir;
  const raSort = parseJson(q.sort);
  if (Array.isArray(raSort) && typeof raSort[0] === 'string') {
    sortField = raSort[0];
    sortDir = String(raSort[1]).toLowerCase() === 'asc' ? 'asc' : 'desc';
  } else if (q.sort) {
    sortDir = q.sort.startsWith('-') ? 'desc' : 'asc';
    sortField = q.sort.replace(/^[-+]/, '');
  }
  if (!sortable.includes(sortField)) {
    sortField = defaults.sortField;
    sortDir = defaults.sortDir;
  }

  const filterRaw = parseJson(q.filter);
  // JSON escapes (`\u0000`) reach here undecoded by the edge's check of the raw query
  const unsafe = findUnsafeValue(filterRaw, 'filter');
  if (unsafe !== null) throw validationError({ [unsafe]: 'validation.invalid' });
  const filter = filterRaw && typeof filterRaw === 'object' && !Array.isArray(filterRaw) ? (filterRaw as Record<string, unknown>) : {};
  const searchText = (q.search ?? (typeof filter.q === 'string' ? filter.q : '')).trim();
  return { offset, limit, sortField, sortDir, search: searchText ? searchText : null, filter };
};

export const contentRange = (resource: string, offset: number, count: number, total: number) =>
  `${resource} ${offset}-${count ? offset + count - 1 : offset}/${total}`;

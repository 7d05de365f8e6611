/**
 * The Active users search rules: a search runs only when there is search text; an empty search
 * shows an info message; a search with no result shows the "no match" message.
 */
export const USERS_PER_PAGE = 10;
export const SEARCH_DEBOUNCE_MS = 400;

export type FilterValues = Record<string, unknown>;

/** The search text carried by the list filter (react-admin keeps it under `q`, the API's search). */
export const searchTextOf = (filterValues: FilterValues | undefined): string => {
  const q = filterValues?.q;
  return typeof q === 'string' ? q.trim() : '';
};

/**
 * The list filter for what the staff member typed: `q` only when there is text, so blank or
 * whitespace-only input never reaches the API as a search.
 */
export const toSearchFilter = (text: string, current: FilterValues = {}): FilterValues => {
  const { q: _previous, ...rest } = current;
  const trimmed = text.trim();
  return trimmed ? { ...rest, q: trimmed } : rest;
};

export type SearchMessage =
  | { readonly kind: 'info'; readonly key: 'resources.users.search.empty' }
  | { readonly kind: 'noMatch'; readonly key: 'resources.users.search.noMatch'; readonly search: string }
  | { readonly kind: 'none' };

export const searchMessage = (state: {
  readonly filterValues: FilterValues | undefined;
  readonly total: number | undefined;
  readonly isPending: boolean;
}): SearchMessage => {
  const search = searchTextOf(state.filterValues);
  if (!search) return { kind: 'info', key: 'resources.users.search.empty' };
  if (!state.isPending && state.total === 0) return { kind: 'noMatch', key: 'resources.users.search.noMatch', search };
  return { kind: 'none' };
};

/** The activity log as the console reads it: filters in the address bar, rows from GET /api/admin/activity. */

export interface ActivityActor {
  readonly kind: string;
  readonly id: string | null;
  readonly email: string | null;
  readonly name: string | null;
  readonly label: string;
}

export interface ActivityRow {
  readonly id: string;
  readonly position: number;
  readonly time: string;
  readonly type: string;
  readonly stream: string;
  readonly revision: number;
  readonly aggregate: string | null;
  readonly actor: ActivityActor;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly client: string | null;
  readonly correlationId: string | null;
  readonly causationId: string | null;
  readonly sentence: string;
  readonly data: unknown;
}

export const FILTER_FIELDS = ['user', 'actor', 'aggregate', 'item', 'type', 'ip', 'from', 'to'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type ActivityFilters = Partial<Record<FilterField, string>>;

export const ACTIVITY_API = '/api/admin/activity';

/** The roles the activity API answers (the financial admin runs money, not audits). */
const ACTIVITY_READERS = new Set(['auditor', 'admin', 'super_admin']);

/** Whether the signed-in staff member sees the Activity pages; false while permissions load. */
export const mayReadActivity = (permissions: unknown): boolean =>
  typeof permissions === 'object' && permissions !== null && ACTIVITY_READERS.has(String((permissions as { role?: unknown }).role));
export const PAGE_SIZE = 25;

/** The filters named in the address bar (`?user=...&type=A,B`), blanks dropped. */
export const filtersFrom = (params: URLSearchParams): ActivityFilters => {
  const filters: ActivityFilters = {};
  for (const field of FILTER_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
};

/** `datetime-local` values have no zone: they are the staff member's local time, sent as an instant. */
export const toInstant = (local: string): string | null => {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** An instant as a `datetime-local` value in the browser's zone (to the second). */
export const toLocalInput = (instant: string): string => {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/** The API's filter object: types split on commas, times as instants. */
export const apiFilter = (filters: ActivityFilters, cursor?: number): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const field of FILTER_FIELDS) {
    const value = filters[field];
    if (!value) continue;
    if (field === 'type')
      out.type = value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    else if (field === 'from' || field === 'to') {
      const instant = toInstant(value);
      if (instant) out[field] = instant;
    } else out[field] = value;
  }
  if (cursor !== undefined) out.before = cursor;
  return out;
};

/** The wording of the rows: the console's language and the reader's time zone (instants inside sentences read in it). */
const wording = (locale: string, timeZone: string | undefined): Record<string, string> => ({ locale, ...(timeZone ? { timeZone } : {}) });

/** The page's rows, their sentences in the console's language (`locale`) and the reader's time zone. */
export const listUrl = (filters: ActivityFilters, cursor?: number, perPage = PAGE_SIZE, locale = 'en', timeZone?: string): string =>
  `${ACTIVITY_API}?${new URLSearchParams({ filter: JSON.stringify(apiFilter(filters, cursor)), range: JSON.stringify([0, perPage - 1]), ...wording(locale, timeZone) })}`;

export const exportUrl = (filters: ActivityFilters, format: 'csv' | 'jsonl', locale = 'en', timeZone?: string): string =>
  `${ACTIVITY_API}/export?${new URLSearchParams({ format, filter: JSON.stringify(apiFilter(filters)), ...wording(locale, timeZone) })}`;

/** The total from `activity 0-24/310`; null when the server says `*` (too many to count, or an ip search). */
export const totalOf = (contentRange: string | null): number | null => {
  const total = contentRange?.split('/')[1];
  return total && /^\d+$/.test(total) ? Number(total) : null;
};

/** The storage item (file or folder) an event names, for its own timeline. */
export const itemOf = (row: Pick<ActivityRow, 'aggregate' | 'data'>): string | null => {
  const data = row.data as { itemId?: unknown } | null;
  return row.aggregate === 'storage' && data && typeof data.itemId === 'string' ? data.itemId : null;
};

/** The instant just before an event: time travel from there shows what the event changed. */
export const instantBefore = (time: string): string => new Date(new Date(time).getTime() - 1).toISOString();

export const stateUrl = (stream: string, at: string): string => `/api/admin/aggregates/${encodeURIComponent(stream)}/state?${new URLSearchParams({ at })}`;

export interface StateAnswer {
  readonly stream: string;
  readonly aggregate: string;
  readonly at: string;
  readonly revisionAt: number;
  readonly revisionToday: number;
  readonly state: unknown;
  readonly today: unknown;
  readonly differences: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A state as `path → value` rows down to its leaves; arrays stay whole, shown as JSON. */
export const flatten = (value: unknown, path = ''): Map<string, string> => {
  const rows = new Map<string, string>();
  if (isRecord(value) && Object.keys(value).length) {
    for (const [key, inner] of Object.entries(value)) for (const [p, v] of flatten(inner, path ? `${path}.${key}` : key)) rows.set(p, v);
    return rows;
  }
  if (path) rows.set(path, value === undefined ? '' : JSON.stringify(value));
  return rows;
};

/** Whether a field lies under the focused part of a state (`items.f1` keeps `items.f1.name`), or no focus is set. */
export const inFocus = (path: string, focus: string | null): boolean => !focus || path === focus || path.startsWith(`${focus}.`);

/** Time travel to just before an event; an event about one storage item focuses on that item. */
export const travelQuery = (row: Pick<ActivityRow, 'stream' | 'time' | 'aggregate' | 'data'>): URLSearchParams => {
  const item = itemOf(row);
  return new URLSearchParams({ stream: row.stream, at: instantBefore(row.time), ...(item ? { focus: `items.${item}` } : {}) });
};

export interface ComparedField {
  readonly path: string;
  readonly then: string;
  readonly now: string;
  readonly changed: boolean;
}

/** The fields of both states side by side, in path order; a field is changed when the server says so or the values differ. */
export const compareStates = (answer: Pick<StateAnswer, 'state' | 'today' | 'differences'>): ComparedField[] => {
  const then = flatten(answer.state);
  const now = flatten(answer.today);
  const paths = [...new Set([...then.keys(), ...now.keys()])].sort();
  const named = new Set(answer.differences);
  return paths.map((path) => {
    const a = then.get(path) ?? '';
    const b = now.get(path) ?? '';
    return { path, then: a, now: b, changed: a !== b || named.has(path) };
  });
};

import { createHash } from 'node:crypto';
import { hideSecretFields, type EventDefinition, type EventMetadata } from '@axel/domain';
import { type ActivityLocale, describeEvent } from '@axel/domain/audit/describe-event';
import { esEventColumns, PersonalDataEventStore, recordedEventOf, type EsEventRow, type Migration, type Pool, type RecordedEvent } from '@axel/platform';
import type { AppContext } from '../../context';
import { validationError } from '../../http/errors';
import { aggregateOf } from './activity.aggregates';
import type { ActivityFilter, ActivityRow } from './activity.schema';

/**
 * The activity log is the event store itself: rows are read straight from `es_events` with
 * keyset paging on the global position, so page 10,000 costs what page 1 costs. These indexes
 * serve the filters (who acted, which type, when); a stream's own index serves aggregates.
 */
export const activityMigrations: Migration[] = [
  {
    id: 'audit-100-activity-indexes',
    sql: `
create index if not exists es_events_activity_type on es_events (event_type, position);
create index if not exists es_events_activity_actor on es_events ((metadata->>'actorId'), position);
create index if not exists es_events_activity_time on es_events ((metadata->>'time'), position);
create index if not exists es_events_activity_stream on es_events (stream_name, position);`,
  },
];

/** Streams that belong to one user besides their storages: named after the user's id. */
const USER_STREAM_PREFIXES = ['user', 'billing', 'wallet', 'contacts', 'notifications', 'bookmarks'] as const;
const ACTOR_KINDS = new Set(['user', 'staff', 'process', 'system', 'anonymous']);
/** How many rows an ip search reads past non-matching ones before answering with what it found. */
export const IP_SCAN_BUDGET = 20_000;
const SCAN_PAGE = 1000;
/** Content-Range names an exact total up to this many rows; beyond it, `*`. */
const COUNT_CAP = 10_000;

const COLUMNS = esEventColumns('e');

/** A filter resolved to SQL: its conditions and parameters, or nothing at all (an unknown user). */
export interface ResolvedFilter {
  readonly where: string[];
  readonly values: unknown[];
  readonly ip: string | null;
  readonly empty: boolean;
  /**
   * With a time range the rows are read in (time, position) order from the time index: an old
   * hour is then found at once, where walking the log by position would pass every newer event.
   * Times follow positions closely, so the order reads the same.
   */
  readonly byTime: boolean;
  /**
   * A user's events come from two indexes at once (their streams, their acts): read them by
   * bitmap and sort them, rather than let the planner walk the whole log in position order
   * looking for a user whose last act was long ago.
   */
  readonly bySubject: boolean;
}

/** Where a page starts: a position, and its event's time when the rows are in time order. */
export interface Cursor {
  readonly position: number;
  readonly time: string | null;
}

const userIdOf = async (pool: Pool, idOrEmail: string): Promise<string | null> => {
  if (!idOrEmail.includes('@')) return idOrEmail;
  const { rows } = await pool.query<{ id: string }>('select id from users where lower(email) = lower($1) order by deleted_at nulls first limit 1', [idOrEmail]);
  return rows[0]?.id ?? null;
};

/** The streams of one user: their own, named after their id, and the storages they own. */
export const userStreams = async (pool: Pool, userId: string): Promise<string[]> => {
  const { rows } = await pool.query<{ id: string }>('select id from storages where owner_id = $1', [userId]);
  return [...USER_STREAM_PREFIXES.map((p) => `${p}-${userId}`), ...rows.map((r) => `storage-${r.id}`)];
};

const iso = (instant: string) => new Date(instant).toISOString();

/** An IPv4 address as IPv6 sockets report it (`::ffff:10.0.0.1`) is the same address. */
const plainIp = (ip: string) =>
  ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
const sameIp = (recorded: string | null, wanted: string) => recorded !== null && plainIp(recorded) === wanted;

export const resolveFilter = async (pool: Pool, filter: ActivityFilter): Promise<ResolvedFilter> => {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  let empty = false;
  if (filter.user) {
    const id = await userIdOf(pool, filter.user);
    if (!id) empty = true;
    else where.push(`(e.stream_name = any(${param(await userStreams(pool, id))}::text[]) or e.metadata->>'actorId' = ${param(id)})`);
  }
  if (filter.actor) {
    if (ACTOR_KINDS.has(filter.actor)) where.push(`e.metadata->>'actorKind' = ${param(filter.actor)}`);
    else {
      const id = await userIdOf(pool, filter.actor);
      if (!id) empty = true;
      else where.push(`e.metadata->>'actorId' = ${param(id)}`);
    }
  }
  if (filter.aggregate) where.push(`e.stream_name = ${param(filter.aggregate)}`);
  if (filter.item) {
    const item = param(filter.item);
    where.push(`(e.data->>'itemId' = ${item} or e.data->'descendantIds' ? ${item})`);
  }
  if (filter.type?.length) where.push(`e.event_type = any(${param(filter.type)}::text[])`);
  // metadata times are written by toISOString, so they compare as text (and the index serves it)
  if (filter.from) where.push(`e.metadata->>'time' >= ${param(iso(filter.from))}`);
  if (filter.to) where.push(`e.metadata->>'time' <= ${param(iso(filter.to))}`);
  return { where, values, ip: filter.ip ? plainIp(filter.ip) : null, empty, byTime: !!(filter.from || filter.to), bySubject: !!filter.user };
};

/** Exact up to COUNT_CAP rows, null beyond it or when an ip filter (applied after decryption) is set. */
export const countActivity = async (pool: Pool, f: ResolvedFilter): Promise<number | null> => {
  if (f.empty) return 0;
  if (f.ip) return null;
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from es_events e ${f.where.length ? `where ${f.where.join(' and ')}` : ''} limit ${COUNT_CAP + 1}) s`,
    f.values,
  );
  return rows[0]!.n > COUNT_CAP ? null : rows[0]!.n;
};

const TIME = "e.metadata->>'time'";

/** The cursor of a position named by the caller: in time order it needs the event's time (a 400 when there is no such event). */
export const cursorAt = async (pool: Pool, f: ResolvedFilter, position: number | null): Promise<Cursor | null> => {
  if (position === null) return null;
  if (!f.byTime) return { position, time: null };
  const { rows } = await pool.query<{ time: string | null }>(`select ${TIME} as time from es_events e where e.position = $1`, [position]);
  if (!rows[0]?.time) throw validationError({ 'filter.before': 'validation.invalid' });
  return { position, time: rows[0].time };
};

const cursorOf = (row: { position: number; metadata?: Partial<EventMetadata> | null; time?: string }): Cursor => ({
  position: row.position,
  time: row.time ?? (typeof row.metadata?.time === 'string' ? row.metadata.time : null),
});

/** One page of raw rows after (or before) a cursor, in position order (or time order, see {@link ResolvedFilter.byTime}). */
const readRows = async (
  pool: Pool,
  f: ResolvedFilter,
  cursor: Cursor | null,
  direction: 'asc' | 'desc',
  limit: number,
  upto?: number,
): Promise<EsEventRow[]> => {
  const values = [...f.values];
  const where = [...f.where];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const beyond = direction === 'asc' ? '>' : '<';
  if (cursor !== null) {
    where.push(
      f.byTime && cursor.time !== null
        ? `(${TIME}, e.position) ${beyond} (${param(cursor.time)}, ${param(cursor.position)})`
        : `e.position ${beyond} ${param(cursor.position)}`,
    );
  }
  if (upto !== undefined) where.push(`e.position ${direction === 'asc' ? '<' : '>'} ${param(upto)}`);
  // `+ 0` and `|| ''` hide the ordering from the indexes, see {@link ResolvedFilter.bySubject}
  const [time, position] = f.bySubject ? [`(${TIME} || '')`, '(e.position + 0)'] : [TIME, 'e.position'];
  const order = f.byTime ? `${time} ${direction}, ${position} ${direction}` : `${position} ${direction}`;
  const { rows } = await pool.query<EsEventRow>(
    `select ${COLUMNS} from es_events e ${where.length ? `where ${where.join(' and ')}` : ''} order by ${order} limit ${param(limit)}`,
    values,
  );
  return rows;
};

const SECRET_KEYS = /hash|secret|ciphertext|token|password/i;
/** Credential material never reaches an auditor, even hashed or sealed: secret-shaped keys read as redacted at any depth. */
export const redactSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redactSecrets(v)]));
};

/**
 * What staff see in place of a bearer secret (a share's link id, an upload id): a short
 * fingerprint, enough to tell two apart and to match one a user quotes, never enough to use.
 */
export const secretFingerprint = (value: string): string => `[secret ${createHash('sha256').update(value).digest('hex').slice(0, 8)}]`;

/** Every occurrence of the secret values in a JSON value (as a value, inside a text, or as a key) read as their fingerprint. */
export const hideSecretValues = (value: unknown, secrets: ReadonlySet<string>): unknown => {
  if (secrets.size === 0) return value;
  const text = (s: string) => {
    let out = s;
    for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join(secretFingerprint(secret));
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [text(k), walk(inner)]));
  };
  return walk(value);
};

/** An event's data with its secret fields (and those values anywhere else in it) as fingerprints, and the secret values. */
export const hideSecrets = (definition: EventDefinition | undefined, data: unknown): { data: unknown; secrets: Set<string> } => {
  const hidden = hideSecretFields(definition, data, secretFingerprint);
  const secrets = new Set(hidden.secrets);
  return { data: hideSecretValues(hidden.data, secrets), secrets };
};

interface ActorInfo {
  readonly email: string | null;
  readonly name: string | null;
}

const actorsOf = async (pool: Pool, events: readonly RecordedEvent[]): Promise<Map<string, ActorInfo>> => {
  const ids = [
    ...new Set(
      events.filter((e) => e.metadata?.actorId && e.metadata.actorKind !== 'process' && e.metadata.actorKind !== 'system').map((e) => e.metadata.actorId!),
    ),
  ];
  if (!ids.length) return new Map();
  const { rows } = await pool.query<{ id: string; email: string | null; first_name: string | null; last_name: string | null }>(
    `select id, email, profile->>'firstName' as first_name, profile->>'lastName' as last_name from users where id = any($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { email: r.email, name: [r.first_name, r.last_name].filter(Boolean).join(' ') || null }]));
};

const textOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);

const actorLabel = (metadata: Partial<EventMetadata>, info: ActorInfo | undefined): string => {
  if (metadata.actorKind === 'process') return `process ${metadata.actorId ?? ''}`.trim();
  if (metadata.actorKind === 'system') return 'system';
  if (!metadata.actorId) return metadata.actorKind ?? 'unknown';
  return info?.email ?? info?.name ?? metadata.actorId;
};

/** Rows as the console reads them: sealed personal values opened (or erased), upcast, worded, secrets redacted. */
export const toActivityRows = async (
  ctx: AppContext,
  rows: readonly EsEventRow[],
  locale: ActivityLocale = 'en',
  timeZone?: string,
): Promise<ActivityRow[]> => {
  const recorded: RecordedEvent[] = rows.map(recordedEventOf);
  const opened = ctx.store instanceof PersonalDataEventStore ? await ctx.store.open(recorded) : recorded;
  const actors = await actorsOf(ctx.pool, opened);
  return opened.map((e) => {
    let data: unknown = e.data;
    // an event of a type this server does not know (or data its schema refuses) still reads as stored
    if (ctx.registry.definition(e.type)) {
      try {
        data = ctx.registry.decode(e.type, e.schemaVersion, e.data).data;
      } catch {
        data = e.data;
      }
    }
    // rows written by hand (or by older code) may lack metadata fields: they read as unknown, never fail the page
    const m: Partial<EventMetadata> = e.metadata && typeof e.metadata === 'object' ? e.metadata : {};
    const info = m.actorId ? actors.get(m.actorId) : undefined;
    // bearer secrets (a share's link id, an upload id) never reach staff: their fields, and their values wherever they appear
    const hidden = hideSecrets(ctx.registry.definition(e.type), data);
    data = hidden.data;
    const row: ActivityRow = {
      id: String(e.position),
      position: e.position,
      time: typeof m.time === 'string' ? m.time : e.recordedAt.toISOString(),
      recordedAt: e.recordedAt.toISOString(),
      type: e.type,
      stream: e.streamName,
      revision: e.revision,
      aggregate: aggregateOf(e.streamName)?.kind ?? null,
      actor: { kind: m.actorKind ?? 'unknown', id: textOrNull(m.actorId), email: info?.email ?? null, name: info?.name ?? null, label: actorLabel(m, info) },
      ip: textOrNull(m.ip),
      userAgent: textOrNull(m.userAgent),
      client: textOrNull(m.client),
      correlationId: textOrNull(m.correlationId),
      causationId: textOrNull(m.causationId),
      sentence: describeEvent({ type: e.type, data }, locale, { timeZone }),
      data: redactSecrets(data),
    };
    return hidden.secrets.size ? (hideSecretValues(row, hidden.secrets) as ActivityRow) : row;
  });
};

export interface ActivityPage {
  readonly rows: ActivityRow[];
  /** The cursor for the next page in the same direction, or null at the end. */
  readonly next: number | null;
}

/**
 * One page of the log from a cursor. With an ip filter (the ip is sealed, so it is compared after
 * opening) it reads on until the page is full or IP_SCAN_BUDGET rows were read; `next` then
 * resumes where reading stopped.
 */
export const readActivityPage = async (
  ctx: AppContext,
  f: ResolvedFilter,
  cursor: Cursor | null,
  direction: 'asc' | 'desc',
  limit: number,
  locale: ActivityLocale = 'en',
  timeZone?: string,
): Promise<ActivityPage> => {
  if (f.empty) return { rows: [], next: null };
  if (!f.ip) {
    const raw = await readRows(ctx.pool, f, cursor, direction, limit + 1);
    const more = raw.length > limit;
    const page = raw.slice(0, limit);
    return { rows: await toActivityRows(ctx, page, locale, timeZone), next: more ? page[page.length - 1]!.position : null };
  }
  const found: ActivityRow[] = [];
  let at = cursor;
  let scanned = 0;
  for (;;) {
    const raw = await readRows(ctx.pool, f, at, direction, SCAN_PAGE);
    if (!raw.length) return { rows: found, next: null };
    for (const row of await toActivityRows(ctx, raw, locale, timeZone)) {
      at = cursorOf(row);
      scanned++;
      if (!sameIp(row.ip, f.ip)) continue;
      found.push(row);
      if (found.length === limit) return { rows: found, next: row.position };
    }
    if (raw.length < SCAN_PAGE) return { rows: found, next: null };
    if (scanned >= IP_SCAN_BUDGET) return { rows: found, next: at!.position };
  }
};

/** Every matching row in position order, a page at a time: the export never holds the range in memory. */
export async function* streamActivity(ctx: AppContext, f: ResolvedFilter, locale: ActivityLocale = 'en', timeZone?: string): AsyncGenerator<ActivityRow> {
  if (f.empty) return;
  // the range ends where the log ended when the export began: rows appended meanwhile are not chased
  const head = (await ctx.pool.query<{ p: number | null }>('select max(position) as p from es_events')).rows[0]!.p ?? 0;
  let at: Cursor | null = null;
  for (;;) {
    const raw = await readRows(ctx.pool, f, at, 'asc', SCAN_PAGE, head + 1);
    if (!raw.length) return;
    for (const row of await toActivityRows(ctx, raw, locale, timeZone)) if (!f.ip || sameIp(row.ip, f.ip)) yield row;
    if (raw.length < SCAN_PAGE) return;
    at = cursorOf(raw[raw.length - 1]!);
  }
}

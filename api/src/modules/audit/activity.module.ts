import { Readable } from 'node:stream';
import { CommonErrors, DomainError } from '@axel/domain';
import { type ActivityLocale, activityLocaleOf } from '@axel/domain/audit/describe-event';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import { validationError } from '../../http/errors';
import { findUnsafeValue } from '../../http/input-hygiene';
import { requireStaff } from '../../http/auth';
import { aggregateOf, differences, toJson } from './activity.aggregates';
import { csvHeader, csvLine, jsonLine } from './activity.export';
import {
  activityMigrations,
  countActivity,
  cursorAt,
  readActivityPage,
  hideSecrets,
  hideSecretValues,
  redactSecrets,
  resolveFilter,
  streamActivity,
} from './activity.queries';
import {
  ActivityExportQuerySchema,
  ActivityFilterSchema,
  ActivityListQuerySchema,
  ActivityRowSchema,
  DEFAULT_ACTIVITY_PAGE,
  MAX_ACTIVITY_PAGE,
  StateAnswerSchema,
  StateQuerySchema,
  StreamParams,
  type ActivityFilter,
  type ActivityListQuery,
} from './activity.schema';

const tags = ['admin'];
/** Who reads the activity log and travels in time: the auditor, and the admins who answer for accounts. */
const READERS = new Set(['auditor', 'admin', 'super_admin']);

const requireReader = async (ctx: AppContext, request: FastifyRequest) => {
  const auth = await requireStaff(ctx, request);
  if (!READERS.has(auth.user.role)) throw new DomainError(CommonErrors.forbidden);
  return auth;
};

const parseJson = (value: string | undefined, field: string): unknown => {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw validationError({ [field]: 'validation.invalid' });
  }
};

/** The sentences' language: the `locale` parameter, else the first language of Accept-Language, else English. */
const localeOf = (request: { readonly query: { readonly locale?: string }; readonly headers: FastifyRequest['headers'] }): ActivityLocale => {
  if (request.query.locale) return activityLocaleOf(request.query.locale);
  const accepted = String(request.headers['accept-language'] ?? '')
    .slice(0, 200)
    .split(',')[0]
    ?.split(';')[0];
  return activityLocaleOf(accepted);
};

const FILTER_KEYS = ['user', 'actor', 'aggregate', 'item', 'type', 'ip', 'from', 'to', 'before', 'after'] as const;

/** The filter of `filter={...}` (react-admin) merged with plain query parameters, validated as one. */
const filterOf = (q: ActivityListQuery): ActivityFilter => {
  const json = parseJson(q.filter, 'filter') ?? {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw validationError({ filter: 'validation.invalid' });
  const plain = Object.fromEntries(FILTER_KEYS.filter((k) => q[k] !== undefined && q[k] !== '').map((k) => [k, q[k]]));
  // react-admin sends cleared inputs as empty strings
  const merged = Object.fromEntries(Object.entries({ ...json, ...plain }).filter(([, v]) => v !== '' && v !== null));
  const unsafe = findUnsafeValue(merged, 'filter');
  if (unsafe !== null) throw validationError({ [unsafe]: 'validation.invalid' });
  const parsed = ActivityFilterSchema.safeParse(merged);
  if (!parsed.success) {
    throw validationError(Object.fromEntries(parsed.error.issues.map((i) => [`filter.${i.path.join('.') || 'filter'}`, 'validation.invalid'])));
  }
  if (parsed.data.before !== undefined && parsed.data.after !== undefined) throw validationError({ 'filter.after': 'validation.invalid' });
  return parsed.data;
};

/** The page size from `range=[a,b]` or `perPage`; the cursor, not the range's start, says where the page begins. */
const pageSizeOf = (q: ActivityListQuery): number => {
  const range = parseJson(q.range, 'range');
  if (Array.isArray(range) && range.length === 2 && range.every((n) => Number.isSafeInteger(n) && n >= 0) && range[1] >= range[0]) {
    return Math.min(range[1] - range[0] + 1, MAX_ACTIVITY_PAGE);
  }
  if (range !== undefined) throw validationError({ range: 'validation.invalid' });
  return q.perPage ?? DEFAULT_ACTIVITY_PAGE;
};

/** Newest first unless `sort=["position","ASC"]` (or `time`, the same order). */
const directionOf = (q: ActivityListQuery, filter: ActivityFilter): 'asc' | 'desc' => {
  if (filter.after !== undefined) return 'asc';
  if (filter.before !== undefined) return 'desc';
  const sort = parseJson(q.sort, 'sort');
  return Array.isArray(sort) && String(sort[1]).toUpperCase() === 'ASC' ? 'asc' : 'desc';
};

const postgresOnly = () =>
  new DomainError({ code: 'AUDIT_UNAVAILABLE', status: 501, message: 'The activity log is read from the PostgreSQL event store only' });

export const activityModule: Module = {
  name: 'activity',
  migrations: activityMigrations,
  routes: (ctx: AppContext) => async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/admin/activity',
      {
        schema: {
          tags,
          summary: 'The activity log: every event with who, when, from where, and a sentence; filtered, newest first, paged by global position',
          description:
            'Filters (in `filter` JSON or as query parameters): user, actor, aggregate, item, type, ip, from, to. Paging is a keyset: pass the `X-Activity-Next` of an answer as `before` (or `after` when reading oldest first).',
          querystring: ActivityListQuerySchema,
          response: { 200: z.array(ActivityRowSchema) },
        },
      },
      async (request, reply) => {
        await requireReader(ctx, request);
        if (ctx.adapters.eventStore !== 'postgres') throw postgresOnly();
        const filter = filterOf(request.query);
        const limit = pageSizeOf(request.query);
        const direction = directionOf(request.query, filter);
        const resolved = await resolveFilter(ctx.pool, filter);
        // the total counts the whole filtered range, the cursor aside
        const cursor = await cursorAt(ctx.pool, resolved, filter.after ?? filter.before ?? null);
        const [page, total] = await Promise.all([
          readActivityPage(ctx, resolved, cursor, direction, limit, localeOf(request), request.query.timeZone),
          countActivity(ctx.pool, resolved),
        ]);
        reply.header('content-range', `activity 0-${Math.max(page.rows.length - 1, 0)}/${total ?? '*'}`);
        reply.header('access-control-expose-headers', 'Content-Range, X-Activity-Next');
        if (page.next !== null) reply.header('x-activity-next', String(page.next));
        return page.rows;
      },
    );

    app.get(
      '/api/admin/activity/export',
      {
        schema: {
          tags,
          summary: 'The filtered activity log as CSV or JSON Lines, oldest first, streamed',
          querystring: ActivityExportQuerySchema,
        },
      },
      async (request, reply) => {
        await requireReader(ctx, request);
        if (ctx.adapters.eventStore !== 'postgres') throw postgresOnly();
        const { format } = request.query;
        const resolved = await resolveFilter(ctx.pool, { ...filterOf(request.query), before: undefined, after: undefined });
        const stamp = ctx.now().toISOString().replace(/[:.]/g, '-');
        async function* lines() {
          if (format === 'csv') yield csvHeader();
          for await (const row of streamActivity(ctx, resolved, localeOf(request), request.query.timeZone))
            yield format === 'csv' ? csvLine(row) : jsonLine(row);
        }
        return reply
          .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="axel-activity-${stamp}.${format}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(lines()));
      },
    );

    app.get(
      '/api/admin/aggregates/:stream/state',
      {
        schema: {
          tags,
          summary: "Time travel: an aggregate's state as of an instant, rebuilt with the domain's own evolve, beside today's",
          params: StreamParams,
          querystring: StateQuerySchema,
          response: { 200: StateAnswerSchema },
        },
      },
      async (request) => {
        await requireReader(ctx, request);
        const { stream } = request.params;
        const aggregate = aggregateOf(stream);
        if (!aggregate) throw new DomainError(CommonErrors.notFound, { reason: 'unknown_aggregate' }, 'Time travel does not know this kind of stream');
        const { events } = await ctx.store.readStream(stream);
        if (!events.length) throw new DomainError(CommonErrors.notFound);
        const at = new Date(request.query.at).toISOString();
        const { fold } = aggregate;
        const decoded = events.map((recorded) => {
          try {
            return ctx.registry.decode(recorded.type, recorded.schemaVersion, recorded.data);
          } catch {
            // data its schema no longer accepts is folded as stored: evolve ignores what it does not know
            return { type: recorded.type, data: recorded.data };
          }
        });
        // the stream up to the instant: the first event after it ends the past
        let past = events.findIndex((recorded) => (recorded.metadata.time ?? recorded.recordedAt.toISOString()) > at);
        if (past === -1) past = events.length;
        // two folds from two fresh states: some evolves (the storage's) update their tables in place
        const state = decoded.slice(0, past).reduce(fold.evolve, fold.initialState());
        const today = decoded.reduce(fold.evolve, fold.initialState());
        const revisionAt = past === 0 ? -1 : events[past - 1]!.revision;
        // the stream's bearer secrets (link ids, upload ids), wherever the folded state keeps them
        const secrets = new Set<string>();
        events.forEach((recorded, i) => {
          for (const secret of hideSecrets(ctx.registry.definition(recorded.type), decoded[i]!.data).secrets) secrets.add(secret);
        });
        const stateJson = hideSecretValues(redactSecrets(toJson(state)), secrets);
        const todayJson = hideSecretValues(redactSecrets(toJson(today)), secrets);
        return {
          stream,
          aggregate: aggregate.kind,
          at,
          revisionAt,
          revisionToday: events[events.length - 1]!.revision,
          state: stateJson,
          today: todayJson,
          differences: differences(stateJson, todayJson),
        };
      },
    );
  },
};

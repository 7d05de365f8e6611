import { CommonErrors, DomainError } from '@axel/domain';
import {
  createProcessCatalog,
  defaultProcessSettings,
  EmbeddedProcessRuntime,
  TemporalProcessRuntime,
  workflowMigrations,
  type ProcessRuntime,
  type ProcessSummary,
} from '@axel/workflows';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth';
import { createDispatcher, type DispatcherDeps } from './dispatcher';

const tags = ['admin'];

const ProcessSchema = z.object({
  id: z.string(),
  type: z.string(),
  processId: z.string(),
  status: z.string(),
  state: z.unknown(),
  nextTimerAt: z.string().nullable(),
  pendingCommands: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

const toRecord = (p: ProcessSummary) => ({
  id: `${p.processType}:${p.processId}`,
  type: p.processType,
  processId: p.processId,
  status: p.status,
  state: p.state,
  nextTimerAt: p.nextTimer?.at ?? null,
  pendingCommands: p.pendingCommands,
  lastError: p.lastError,
  lastErrorAt: p.lastErrorAt,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const PROCESS_TYPES = new Set(createProcessCatalog(defaultProcessSettings).map((d) => d.type));

/** `<processType>:<processId>`: the type never holds a colon, the id may. An unknown type is no process. */
const parseId = (id: string) => {
  const colon = id.indexOf(':');
  if (colon <= 0 || !PROCESS_TYPES.has(id.slice(0, colon))) throw new DomainError(CommonErrors.notFound);
  return { processType: id.slice(0, colon), processId: id.slice(colon + 1) };
};

/**
 * Long-lived processes: the embedded runtime by default, Temporal with TEMPORAL_ADDRESS. Every
 * process role can list and retry; only the worker role runs them.
 */
export const createProcessesModule = (deps: DispatcherDeps): Module & { runtime(): ProcessRuntime | undefined; health(): Promise<unknown> } => {
  let runtime: ProcessRuntime | undefined;
  let running = false;

  const build = (ctx: AppContext): ProcessRuntime => {
    if (runtime) return runtime;
    const dispatcher = createDispatcher(ctx, deps);
    const settings = { accountRetentionDays: ctx.config.ACCOUNT_RETENTION_DAYS };
    runtime = ctx.config.TEMPORAL_ADDRESS
      ? new TemporalProcessRuntime({
          address: ctx.config.TEMPORAL_ADDRESS,
          namespace: ctx.config.TEMPORAL_NAMESPACE,
          store: ctx.store,
          pool: ctx.pool,
          dispatcher,
          registry: ctx.registry,
          settings,
        })
      : new EmbeddedProcessRuntime({
          pool: ctx.pool,
          connectionString: ctx.databaseUrl,
          store: ctx.store,
          registry: ctx.registry,
          definitions: createProcessCatalog(settings),
          dispatcher,
          clock: { now: ctx.now },
          logger: {
            info: (message, meta) => ctx.log.info({ component: 'processes', ...meta }, message),
            warn: (message, meta) => ctx.log.warn({ component: 'processes', ...meta }, message),
            error: (message, meta) => ctx.log.error({ component: 'processes', ...meta }, message),
          },
        });
    return runtime;
  };

  /** Temporal is read through its client, which only a worker-role process connects. */
  const readable = (ctx: AppContext): ProcessRuntime => {
    const rt = build(ctx);
    if (rt.kind === 'temporal' && !running) {
      throw new DomainError({ code: 'PROCESSES_IN_TEMPORAL', status: 501, message: 'Processes run on Temporal: see them in the Temporal web UI' });
    }
    return rt;
  };

  const routes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/admin/processes',
      {
        schema: {
          tags,
          summary: 'Long-lived processes: state, next timer, last error',
          querystring: z.object({
            status: z.enum(['running', 'completed', 'dead_letter']).optional(),
            limit: z.coerce.number().int().min(1).max(1000).default(200),
          }),
          response: { 200: z.array(ProcessSchema) },
        },
      },
      async (request) => {
        await requireStaff(ctx, request);
        const list = await readable(ctx).listProcesses({ status: request.query.status, limit: request.query.limit });
        return list.map(toRecord);
      },
    );
    app.get(
      '/api/admin/processes/:id',
      {
        schema: {
          tags,
          summary: 'One process with its history (embedded runtime; Temporal keeps it in its own UI)',
          params: z.object({ id: z.string().max(300) }),
          response: { 200: ProcessSchema.extend({ history: z.array(z.unknown()).nullable() }) },
        },
      },
      async (request) => {
        await requireStaff(ctx, request);
        const { processType, processId } = parseId(request.params.id);
        const rt = readable(ctx);
        const found = await rt.getProcess(processType, processId);
        if (!found) throw new DomainError(CommonErrors.notFound);
        const history = rt instanceof EmbeddedProcessRuntime ? await rt.history(processType, processId) : null;
        return { ...toRecord(found), history };
      },
    );
    app.post(
      '/api/admin/processes/:id/retry',
      { schema: { tags, summary: 'Run a dead-lettered process again', params: z.object({ id: z.string().max(300) }) } },
      async (request, reply) => {
        await requireStaff(ctx, request);
        const { processType, processId } = parseId(request.params.id);
        const retried = await readable(ctx).retry(processType, processId);
        if (!retried) throw new DomainError(CommonErrors.conflict, undefined, 'This process is not dead-lettered');
        return reply.status(202).send();
      },
    );
  };

  return {
    name: 'processes',
    migrations: workflowMigrations,
    routes,
    runtime: () => runtime,
    async start(ctx, roles) {
      const rt = build(ctx);
      if (!roles.has('worker')) return;
      // with Temporal, start() also runs this process's worker and the event-to-signal starter
      await rt.start();
      running = true;
    },
    async stop() {
      if (running) await runtime?.stop();
      running = false;
    },
    async health() {
      if (runtime instanceof EmbeddedProcessRuntime) return { runtime: 'embedded', active: running, ...(await runtime.stats()) };
      return { runtime: runtime?.kind ?? 'none', active: running };
    },
  };
};

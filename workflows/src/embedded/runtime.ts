import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { EventRegistry } from '@axel/domain';
import { closePool, DurableSubscription, trackConnections, withTransaction, type EventStore, type RecordedEvent } from '@axel/platform';
import { EventRouter, readProcessCheckpoint } from '../runtime/event-routing';
import { Logger, run, type Runner, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { earliestTimer, step, type Delivery, type ProcessDefinition, type ProcessInstance } from '../model/process';
import { ControlledClock, systemClock, type Clock } from '../runtime/clock';
import {
  ProcessNotFoundError,
  isPermanentDispatchError,
  type CommandDispatcher,
  type ListProcessesOptions,
  type ProcessHistoryEntry,
  type ProcessRuntime,
  type ProcessStatus,
  type ProcessSummary,
  type RuntimeLogger,
  type SignalOptions,
} from '../runtime/port';
import { ProcessAdminQueries } from './runtime.admin';
import { errorMessage, ProcessJobs, TASKS, timerJobKey, type DeliverOutcome } from './runtime.jobs';
import { insertCommands, lockProcess, recordInput, type ProcessRow } from './runtime.store';

export type { RuntimeLogger } from '../runtime/port';

const consoleLogger: RuntimeLogger = {
  warn: (message, meta) => console.warn(`[processes] ${message}`, meta ?? ''),
  error: (message, meta) => console.error(`[processes] ${message}`, meta ?? ''),
};

export interface EmbeddedRuntimeOptions {
  /** Pool on the application database (runtime tables, event store in the same database). */
  readonly pool: pg.Pool;
  /** Same database: graphile-worker gets its own small pool and LISTEN connection from it. */
  readonly connectionString: string;
  readonly store: EventStore;
  readonly definitions: readonly ProcessDefinition<any, any>[];
  readonly dispatcher: CommandDispatcher;
  /** When given, events are decoded (upcast to their newest version) before processes see them. */
  readonly registry?: EventRegistry;
  readonly clock?: Clock;
  /** Jobs (timers, dispatches) run at once. Default 8. */
  readonly concurrency?: number;
  /** How often idle workers look for jobs that became due (ms). Default 100. */
  readonly pollInterval?: number;
  /** Dispatch attempts (graphile-worker `max_attempts`, exponential backoff) before dead letter. Default 10. */
  readonly maxAttempts?: number;
  /** Errors for which retrying cannot help: the process is dead-lettered at once. */
  readonly isPermanentError?: (error: unknown) => boolean;
  /** Name of the event-store checkpoint. Default 'processes'. */
  readonly checkpointName?: string;
  /** Where a database without a checkpoint starts reading. Default: the beginning of the log. */
  readonly startFrom?: 'beginning' | 'end';
  /** Jobs locked by an instance without a heartbeat for this long are released. Default 30 s. */
  readonly staleNodeAfterMs?: number;
  readonly logger?: RuntimeLogger;
}

/**
 * The default process runtime: state, inputs and the command outbox in PostgreSQL tables, timers
 * and retries as graphile-worker jobs (each timer a job with a `runAt` and a `jobKey`, so it is
 * scheduled once and replaced, not duplicated, when set again).
 *
 * Every input (an event from the store subscription, a signal, a timer) is applied in one
 * transaction that locks the process row: new state, new timers (jobs added in the same
 * transaction), the commands to send (outbox rows) and, for events, the subscription checkpoint.
 * A drain job then dispatches the outbox in order; a failure is retried by graphile-worker with
 * exponential backoff and after `maxAttempts` the process is `dead_letter` until `retry`.
 */
export class EmbeddedProcessRuntime implements ProcessRuntime {
  readonly kind = 'embedded' as const;
  readonly clock: Clock;
  private readonly definitions = new Map<string, ProcessDefinition<any, any>>();
  private readonly router: EventRouter;
  private readonly pool: pg.Pool;
  private readonly log: RuntimeLogger;
  private readonly concurrency: number;
  private readonly pollInterval: number;
  private readonly checkpointName: string;
  private readonly staleAfterMs: number;
  private readonly jobs: ProcessJobs;
  private readonly admin: ProcessAdminQueries;
  private readonly nodeId = randomUUID();
  private readonly workerIds = new Set<string>();
  private graphilePool: pg.Pool | undefined;
  private runner: Runner | undefined;
  private subscription: DurableSubscription | undefined;
  private caughtUp = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';

  constructor(private readonly options: EmbeddedRuntimeOptions) {
    this.pool = options.pool;
    this.clock = options.clock ?? systemClock;
    this.log = options.logger ?? consoleLogger;
    this.concurrency = options.concurrency ?? 8;
    this.pollInterval = options.pollInterval ?? 100;
    this.checkpointName = options.checkpointName ?? 'processes';
    this.staleAfterMs = options.staleNodeAfterMs ?? 30_000;
    for (const definition of options.definitions) {
      if (this.definitions.has(definition.type)) throw new Error(`Process type ${definition.type} defined twice`);
      this.definitions.set(definition.type, definition);
    }
    this.router = new EventRouter(options.definitions, options.registry, (definition, event, error) =>
      this.log.error(`${definition.type}.correlate failed; event skipped`, { eventId: event.id, error: errorMessage(error) }),
    );
    this.jobs = new ProcessJobs({
      pool: this.pool,
      clock: this.clock,
      log: this.log,
      dispatcher: options.dispatcher,
      definitions: this.definitions,
      maxAttempts: options.maxAttempts ?? 10,
      isPermanent: options.isPermanentError ?? isPermanentDispatchError,
      applyToRow: (...args) => this.applyToRow(...args),
    });
    this.admin = new ProcessAdminQueries(this.pool, this.checkpointName);
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('The process runtime starts once');
    this.state = 'started';
    const graphilePool = trackConnections(
      new pg.Pool({
        connectionString: this.options.connectionString,
        max: this.concurrency + 4,
        application_name: 'axel-processes',
      }),
    );
    graphilePool.on('error', () => undefined);
    this.graphilePool = graphilePool;
    const events = new EventEmitter() as WorkerEvents;
    events.on('worker:create', ({ worker }) => {
      this.workerIds.add(worker.workerId);
      void this.beat().catch(() => undefined);
    });
    await this.pool.query('insert into wf_nodes (node_id) values ($1) on conflict do nothing', [this.nodeId]);
    this.runner = await run({
      pgPool: graphilePool,
      taskList: this.jobs.taskList(),
      concurrency: this.concurrency,
      pollInterval: this.pollInterval,
      noHandleSignals: true,
      crontab: '',
      events,
      logger: this.graphileLogger(),
    });
    await this.beat();
    await this.releaseStaleLocks();
    const every = Math.max(200, Math.min(5_000, Math.floor(this.staleAfterMs / 3)));
    this.heartbeat = setInterval(() => {
      void this.beat()
        .then(() => this.releaseStaleLocks())
        .catch((error) => this.log.warn('heartbeat failed', { error: errorMessage(error) }));
    }, every);
    this.heartbeat.unref();
    await this.subscribe();
  }

  async stop(): Promise<void> {
    if (this.state !== 'started') return;
    this.state = 'stopping';
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.subscription?.stop();
    await this.runner?.stop();
    await this.pool.query('delete from wf_nodes where node_id = $1', [this.nodeId]).catch(() => undefined);
    // every connection closed, not only handed back: PostgreSQL may stop right after this
    if (this.graphilePool) await closePool(this.graphilePool).catch(() => undefined);
    this.state = 'stopped';
  }

  private graphileLogger(): Logger {
    // a failed attempt is logged by graphile-worker as an error; for processes it is a retry
    return new Logger(() => (level, message, meta) => {
      if (level === 'error' || level === 'warning') this.log.warn(message, meta as Record<string, unknown>);
    });
  }

  private async beat(): Promise<void> {
    await this.pool.query('update wf_nodes set heartbeat_at = clock_timestamp(), worker_ids = $2 where node_id = $1', [this.nodeId, [...this.workerIds]]);
  }

  /**
   * graphile-worker keeps a job locked by a worker that died (SIGKILL, power loss) for 4 hours.
   * Instances record their worker ids with a heartbeat: a lock held by a worker that no live
   * instance owns, for longer than the stale period, is released and the job runs again.
   */
  private async releaseStaleLocks(): Promise<void> {
    await this.pool.query(
      `select graphile_worker.force_unlock_workers(array(
         select distinct j.locked_by from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = any($2::text[])
         where j.locked_by is not null
           and j.locked_at < now() - $1::double precision * interval '1 millisecond'
           and not exists (
             select 1 from wf_nodes n
             where n.heartbeat_at > now() - $1::double precision * interval '1 millisecond'
               and j.locked_by = any(n.worker_ids))))`,
      [this.staleAfterMs, TASKS],
    );
    await this.pool.query("delete from wf_nodes where heartbeat_at < now() - $1::double precision * interval '1 millisecond' - interval '1 hour'", [
      this.staleAfterMs,
    ]);
  }

  // ---- the event-store subscription -------------------------------------------------------------

  private async subscribe(): Promise<void> {
    const types = this.router.types;
    if (!types.length || this.state !== 'started') return;
    this.subscription = new DurableSubscription({
      store: this.options.store,
      from: () => {
        this.caughtUp = false;
        return this.readCheckpoint();
      },
      types,
      handler: {
        onBatch: (events, checkpoint) => this.onBatch(events, checkpoint),
        onCaughtUp: () => {
          this.caughtUp = true;
        },
      },
      onError: (error) => this.log.error('process subscription failed; resubscribing from the checkpoint', { error: errorMessage(error) }),
    });
    await this.subscription.start();
  }

  private readCheckpoint(): Promise<number> {
    return readProcessCheckpoint(this.pool, this.options.store, this.checkpointName, this.options.startFrom);
  }

  /**
   * One transaction per page: every process input of the page and the checkpoint. The checkpoint
   * row is locked first, so several instances never apply the same page twice.
   */
  private async onBatch(events: RecordedEvent[], checkpoint: number): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ position: string }>('select position from wf_checkpoints where name = $1 for update', [this.checkpointName]);
      const stored = Number(rows[0]?.position ?? 0);
      for (const recorded of events) {
        if (recorded.position <= stored) continue;
        for (const { definition, processId, event } of this.router.route(recorded)) {
          await this.deliver(
            client,
            definition,
            processId,
            { input: { kind: 'event', event }, inputId: event.id, causationId: event.id },
            { create: definition.startsOn.includes(event.type), correlationId: event.correlationId },
          );
        }
      }
      if (checkpoint > stored) {
        await client.query('update wf_checkpoints set position = $2, updated_at = clock_timestamp() where name = $1', [this.checkpointName, checkpoint]);
      }
    });
  }

  // ---- applying inputs ------------------------------------------------------------------------

  private requireDefinition(processType: string): ProcessDefinition<any, any> {
    const definition = this.definitions.get(processType);
    if (!definition) throw new Error(`Unknown process type ${processType}`);
    return definition;
  }

  /** Applies one input inside the caller's transaction. */
  private async deliver(
    client: pg.PoolClient,
    definition: ProcessDefinition<any, any>,
    processId: string,
    delivery: Delivery,
    options: { create?: boolean; correlationId?: string | null } = {},
  ): Promise<DeliverOutcome> {
    const ref = { processType: definition.type, processId };
    if (options.create) {
      await client.query(
        `insert into wf_processes (process_type, process_id, status, state, correlation_id)
         values ($1, $2, 'running', $3::jsonb, $4) on conflict do nothing`,
        [ref.processType, ref.processId, JSON.stringify(definition.initialState() ?? null), options.correlationId ?? null],
      );
    }
    const row = await lockProcess(client, ref);
    if (!row) return 'no_process';
    return this.applyToRow(client, definition, row, delivery);
  }

  /**
   * The heart of the runtime: pure `step`, then everything it decided written in the caller's
   * transaction. `existingSeq` is set when a parked input is applied on retry.
   */
  private async applyToRow(
    client: pg.PoolClient,
    definition: ProcessDefinition<any, any>,
    row: ProcessRow,
    delivery: Delivery,
    existingSeq?: number,
    drainInline = false,
  ): Promise<DeliverOutcome> {
    const ref = { processType: row.process_type, processId: row.process_id };
    if (row.status === 'dead_letter') {
      return (await recordInput(client, ref, delivery, 'parked', existingSeq)) ? 'parked' : 'duplicate';
    }
    const instance: ProcessInstance = { state: row.state, timers: row.timers, done: row.done, inputs: row.inputs };
    let outcome: ReturnType<typeof step>;
    try {
      outcome = step(definition, ref, instance, delivery, this.clock.now());
    } catch (error) {
      if (!(await recordInput(client, ref, delivery, 'parked', existingSeq))) return 'duplicate';
      await client.query(
        `update wf_processes set status = 'dead_letter', failing = false, last_error = $3, last_error_at = clock_timestamp(),
           updated_at = clock_timestamp() where process_type = $1 and process_id = $2`,
        [ref.processType, ref.processId, `react failed: ${errorMessage(error)}`],
      );
      this.log.error(`${ref.processType} ${ref.processId} dead-lettered: react failed`, { error: errorMessage(error) });
      return 'dead_letter';
    }
    if (outcome.kind === 'ignored') {
      return (await recordInput(client, ref, delivery, 'ignored', existingSeq)) ? 'ignored' : 'duplicate';
    }
    if (!(await recordInput(client, ref, delivery, 'applied', existingSeq))) return 'duplicate';

    const next = outcome.instance;
    const nextTimer = earliestTimer(next);
    let status: ProcessStatus = 'running';
    if (next.done && outcome.commands.length === 0) {
      const { rows } = await client.query('select 1 from wf_commands where process_type = $1 and process_id = $2 and dispatched_at is null limit 1', [
        ref.processType,
        ref.processId,
      ]);
      if (!rows.length) status = 'completed';
    }
    await client.query(
      `update wf_processes set state = $3::jsonb, timers = $4::jsonb, done = $5, inputs = $6, next_timer_at = $7,
         status = $8, updated_at = clock_timestamp(),
         completed_at = case when $8 = 'completed' then clock_timestamp() else null end
       where process_type = $1 and process_id = $2`,
      [
        ref.processType,
        ref.processId,
        JSON.stringify(next.state ?? null),
        JSON.stringify(next.timers),
        next.done,
        next.inputs,
        nextTimer ? nextTimer.at : null,
        status,
      ],
    );
    if (outcome.commands.length) await insertCommands(client, ref, row.correlation_id, outcome.commands);
    for (const name of outcome.timersCancelled) {
      await client.query('select graphile_worker.remove_job($1)', [timerJobKey(ref, name)]);
    }
    for (const timer of outcome.timersSet) await this.jobs.scheduleTimer(client, ref, timer.name, timer);
    if (outcome.commands.length && !row.failing) {
      // a drain job is the usual carrier; the timer job drains itself right after its commit
      if (drainInline) return 'applied_drain_inline';
      await this.jobs.scheduleDrain(client, ref);
    }
    return 'applied';
  }

  // ---- public operations ----------------------------------------------------------------------

  async signal(processType: string, processId: string, name: string, payload: unknown = null, options: SignalOptions = {}): Promise<void> {
    const definition = this.requireDefinition(processType);
    const delivery: Delivery = {
      input: { kind: 'signal', name, payload },
      inputId: `signal:${options.signalId ?? randomUUID()}`,
      causationId: options.causationId ?? null,
    };
    const outcome = await withTransaction(this.pool, (client) => this.deliver(client, definition, processId, delivery));
    if (outcome === 'no_process') throw new ProcessNotFoundError(processType, processId);
  }

  async retry(processType: string, processId: string): Promise<boolean> {
    const definition = this.requireDefinition(processType);
    const ref = { processType, processId };
    return withTransaction(this.pool, async (client) => {
      const row = await lockProcess(client, ref);
      if (!row || row.status !== 'dead_letter') return false;
      await client.query(
        `update wf_processes set status = 'running', failing = false, last_error = null, last_error_at = null,
           updated_at = clock_timestamp() where process_type = $1 and process_id = $2`,
        [processType, processId],
      );
      const { rows: parked } = await client.query<{ seq: string; delivery: Delivery }>(
        `select seq, delivery from wf_inputs where process_type = $1 and process_id = $2 and outcome = 'parked' order by seq`,
        [processType, processId],
      );
      for (const input of parked) {
        const current = (await lockProcess(client, ref))!;
        const outcome = await this.applyToRow(client, definition, current, input.delivery, Number(input.seq));
        if (outcome === 'dead_letter') return true;
      }
      const { rows: pending } = await client.query('select 1 from wf_commands where process_type = $1 and process_id = $2 and dispatched_at is null limit 1', [
        processType,
        processId,
      ]);
      if (pending.length) {
        await this.jobs.scheduleDrain(client, ref);
      } else {
        await client.query(
          `update wf_processes set status = case when done then 'completed' else 'running' end,
             completed_at = case when done then coalesce(completed_at, clock_timestamp()) else null end
           where process_type = $1 and process_id = $2`,
          [processType, processId],
        );
      }
      return true;
    });
  }

  listProcesses(options: ListProcessesOptions = {}): Promise<ProcessSummary[]> {
    return this.admin.listProcesses(options);
  }

  getProcess(processType: string, processId: string): Promise<ProcessSummary | null> {
    return this.admin.getProcess(processType, processId);
  }

  /** Every input the process received, in order, with the commands each one produced. */
  history(processType: string, processId: string): Promise<ProcessHistoryEntry[]> {
    return this.admin.history(processType, processId);
  }

  /** For `/api/health`: how many processes in each status, and the next timer. */
  async stats(): Promise<{ running: number; completed: number; deadLetter: number; nextTimerAt: string | null; checkpoint: number | null; caughtUp: boolean }> {
    return { ...(await this.admin.stats()), caughtUp: this.caughtUp };
  }

  // ---- test support ---------------------------------------------------------------------------

  /**
   * Moves a `ControlledClock` to `to` and makes every timer due by then run now: a process that
   * waits 90 days completes as soon as a test advances the clock past its timer.
   */
  async advanceTo(to: Date): Promise<number> {
    if (!(this.clock instanceof ControlledClock)) throw new Error('advanceTo needs the runtime to use a ControlledClock');
    this.clock.set(to);
    return this.fireDueTimers(to);
  }

  /**
   * Makes every timer due by `asOf` (the runtime's clock by default) run now. Needed when the clock
   * jumps (a test clock moved by hand): the jobs were scheduled for the real time.
   */
  fireDueTimers(asOf: Date = this.clock.now()): Promise<number> {
    return this.jobs.fireDueTimers(asOf);
  }

  /**
   * Resolves once the subscription has applied every event stored when it was called, and no
   * timer is due and no command waits (dead-lettered processes aside).
   */
  async whenIdle(options: { timeoutMs?: number; pollMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    const head = await this.options.store.headPosition();
    for (;;) {
      const { rows } = await this.pool.query<{ checkpoint: string | null; due: string; pending: string; locked: string }>(
        `select (select position from wf_checkpoints where name = $1) as checkpoint,
                (select count(*) from wf_processes where status = 'running' and next_timer_at <= $2) as due,
                (select count(*) from wf_commands c join wf_processes p using (process_type, process_id)
                  where c.dispatched_at is null and p.status <> 'dead_letter') as pending,
                (select count(*) from graphile_worker._private_jobs j
                  join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = any($3::text[])
                  where j.locked_at is not null or (j.run_at <= now() and j.attempts < j.max_attempts)) as locked`,
        [this.checkpointName, this.clock.now(), TASKS],
      );
      const r = rows[0]!;
      const eventsDone = !this.router.types.length || Number(r.checkpoint ?? 0) >= head;
      if (eventsDone && Number(r.due) === 0 && Number(r.pending) === 0 && Number(r.locked) === 0) return;
      if (Date.now() > deadline) {
        throw new Error(
          `processes not idle: checkpoint ${r.checkpoint}/${head}, ${r.due} timers due, ${r.pending} commands pending, ${r.locked} jobs runnable`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 25));
    }
  }
}

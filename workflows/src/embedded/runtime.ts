import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { EventRegistry } from '@axel/domain';
import { closePool, DurableSubscription, trackConnections, withTransaction, type EventStore, type RecordedEvent } from '@axel/platform';
import { EventRouter, readProcessCheckpoint } from '../runtime/event-routing';
import { Logger, run, type JobHelpers, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import {
  earliestTimer,
  step,
  timerDelivery,
  type Delivery,
  type PendingTimer,
  type PlannedCommand,
  type ProcessCommand,
  type ProcessDefinition,
  type ProcessInstance,
  type ProcessRef,
} from '../model/process';
import { ControlledClock, systemClock, type Clock } from '../runtime/clock';
import {
  ProcessNotFoundError,
  isPermanentDispatchError,
  processDispatchContext,
  type CommandDispatcher,
  type DispatchContext,
  type ListProcessesOptions,
  type ProcessHistoryEntry,
  type ProcessRuntime,
  type ProcessStatus,
  type ProcessSummary,
  type SignalOptions,
} from '../runtime/port';

export const TIMER_TASK = 'axel_process_timer';
export const DRAIN_TASK = 'axel_process_drain';
const TASKS = [TIMER_TASK, DRAIN_TASK];
/** First key of the advisory lock that serialises the dispatch of one process's commands. */
const DRAIN_LOCK_SPACE = 7_310_404;
/** graphile-worker's first backoff step (exp(1) s), for a failure met while a timer job drained. */
const FIRST_RETRY_DELAY_MS = Math.round(Math.E * 1000);

export interface RuntimeLogger {
  info?(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

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

interface ProcessRow {
  process_type: string;
  process_id: string;
  status: ProcessStatus;
  state: unknown;
  timers: Record<string, PendingTimer>;
  done: boolean;
  inputs: number;
  failing: boolean;
  correlation_id: string | null;
}

type DeliverOutcome = 'applied' | 'applied_drain_inline' | 'ignored' | 'parked' | 'dead_letter' | 'duplicate' | 'no_process';

const ROW_COLUMNS = 'process_type, process_id, status, state, timers, done, inputs, failing, correlation_id';

const timerJobKey = (ref: ProcessRef, name: string) => `process-timer:${ref.processType}:${ref.processId}:${name}`;
const drainJobKey = (ref: ProcessRef) => `process-drain:${ref.processType}:${ref.processId}`;

const errorMessage = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

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
  private readonly maxAttempts: number;
  private readonly checkpointName: string;
  private readonly staleAfterMs: number;
  private readonly isPermanent: (error: unknown) => boolean;
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
    this.maxAttempts = options.maxAttempts ?? 10;
    this.checkpointName = options.checkpointName ?? 'processes';
    this.staleAfterMs = options.staleNodeAfterMs ?? 30_000;
    this.isPermanent = options.isPermanentError ?? isPermanentDispatchError;
    for (const definition of options.definitions) {
      if (this.definitions.has(definition.type)) throw new Error(`Process type ${definition.type} defined twice`);
      this.definitions.set(definition.type, definition);
    }
    this.router = new EventRouter(options.definitions, options.registry, (definition, event, error) =>
      this.log.error(`${definition.type}.correlate failed; event skipped`, { eventId: event.id, error: errorMessage(error) }),
    );
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
      taskList: this.taskList(),
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

  private taskList(): TaskList {
    return {
      [TIMER_TASK]: async (payload, helpers) => this.fireTimer(payload as TimerPayload, helpers),
      [DRAIN_TASK]: async (payload, helpers) => this.drain(payload as ProcessRef, helpers),
    };
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

  private async lockProcess(client: pg.PoolClient, ref: ProcessRef): Promise<ProcessRow | undefined> {
    const { rows } = await client.query<ProcessRow>(`select ${ROW_COLUMNS} from wf_processes where process_type = $1 and process_id = $2 for update`, [
      ref.processType,
      ref.processId,
    ]);
    return rows[0];
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
    const row = await this.lockProcess(client, ref);
    if (!row) return 'no_process';
    return this.applyToRow(client, definition, row, delivery);
  }

  private async recordInput(
    client: pg.PoolClient,
    ref: ProcessRef,
    delivery: Delivery,
    outcome: 'applied' | 'ignored' | 'parked',
    existingSeq: number | undefined,
  ): Promise<boolean> {
    if (existingSeq !== undefined) {
      await client.query('update wf_inputs set outcome = $2 where seq = $1', [existingSeq, outcome]);
      return true;
    }
    const { rowCount } = await client.query(
      `insert into wf_inputs (process_type, process_id, input_id, kind, delivery, outcome)
       values ($1, $2, $3, $4, $5::jsonb, $6) on conflict do nothing`,
      [ref.processType, ref.processId, delivery.inputId, delivery.input.kind, JSON.stringify(delivery), outcome],
    );
    return rowCount === 1;
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
      return (await this.recordInput(client, ref, delivery, 'parked', existingSeq)) ? 'parked' : 'duplicate';
    }
    const instance: ProcessInstance = { state: row.state, timers: row.timers, done: row.done, inputs: row.inputs };
    let outcome: ReturnType<typeof step>;
    try {
      outcome = step(definition, ref, instance, delivery, this.clock.now());
    } catch (error) {
      if (!(await this.recordInput(client, ref, delivery, 'parked', existingSeq))) return 'duplicate';
      await client.query(
        `update wf_processes set status = 'dead_letter', failing = false, last_error = $3, last_error_at = clock_timestamp(),
           updated_at = clock_timestamp() where process_type = $1 and process_id = $2`,
        [ref.processType, ref.processId, `react failed: ${errorMessage(error)}`],
      );
      this.log.error(`${ref.processType} ${ref.processId} dead-lettered: react failed`, { error: errorMessage(error) });
      return 'dead_letter';
    }
    if (outcome.kind === 'ignored') {
      return (await this.recordInput(client, ref, delivery, 'ignored', existingSeq)) ? 'ignored' : 'duplicate';
    }
    if (!(await this.recordInput(client, ref, delivery, 'applied', existingSeq))) return 'duplicate';

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
    if (outcome.commands.length) await this.insertCommands(client, ref, row.correlation_id, outcome.commands);
    for (const name of outcome.timersCancelled) {
      await client.query('select graphile_worker.remove_job($1)', [timerJobKey(ref, name)]);
    }
    for (const timer of outcome.timersSet) await this.scheduleTimer(client, ref, timer.name, timer);
    if (outcome.commands.length && !row.failing) {
      // a drain job is the usual carrier; the timer job drains itself right after its commit
      if (drainInline) return 'applied_drain_inline';
      await this.scheduleDrain(client, ref);
    }
    return 'applied';
  }

  private async insertCommands(client: pg.PoolClient, ref: ProcessRef, correlationId: string | null, commands: readonly PlannedCommand[]): Promise<void> {
    await client.query(
      `insert into wf_commands (process_type, process_id, input_id, command_index, command, idempotency_key, causation_id, correlation_id)
       select $1, $2, c.input_id, c.command_index, c.command, c.idempotency_key, c.causation_id, $4
       from jsonb_to_recordset($3::jsonb) as c(input_id text, command_index int, command jsonb, idempotency_key text, causation_id text)
       order by c.command_index
       on conflict (idempotency_key) do nothing`,
      [
        ref.processType,
        ref.processId,
        JSON.stringify(
          commands.map((c) => ({
            input_id: c.inputId,
            command_index: c.index,
            command: c.command,
            idempotency_key: c.idempotencyKey,
            causation_id: c.causationId,
          })),
        ),
        correlationId,
      ],
    );
  }

  /**
   * The job's `runAt` is the database clock plus the time the runtime's clock says is left, so a
   * controlled clock and the real one both work; `advanceTo` moves due jobs to now.
   */
  private async scheduleTimer(client: pg.PoolClient, ref: ProcessRef, name: string, timer: PendingTimer): Promise<void> {
    const delayMs = Math.max(0, Date.parse(timer.at) - this.clock.now().getTime());
    await client.query(
      `select graphile_worker.add_job($1, $2::json, null,
         clock_timestamp() + $3::double precision * interval '1 millisecond', 25, $4, null, null, 'replace')`,
      [TIMER_TASK, JSON.stringify({ ...ref, name, timerId: timer.id } satisfies TimerPayload), delayMs, timerJobKey(ref, name)],
    );
  }

  private async scheduleDrain(client: pg.PoolClient | pg.Pool, ref: ProcessRef, delayMs = 0): Promise<void> {
    await client.query(
      `select graphile_worker.add_job($1, $2::json, null,
         clock_timestamp() + $5::double precision * interval '1 millisecond', $3, $4, null, null, 'replace')`,
      [DRAIN_TASK, JSON.stringify(ref), this.maxAttempts, drainJobKey(ref), delayMs],
    );
  }

  // ---- jobs -----------------------------------------------------------------------------------

  private async fireTimer(payload: TimerPayload, helpers: JobHelpers): Promise<void> {
    const definition = this.definitions.get(payload.processType);
    if (!definition) {
      this.log.warn(`timer for unknown process type ${payload.processType} dropped`);
      return;
    }
    const outcome = await withTransaction(this.pool, async (client): Promise<DeliverOutcome> => {
      const row = await this.lockProcess(client, payload);
      if (!row) return 'ignored';
      const timer = row.timers[payload.name];
      if (!timer || timer.id !== payload.timerId) {
        // Run again after its instance died between applying the timer and sending its commands
        // (the lock of a dead worker was released): the commands still wait, send them now.
        if (row.failing || row.status === 'dead_letter') return 'ignored';
        const { rows } = await client.query(
          `select 1 from wf_inputs i
           where i.process_type = $1 and i.process_id = $2 and i.input_id = $3
             and exists (select 1 from wf_commands c where c.process_type = i.process_type and c.process_id = i.process_id
                           and c.input_id = i.input_id and c.dispatched_at is null)`,
          [payload.processType, payload.processId, `timer:${payload.timerId}`],
        );
        return rows.length ? 'applied_drain_inline' : 'ignored';
      }
      const now = this.clock.now().getTime();
      const remaining = Date.parse(timer.at) - now;
      if (remaining > 0) {
        // the runtime's clock is behind the database's (a controlled clock): not due yet
        await this.scheduleTimer(client, payload, payload.name, timer);
        return 'ignored';
      }
      // timers fire in the order of their times: when several came due together (the server was
      // stopped, or the clock jumped) their jobs may run in any order, so the earliest due goes first
      // and this one is run again after it (the earlier one's own job then finds it fired)
      const [name, earliest] = Object.entries(row.timers)
        .filter(([, t]) => Date.parse(t.at) <= now)
        .reduce((a, b) => (Date.parse(b[1].at) < Date.parse(a[1].at) ? b : a), [payload.name, timer] as [string, PendingTimer]);
      if (name !== payload.name) await this.scheduleTimer(client, payload, payload.name, timer);
      return this.applyToRow(client, definition, row, timerDelivery(name, earliest), undefined, true);
    });
    if (outcome === 'applied_drain_inline') await this.drain(payload, helpers, { inline: true });
  }

  /** Dispatches the process's outbox in order, holding a per-process advisory lock. */
  private async drain(ref: ProcessRef, helpers: JobHelpers, options: { inline?: boolean } = {}): Promise<void> {
    const client = await this.pool.connect();
    const lockKey = `${ref.processType}:${ref.processId}`;
    let broken: Error | undefined;
    try {
      await client.query('select pg_advisory_lock($1, hashtext($2))', [DRAIN_LOCK_SPACE, lockKey]);
      try {
        await this.drainLocked(client, ref, helpers, options.inline ?? false);
      } finally {
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [DRAIN_LOCK_SPACE, lockKey]).catch((e) => {
          broken = e as Error;
        });
      }
    } finally {
      client.release(broken);
    }
  }

  private async drainLocked(client: pg.PoolClient, ref: ProcessRef, helpers: JobHelpers, inline: boolean): Promise<void> {
    for (;;) {
      const { rows: pending } = await client.query<Omit<CommandRow, 'seq'> & { seq: string | null; status: ProcessStatus }>(
        `select c.seq, c.command, c.idempotency_key, c.causation_id, c.correlation_id, p.status
         from wf_processes p left join wf_commands c
           on c.process_type = p.process_type and c.process_id = p.process_id and c.dispatched_at is null
         where p.process_type = $1 and p.process_id = $2
         order by c.seq limit 100`,
        [ref.processType, ref.processId],
      );
      if (!pending.length || pending[0]!.status === 'dead_letter') return;
      const commands = (pending[0]!.seq === null ? [] : pending) as CommandRow[];
      if (!commands.length && (await this.settle(client, ref, undefined))) return;
      for (const [i, command] of commands.entries()) {
        let position: number;
        try {
          ({ position } = await this.options.dispatcher.dispatch(command.command, this.dispatchContext(ref, command)));
        } catch (error) {
          await this.onDispatchFailure(client, ref, command, error, helpers, inline);
          return;
        }
        const dispatched = { seq: command.seq, position };
        if (i < commands.length - 1) await this.markDispatched(client, dispatched);
        // the last one of the page: marked in the same transaction that settles the process
        else if (await this.settle(client, ref, dispatched)) return;
      }
    }
  }

  private async markDispatched(client: pg.PoolClient, dispatched: { seq: string; position: number }): Promise<void> {
    await client.query('update wf_commands set dispatched_at = clock_timestamp(), position = $2, attempts = attempts + 1 where seq = $1', [
      dispatched.seq,
      dispatched.position,
    ]);
  }

  /**
   * Under the row lock: when nothing is left to send, the process is healthy again (and complete
   * if it is done). False when more commands arrived meanwhile.
   */
  private async settle(client: pg.PoolClient, ref: ProcessRef, dispatched: { seq: string; position: number } | undefined): Promise<boolean> {
    await client.query('begin');
    try {
      if (dispatched) await this.markDispatched(client, dispatched);
      const row = await this.lockProcess(client, ref);
      const { rows } = await client.query('select 1 from wf_commands where process_type = $1 and process_id = $2 and dispatched_at is null limit 1', [
        ref.processType,
        ref.processId,
      ]);
      if (rows.length) {
        await client.query('commit');
        return false;
      }
      if (row && row.status !== 'dead_letter') {
        await client.query(
          `update wf_processes set failing = false, last_error = null, last_error_at = null,
             status = case when done then 'completed' else 'running' end,
             completed_at = case when done then coalesce(completed_at, clock_timestamp()) else null end,
             updated_at = clock_timestamp()
           where process_type = $1 and process_id = $2`,
          [ref.processType, ref.processId],
        );
      }
      await client.query('commit');
      return true;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  /**
   * A drain job retries through graphile-worker (exponential backoff, `maxAttempts`); a timer
   * job that drained inline hands the retries to a drain job instead, so its own key (which a new
   * timer of the same name replaces) never carries them.
   */
  private async onDispatchFailure(
    client: pg.PoolClient,
    ref: ProcessRef,
    command: CommandRow,
    error: unknown,
    helpers: JobHelpers,
    inline: boolean,
  ): Promise<void> {
    const message = errorMessage(error);
    const final = this.isPermanent(error) || (!inline && helpers.job.attempts >= helpers.job.max_attempts);
    await client.query('begin');
    try {
      await this.lockProcess(client, ref);
      await client.query('update wf_commands set attempts = attempts + 1, last_error = $2 where seq = $1', [command.seq, message]);
      await client.query(
        `update wf_processes set last_error = $3, last_error_at = clock_timestamp(), updated_at = clock_timestamp(),
           failing = $4, status = case when $4 then status else 'dead_letter' end
         where process_type = $1 and process_id = $2`,
        [ref.processType, ref.processId, message, !final],
      );
      if (inline && !final) await this.scheduleDrain(client, ref, FIRST_RETRY_DELAY_MS);
      await client.query('commit');
    } catch (e) {
      await client.query('rollback').catch(() => undefined);
      throw e;
    }
    if (final) {
      this.log.error(`${ref.processType} ${ref.processId} dead-lettered after ${inline ? 1 : helpers.job.attempts} attempt(s)`, { error: message });
      return;
    }
    if (!inline) throw error;
  }

  private dispatchContext(ref: ProcessRef, command: CommandRow): DispatchContext {
    return processDispatchContext({
      ...ref,
      idempotencyKey: command.idempotency_key,
      causationId: command.causation_id,
      correlationId: command.correlation_id,
      now: this.clock.now(),
      client: 'processes',
    });
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
      const row = await this.lockProcess(client, ref);
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
        const current = (await this.lockProcess(client, ref))!;
        const outcome = await this.applyToRow(client, definition, current, input.delivery, Number(input.seq));
        if (outcome === 'dead_letter') return true;
      }
      const { rows: pending } = await client.query('select 1 from wf_commands where process_type = $1 and process_id = $2 and dispatched_at is null limit 1', [
        processType,
        processId,
      ]);
      if (pending.length) {
        await this.scheduleDrain(client, ref);
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

  async listProcesses(options: ListProcessesOptions = {}): Promise<ProcessSummary[]> {
    const { rows } = await this.pool.query<SummaryRow>(
      `select p.*, (select count(*) from wf_commands c
                    where c.process_type = p.process_type and c.process_id = p.process_id and c.dispatched_at is null) as pending
       from wf_processes p
       where ($1::text is null or p.status = $1) and ($2::text is null or p.process_type = $2)
       order by p.updated_at desc, p.process_type, p.process_id
       limit $3`,
      [options.status ?? null, options.processType ?? null, options.limit ?? 100],
    );
    return rows.map(toSummary);
  }

  async getProcess(processType: string, processId: string): Promise<ProcessSummary | null> {
    const { rows } = await this.pool.query<SummaryRow>(
      `select p.*, (select count(*) from wf_commands c
                    where c.process_type = p.process_type and c.process_id = p.process_id and c.dispatched_at is null) as pending
       from wf_processes p where p.process_type = $1 and p.process_id = $2`,
      [processType, processId],
    );
    return rows[0] ? toSummary(rows[0]) : null;
  }

  /** Every input the process received, in order, with the commands each one produced. */
  async history(processType: string, processId: string): Promise<ProcessHistoryEntry[]> {
    const { rows } = await this.pool.query<{
      seq: string;
      input_id: string;
      kind: ProcessHistoryEntry['kind'];
      delivery: Delivery;
      outcome: ProcessHistoryEntry['outcome'];
      received_at: Date;
      commands: { command: ProcessCommand; dispatched_at: string | null; position: number | null }[] | null;
    }>(
      `select i.seq, i.input_id, i.kind, i.delivery, i.outcome, i.received_at,
              (select json_agg(json_build_object('command', c.command, 'dispatched_at', c.dispatched_at, 'position', c.position)
                               order by c.command_index)
               from wf_commands c
               where c.process_type = i.process_type and c.process_id = i.process_id and c.input_id = i.input_id) as commands
       from wf_inputs i where i.process_type = $1 and i.process_id = $2 order by i.seq`,
      [processType, processId],
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      inputId: r.input_id,
      kind: r.kind,
      input: r.delivery.input,
      outcome: r.outcome,
      commands: (r.commands ?? []).map((c) => ({
        command: c.command,
        dispatchedAt: c.dispatched_at,
        position: c.position === null ? null : Number(c.position),
      })),
      at: r.received_at.toISOString(),
    }));
  }

  /** For `/api/health`: how many processes in each status, and the next timer. */
  async stats(): Promise<{ running: number; completed: number; deadLetter: number; nextTimerAt: string | null; checkpoint: number | null; caughtUp: boolean }> {
    const { rows } = await this.pool.query<{ running: string; completed: string; dead: string; next: Date | null; checkpoint: string | null }>(
      `select count(*) filter (where status = 'running') as running,
              count(*) filter (where status = 'completed') as completed,
              count(*) filter (where status = 'dead_letter') as dead,
              min(next_timer_at) filter (where status = 'running') as next,
              (select position from wf_checkpoints where name = $1) as checkpoint
       from wf_processes`,
      [this.checkpointName],
    );
    const r = rows[0]!;
    return {
      running: Number(r.running),
      completed: Number(r.completed),
      deadLetter: Number(r.dead),
      nextTimerAt: r.next ? r.next.toISOString() : null,
      checkpoint: r.checkpoint === null ? null : Number(r.checkpoint),
      caughtUp: this.caughtUp,
    };
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
  async fireDueTimers(asOf: Date = this.clock.now()): Promise<number> {
    const to = asOf;
    const { rows } = await this.pool.query<{ process_type: string; process_id: string; name: string; timer: PendingTimer }>(
      `select p.process_type, p.process_id, t.key as name, t.value as timer
       from wf_processes p, jsonb_each(p.timers) t
       where p.next_timer_at <= $1 and (t.value->>'at')::timestamptz <= $1`,
      [to],
    );
    for (const r of rows) {
      const ref = { processType: r.process_type, processId: r.process_id };
      await this.pool.query(`select graphile_worker.add_job($1, $2::json, null, clock_timestamp(), 25, $3, null, null, 'replace')`, [
        TIMER_TASK,
        JSON.stringify({ ...ref, name: r.name, timerId: r.timer.id } satisfies TimerPayload),
        timerJobKey(ref, r.name),
      ]);
    }
    return rows.length;
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

interface TimerPayload extends ProcessRef {
  readonly name: string;
  readonly timerId: string;
}

interface CommandRow {
  seq: string;
  command: ProcessCommand;
  idempotency_key: string;
  causation_id: string | null;
  correlation_id: string | null;
}

interface SummaryRow extends ProcessRow {
  last_error: string | null;
  last_error_at: Date | null;
  created_at: Date;
  updated_at: Date;
  pending: string;
}

const toSummary = (r: SummaryRow): ProcessSummary => {
  const next = earliestTimer({ timers: r.timers });
  return {
    processType: r.process_type,
    processId: r.process_id,
    status: r.status,
    state: r.state,
    timers: r.timers,
    nextTimer: next ? { name: next.name, at: next.at } : null,
    pendingCommands: Number(r.pending),
    lastError: r.last_error,
    lastErrorAt: r.last_error_at ? r.last_error_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
};

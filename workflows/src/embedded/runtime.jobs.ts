import { withTransaction } from '@axel/platform';
import type { JobHelpers, TaskList } from 'graphile-worker';
import type pg from 'pg';
import { timerDelivery, type Delivery, type PendingTimer, type ProcessDefinition, type ProcessRef } from '../model/process';
import type { Clock } from '../runtime/clock';
import { processDispatchContext, type CommandDispatcher, type DispatchContext, type ProcessStatus } from '../runtime/port';
import type { RuntimeLogger } from '../runtime/port';
import { lockProcess, markDispatched, settle, type CommandRow, type ProcessRow } from './runtime.store';

export const TIMER_TASK = 'axel_process_timer';
export const DRAIN_TASK = 'axel_process_drain';
export const TASKS = [TIMER_TASK, DRAIN_TASK];
/** First key of the advisory lock that serialises the dispatch of one process's commands. */
const DRAIN_LOCK_SPACE = 7_310_404;
/** graphile-worker's first backoff step (exp(1) s), for a failure met while a timer job drained. */
const FIRST_RETRY_DELAY_MS = Math.round(Math.E * 1000);

export type DeliverOutcome = 'applied' | 'applied_drain_inline' | 'ignored' | 'parked' | 'dead_letter' | 'duplicate' | 'no_process';

export const timerJobKey = (ref: ProcessRef, name: string) => `process-timer:${ref.processType}:${ref.processId}:${name}`;
const drainJobKey = (ref: ProcessRef) => `process-drain:${ref.processType}:${ref.processId}`;

export const errorMessage = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

interface TimerPayload extends ProcessRef {
  readonly name: string;
  readonly timerId: string;
}

export interface ProcessJobsOptions {
  readonly pool: pg.Pool;
  readonly clock: Clock;
  readonly log: RuntimeLogger;
  readonly dispatcher: CommandDispatcher;
  readonly definitions: ReadonlyMap<string, ProcessDefinition<any, any>>;
  readonly maxAttempts: number;
  readonly isPermanent: (error: unknown) => boolean;
  /** The engine's `applyToRow`: a timer job applies its timer in its own transaction and drains inline. */
  readonly applyToRow: (
    client: pg.PoolClient,
    definition: ProcessDefinition<any, any>,
    row: ProcessRow,
    delivery: Delivery,
    existingSeq?: number,
    drainInline?: boolean,
  ) => Promise<DeliverOutcome>;
}

/**
 * The runtime's graphile-worker jobs: a timer job per pending timer (keyed, so setting it again
 * replaces it) and a drain job per process that dispatches its outbox in order, with retries.
 */
export class ProcessJobs {
  private readonly pool: pg.Pool;
  private readonly clock: Clock;
  private readonly log: RuntimeLogger;
  private readonly definitions: ReadonlyMap<string, ProcessDefinition<any, any>>;
  private readonly maxAttempts: number;
  private readonly isPermanent: (error: unknown) => boolean;

  constructor(private readonly options: ProcessJobsOptions) {
    this.pool = options.pool;
    this.clock = options.clock;
    this.log = options.log;
    this.definitions = options.definitions;
    this.maxAttempts = options.maxAttempts;
    this.isPermanent = options.isPermanent;
  }

  taskList(): TaskList {
    return {
      [TIMER_TASK]: async (payload, helpers) => this.fireTimer(payload as TimerPayload, helpers),
      [DRAIN_TASK]: async (payload, helpers) => this.drain(payload as ProcessRef, helpers),
    };
  }

  /**
   * The job's `runAt` is the database clock plus the time the runtime's clock says is left, so a
   * controlled clock and the real one both work; `advanceTo` moves due jobs to now.
   */
  async scheduleTimer(client: pg.PoolClient, ref: ProcessRef, name: string, timer: PendingTimer): Promise<void> {
    const delayMs = Math.max(0, Date.parse(timer.at) - this.clock.now().getTime());
    await client.query(
      `select graphile_worker.add_job($1, $2::json, null,
         clock_timestamp() + $3::double precision * interval '1 millisecond', 25, $4, null, null, 'replace')`,
      [TIMER_TASK, JSON.stringify({ ...ref, name, timerId: timer.id } satisfies TimerPayload), delayMs, timerJobKey(ref, name)],
    );
  }

  async scheduleDrain(client: pg.PoolClient | pg.Pool, ref: ProcessRef, delayMs = 0): Promise<void> {
    await client.query(
      `select graphile_worker.add_job($1, $2::json, null,
         clock_timestamp() + $5::double precision * interval '1 millisecond', $3, $4, null, null, 'replace')`,
      [DRAIN_TASK, JSON.stringify(ref), this.maxAttempts, drainJobKey(ref), delayMs],
    );
  }

  private async fireTimer(payload: TimerPayload, helpers: JobHelpers): Promise<void> {
    const definition = this.definitions.get(payload.processType);
    if (!definition) {
      this.log.warn(`timer for unknown process type ${payload.processType} dropped`);
      return;
    }
    const outcome = await withTransaction(this.pool, async (client): Promise<DeliverOutcome> => {
      const row = await lockProcess(client, payload);
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
      return this.options.applyToRow(client, definition, row, timerDelivery(name, earliest), undefined, true);
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
      if (!commands.length && (await settle(client, ref, undefined))) return;
      for (const [i, command] of commands.entries()) {
        let position: number;
        try {
          ({ position } = await this.options.dispatcher.dispatch(command.command, this.dispatchContext(ref, command)));
        } catch (error) {
          await this.onDispatchFailure(client, ref, command, error, helpers, inline);
          return;
        }
        const dispatched = { seq: command.seq, position };
        if (i < commands.length - 1) await markDispatched(client, dispatched);
        // the last one of the page: marked in the same transaction that settles the process
        else if (await settle(client, ref, dispatched)) return;
      }
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
      await lockProcess(client, ref);
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

  /**
   * Makes every timer due by `asOf` (the runtime's clock by default) run now. Needed when the clock
   * jumps (a test clock moved by hand): the jobs were scheduled for the real time.
   */
  async fireDueTimers(asOf: Date): Promise<number> {
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
}

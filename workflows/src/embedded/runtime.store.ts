import type pg from 'pg';
import type { Delivery, PendingTimer, PlannedCommand, ProcessCommand, ProcessRef } from '../model/process';
import type { ProcessStatus } from '../runtime/port';

// The runtime's rows: a process (wf_processes), the inputs it received (wf_inputs) and the commands they produced (wf_commands).

export interface ProcessRow {
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

export interface CommandRow {
  seq: string;
  command: ProcessCommand;
  idempotency_key: string;
  causation_id: string | null;
  correlation_id: string | null;
}

const ROW_COLUMNS = 'process_type, process_id, status, state, timers, done, inputs, failing, correlation_id';

export async function lockProcess(client: pg.PoolClient, ref: ProcessRef): Promise<ProcessRow | undefined> {
  const { rows } = await client.query<ProcessRow>(`select ${ROW_COLUMNS} from wf_processes where process_type = $1 and process_id = $2 for update`, [
    ref.processType,
    ref.processId,
  ]);
  return rows[0];
}

export async function recordInput(
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

export async function insertCommands(client: pg.PoolClient, ref: ProcessRef, correlationId: string | null, commands: readonly PlannedCommand[]): Promise<void> {
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

export async function markDispatched(client: pg.PoolClient, dispatched: { seq: string; position: number }): Promise<void> {
  await client.query('update wf_commands set dispatched_at = clock_timestamp(), position = $2, attempts = attempts + 1 where seq = $1', [
    dispatched.seq,
    dispatched.position,
  ]);
}

/**
 * Under the row lock: when nothing is left to send, the process is healthy again (and complete
 * if it is done). False when more commands arrived meanwhile.
 */
export async function settle(client: pg.PoolClient, ref: ProcessRef, dispatched: { seq: string; position: number } | undefined): Promise<boolean> {
  await client.query('begin');
  try {
    if (dispatched) await markDispatched(client, dispatched);
    const row = await lockProcess(client, ref);
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

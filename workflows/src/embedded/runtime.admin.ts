import type pg from 'pg';
import { earliestTimer, type Delivery, type ProcessCommand } from '../model/process';
import type { ListProcessesOptions, ProcessHistoryEntry, ProcessSummary } from '../runtime/port';
import type { ProcessRow } from './runtime.store';

/** What the console and `/api/health` read about processes: the list, one process, its history, the counts. */
export class ProcessAdminQueries {
  constructor(
    private readonly pool: pg.Pool,
    private readonly checkpointName: string,
  ) {}

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
  async stats(): Promise<{ running: number; completed: number; deadLetter: number; nextTimerAt: string | null; checkpoint: number | null }> {
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
    };
  }
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

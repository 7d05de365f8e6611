import { randomUUID } from 'node:crypto';
import type { EventRegistry } from '@axel/domain';
import type { EventStore } from '@axel/platform';
import { Client, Connection, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type pg from 'pg';
import { createProcessCatalog, defaultProcessSettings, type ProcessSettings } from '../catalog';
import type { RuntimeLogger } from '../embedded/runtime';
import { earliestTimer, type Delivery, type ProcessDefinition } from '../model/process';
import {
  ProcessNotFoundError,
  type CommandDispatcher,
  type ListProcessesOptions,
  type ProcessRuntime,
  type ProcessSummary,
  type SignalOptions,
} from '../runtime/port';
import { PROCESS_WORKFLOW_TYPE, inputSignal, retrySignal, snapshotQuery, workflowIdOf, type ProcessSnapshot } from './process-workflow';
import { TemporalProcessStarter } from './starter';
import type { ProcessWorker } from './worker';

export interface TemporalRuntimeOptions {
  /** `TEMPORAL_ADDRESS`. */
  readonly address: string;
  readonly namespace?: string;
  readonly store: EventStore;
  /** Pool on the database with the workflow migrations (the starter's checkpoint). */
  readonly pool: pg.Pool;
  readonly dispatcher: CommandDispatcher;
  readonly settings?: ProcessSettings;
  /** Must match what the worker's workflow bundle builds (default: the product catalog). */
  readonly definitions?: readonly ProcessDefinition<any, any>[];
  readonly registry?: EventRegistry;
  readonly taskQueue?: string;
  /** Run a worker in this process too (the embedded layout); false when workers run apart. */
  readonly runWorker?: boolean;
  readonly workflowsPath?: string;
  readonly startFrom?: 'beginning' | 'end';
  readonly logger?: RuntimeLogger;
}

const consoleLogger: RuntimeLogger = {
  warn: (message, meta) => console.warn(`[temporal] ${message}`, meta ?? ''),
  error: (message, meta) => console.error(`[temporal] ${message}`, meta ?? ''),
};

const toSummary = (s: ProcessSnapshot, times: { start?: Date; close?: Date }): ProcessSummary => {
  const next = earliestTimer(s);
  return {
    processType: s.processType,
    processId: s.processId,
    status: s.status,
    state: s.state,
    timers: s.timers,
    nextTimer: next ? { name: next.name, at: next.at } : null,
    pendingCommands: s.pendingCommands,
    lastError: s.lastError,
    lastErrorAt: s.lastErrorAt,
    createdAt: times.start?.toISOString() ?? null,
    updatedAt: (times.close ?? times.start)?.toISOString() ?? null,
  };
};

/**
 * The process runtime at scale: each process is a Temporal workflow (`processWorkflow`), started
 * and signalled from the event store by the starter; state and history live in Temporal (see a
 * process's history in the Temporal UI under workflow id `<processType>:<processId>`).
 */
export class TemporalProcessRuntime implements ProcessRuntime {
  readonly kind = 'temporal' as const;
  private connection: Connection | undefined;
  private client: Client | undefined;
  private starter: TemporalProcessStarter | undefined;
  private worker: ProcessWorker | undefined;
  private workerRun: Promise<void> | undefined;
  private readonly log: RuntimeLogger;

  constructor(private readonly options: TemporalRuntimeOptions) {
    this.log = options.logger ?? consoleLogger;
  }

  private get temporal(): Client {
    if (!this.client) throw new Error('The Temporal runtime is not started');
    return this.client;
  }

  async start(): Promise<void> {
    this.connection = await Connection.connect({ address: this.options.address });
    this.client = new Client({ connection: this.connection, namespace: this.options.namespace ?? 'default' });
    if (this.options.runWorker ?? true) {
      // loaded on demand: the worker package brings Temporal's native core (half a second to load)
      const { createProcessWorker } = await import('./worker');
      this.worker = await createProcessWorker({
        address: this.options.address,
        namespace: this.options.namespace,
        dispatcher: this.options.dispatcher,
        taskQueue: this.options.taskQueue,
        workflowsPath: this.options.workflowsPath,
      });
      this.workerRun = this.worker.run().catch((error) => this.log.error('temporal worker stopped', { error: String(error) }));
    }
    const settings = this.options.settings ?? defaultProcessSettings;
    this.starter = new TemporalProcessStarter({
      client: this.client,
      store: this.options.store,
      pool: this.options.pool,
      definitions: this.options.definitions ?? createProcessCatalog(settings),
      settings,
      registry: this.options.registry,
      taskQueue: this.options.taskQueue,
      startFrom: this.options.startFrom,
      logger: this.log,
    });
    await this.starter.start();
  }

  async stop(): Promise<void> {
    await this.starter?.stop();
    await this.worker?.shutdown();
    await this.workerRun;
    await this.connection?.close();
  }

  private handle(processType: string, processId: string): WorkflowHandle {
    return this.temporal.workflow.getHandle(workflowIdOf(processType, processId));
  }

  async signal(processType: string, processId: string, name: string, payload: unknown = null, options: SignalOptions = {}): Promise<void> {
    const delivery: Delivery = {
      input: { kind: 'signal', name, payload },
      inputId: `signal:${options.signalId ?? randomUUID()}`,
      causationId: options.causationId ?? null,
    };
    try {
      await this.handle(processType, processId).signal(inputSignal, delivery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new ProcessNotFoundError(processType, processId);
      throw error;
    }
  }

  async getProcess(processType: string, processId: string): Promise<ProcessSummary | null> {
    const handle = this.handle(processType, processId);
    try {
      const description = await handle.describe();
      const snapshot =
        description.status.name === 'RUNNING'
          ? await handle.query(snapshotQuery)
          : description.status.name === 'COMPLETED'
            ? ((await handle.result()) as ProcessSnapshot)
            : null;
      return snapshot ? toSummary(snapshot, { start: description.startTime, close: description.closeTime }) : null;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
  }

  async listProcesses(options: ListProcessesOptions = {}): Promise<ProcessSummary[]> {
    const clauses = [`WorkflowType = '${PROCESS_WORKFLOW_TYPE}'`];
    if (options.status === 'completed') clauses.push(`ExecutionStatus = 'Completed'`);
    else if (options.status) clauses.push(`ExecutionStatus = 'Running'`);
    if (options.processType) clauses.push(`WorkflowId STARTS_WITH '${options.processType.replaceAll("'", '')}:'`);
    const limit = options.limit ?? 100;
    const out: ProcessSummary[] = [];
    for await (const execution of this.temporal.workflow.list({ query: clauses.join(' AND ') })) {
      const separator = execution.workflowId.indexOf(':');
      const summary = await this.getProcess(execution.workflowId.slice(0, separator), execution.workflowId.slice(separator + 1));
      if (summary && (!options.status || summary.status === options.status)) out.push(summary);
      if (out.length >= limit) break;
    }
    return out;
  }

  async retry(processType: string, processId: string): Promise<boolean> {
    const current = await this.getProcess(processType, processId);
    if (current?.status !== 'dead_letter') return false;
    await this.handle(processType, processId).signal(retrySignal);
    return true;
  }
}

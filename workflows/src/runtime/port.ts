import { DomainError } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import type { PendingTimer, ProcessCommand } from '../model/process';

/**
 * What a runtime passes with each command. It is a `CommandContext` (actorKind 'process',
 * actorId '<processType>:<processId>', causationId = the triggering event, idempotencyKey derived
 * from process, input and command index), so an implementation can hand it to `handleCommand`
 * unchanged: a redelivered command then appends the same event ids and is applied once.
 */
export interface DispatchContext extends CommandContext {
  readonly actorKind: 'process';
  readonly actorId: string;
  readonly idempotencyKey: string;
  readonly processType: string;
  readonly processId: string;
  /** The runtime's clock at dispatch time: use it as the command's `metadata.now`. */
  readonly now: Date;
}

/**
 * Executes process commands. The API's composition root implements it with the same command
 * handlers as the HTTP routes. Delivery is at-least-once: the implementation must derive every id
 * it creates (event ids, mail ids...) from `ctx.idempotencyKey`.
 *
 * Throw a `DomainError` or `PermanentDispatchError` when retrying cannot help: the process goes
 * straight to `dead_letter`. Any other error is retried with backoff.
 */
export interface CommandDispatcher {
  dispatch(command: ProcessCommand, ctx: DispatchContext): Promise<{ position: number }>;
}

export class PermanentDispatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentDispatchError';
  }
}

export class UnknownCommandTargetError extends PermanentDispatchError {
  constructor(command: ProcessCommand) {
    super(`No handler for ${command.type} on ${command.aggregate}`);
    this.name = 'UnknownCommandTargetError';
  }
}

export const isPermanentDispatchError = (error: unknown): boolean => error instanceof DomainError || error instanceof PermanentDispatchError;

export type CommandRoute = (command: ProcessCommand, ctx: DispatchContext) => Promise<{ position: number }>;

/** A dispatcher from one handler per aggregate name (`user`, `mail`, ...). */
export const routeCommands = (routes: Readonly<Record<string, CommandRoute>>): CommandDispatcher => ({
  dispatch: (command, ctx) => {
    const route = Object.hasOwn(routes, command.aggregate) ? routes[command.aggregate] : undefined;
    if (!route) return Promise.reject(new UnknownCommandTargetError(command));
    return route(command, ctx);
  },
});

export type ProcessStatus = 'running' | 'completed' | 'dead_letter';

export interface ProcessSummary {
  readonly processType: string;
  readonly processId: string;
  readonly status: ProcessStatus;
  readonly state: unknown;
  readonly nextTimer: { readonly name: string; readonly at: string } | null;
  readonly timers: Readonly<Record<string, PendingTimer>>;
  readonly pendingCommands: number;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

export interface ProcessHistoryEntry {
  readonly seq: number;
  readonly inputId: string;
  readonly kind: 'event' | 'signal' | 'timer';
  readonly input: unknown;
  /** `applied`, `ignored`, or `parked` (waiting for a staff retry of a dead-lettered process). */
  readonly outcome: 'applied' | 'ignored' | 'parked';
  readonly commands: readonly { readonly command: ProcessCommand; readonly dispatchedAt: string | null; readonly position: number | null }[];
  readonly at: string;
}

export interface ListProcessesOptions {
  readonly status?: ProcessStatus;
  readonly processType?: string;
  readonly limit?: number;
}

export interface SignalOptions {
  /** Makes the signal idempotent: a second signal with the same id is ignored. */
  readonly signalId?: string;
  readonly causationId?: string | null;
}

/** One runtime of the process model: embedded (PostgreSQL) or Temporal. */
export interface ProcessRuntime {
  readonly kind: 'embedded' | 'temporal';
  start(): Promise<void>;
  /** Graceful: stops taking work and waits for what runs. */
  stop(): Promise<void>;
  signal(processType: string, processId: string, name: string, payload?: unknown, options?: SignalOptions): Promise<void>;
  listProcesses(options?: ListProcessesOptions): Promise<ProcessSummary[]>;
  getProcess(processType: string, processId: string): Promise<ProcessSummary | null>;
  /** Staff action: a dead-lettered process runs again. False when it was not dead-lettered. */
  retry(processType: string, processId: string): Promise<boolean>;
}

export class ProcessNotFoundError extends Error {
  constructor(processType: string, processId: string) {
    super(`No ${processType} process ${processId}`);
    this.name = 'ProcessNotFoundError';
  }
}

/** The context both runtimes give a command: the process is the actor, ids derive from the key. */
export const processDispatchContext = (input: {
  readonly processType: string;
  readonly processId: string;
  readonly idempotencyKey: string;
  readonly causationId: string | null;
  readonly correlationId: string | null;
  readonly now: Date;
  readonly client: string;
}): DispatchContext => {
  const actorId = `${input.processType}:${input.processId}`;
  return {
    actorKind: 'process',
    actorId,
    processType: input.processType,
    processId: input.processId,
    idempotencyKey: input.idempotencyKey,
    causationId: input.causationId,
    // every command of a process correlates with the event that started it (or with the process)
    correlationId: input.correlationId ?? actorId,
    client: input.client,
    ip: null,
    userAgent: null,
    now: input.now,
  };
};

/** Where a process runtime reports what it does: the embedded runtime and the Temporal starter take one. */
export interface RuntimeLogger {
  info?(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

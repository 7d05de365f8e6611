import { ApplicationFailure } from '@temporalio/common';
import type { PlannedCommand, ProcessRef } from '../model/process';
import { isPermanentDispatchError, processDispatchContext, type CommandDispatcher } from '../runtime/port';

export interface DispatchCommandInput extends ProcessRef {
  readonly planned: PlannedCommand;
  readonly correlationId: string | null;
}

export interface ProcessActivities {
  /** Runs one process command through the command handlers; safe to retry (deterministic ids). */
  dispatchCommand(input: DispatchCommandInput): Promise<{ position: number }>;
}

export interface ProcessActivityDeps {
  readonly dispatcher: CommandDispatcher;
  readonly now?: () => Date;
  readonly isPermanentError?: (error: unknown) => boolean;
}

/** The activities, built from their dependencies (the composition root's dispatcher). */
export const createActivities = (deps: ProcessActivityDeps): ProcessActivities => {
  const now = deps.now ?? (() => new Date());
  const isPermanent = deps.isPermanentError ?? isPermanentDispatchError;
  return {
    async dispatchCommand(input) {
      const ctx = processDispatchContext({
        processType: input.processType,
        processId: input.processId,
        idempotencyKey: input.planned.idempotencyKey,
        causationId: input.planned.causationId,
        correlationId: input.correlationId,
        now: now(),
        client: 'temporal',
      });
      try {
        return await deps.dispatcher.dispatch(input.planned.command, ctx);
      } catch (error) {
        if (isPermanent(error)) {
          const e = error as Error;
          // retrying cannot help: fail the activity for good, the workflow dead-letters the process
          throw ApplicationFailure.nonRetryable(e.message, e.name, { code: (e as { code?: unknown }).code ?? null });
        }
        throw error;
      }
    },
  };
};

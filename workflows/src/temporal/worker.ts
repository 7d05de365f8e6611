/*
 * The Temporal worker entry: runs the generic process workflow and its activities on the
 * `axel-processes` task queue. The composition root (or a `worker` CLI) builds the dispatcher
 * with the same command handlers as the API and calls `createProcessWorker`.
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { CommandDispatcher } from '../runtime/port';
import { createActivities } from './activities';
import { PROCESS_TASK_QUEUE } from './process-workflow';

/** The product's workflows (`processWorkflow` over the process catalog). */
export const productWorkflowsPath = fileURLToPath(new URL('./workflows.ts', import.meta.url));

export interface ProcessWorkerOptions {
  /** `TEMPORAL_ADDRESS`, e.g. `localhost:7233`. */
  readonly address: string;
  readonly namespace?: string;
  readonly dispatcher: CommandDispatcher;
  readonly taskQueue?: string;
  readonly workflowsPath?: string;
  readonly now?: () => Date;
}

export interface ProcessWorker {
  readonly worker: Worker;
  /** Resolves when the worker has shut down. */
  run(): Promise<void>;
  shutdown(): Promise<void>;
}

export const createProcessWorker = async (options: ProcessWorkerOptions): Promise<ProcessWorker> => {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue ?? PROCESS_TASK_QUEUE,
    workflowsPath: options.workflowsPath ?? productWorkflowsPath,
    activities: createActivities({ dispatcher: options.dispatcher, now: options.now }),
  });
  let running: Promise<void> | undefined;
  return {
    worker,
    run: () => {
      running ??= worker.run().finally(() => connection.close());
      return running;
    },
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
};

export * from './model/process';
export * from './runtime/clock';
export * from './runtime/port';
export * from './embedded/migrations';
export * from './embedded/runtime';
export * from './account-deletion/account-deletion.process';
export * from './catalog';
export * from './temporal/process-workflow';
export * from './temporal/activities';
export * from './temporal/starter';
export * from './temporal/runtime';
export type { ProcessWorker, ProcessWorkerOptions } from './temporal/worker';

import type { ProcessWorker, ProcessWorkerOptions } from './temporal/worker';

/**
 * The Temporal worker entry (`Worker.create` with the product workflows, task queue
 * 'axel-processes', the activities over the given dispatcher). Loaded on demand: the worker
 * package brings Temporal's native core.
 */
export const createProcessWorker = async (options: ProcessWorkerOptions): Promise<ProcessWorker> =>
  (await import('./temporal/worker')).createProcessWorker(options);

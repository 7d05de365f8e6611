/*
 * Workflow entry for the Temporal worker (`workflowsPath`): the product's processes, each driven
 * by the one generic workflow. The workflow file owns its signals and query.
 */
import { createProcessCatalog } from '../catalog';
import { createProcessWorkflow } from './process-workflow';

export { inputSignal, retrySignal, snapshotQuery } from './process-workflow';

export const processWorkflow = createProcessWorkflow(createProcessCatalog);

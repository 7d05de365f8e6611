/*
 * Workflow entry for the contract suite against a Temporal server: the product's processes plus
 * the probe processes, driven by the same generic workflow.
 */
import { createProcessCatalog } from '../catalog';
import { createProcessWorkflow } from '../temporal/process-workflow';
import { probeProcesses } from './probe-processes';

export { inputSignal, retrySignal, snapshotQuery } from '../temporal/process-workflow';

// every few inputs a fresh run (continue-as-new), so the contract holds across runs as well
export const processWorkflow = createProcessWorkflow((settings) => [...createProcessCatalog(settings), ...probeProcesses], {
  maxAttempts: 2,
  runLimits: { maxSteps: 3 },
});

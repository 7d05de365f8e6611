/*
 * The one generic Temporal workflow: it drives a process definition's pure `react` through the
 * same `step` as the embedded runtime. Inputs (events from the starter, signals from staff or the
 * API) arrive as the `processInput` signal; timers are `condition(inputArrived, untilEarliestTimer)`;
 * commands go out through the `dispatchCommand` activity, which calls the command handlers.
 *
 * Workflow code: deterministic, bundled by `bundleWorkflowCode`. Only the pure model and
 * `@temporalio/workflow` may be imported here.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ProcessCatalog, ProcessSettings } from '../catalog';
import {
  earliestTimer,
  startInstance,
  step,
  timerDelivery,
  type Delivery,
  type PendingTimer,
  type PlannedCommand,
  type ProcessInstance,
} from '../model/process';
import type { ProcessActivities } from './activities';
import { continueAsNewReason, type RunLimits } from './continue-as-new';

export const PROCESS_TASK_QUEUE = 'axel-processes';
export const PROCESS_WORKFLOW_TYPE = 'processWorkflow';

export type WorkflowProcessStatus = 'running' | 'completed' | 'dead_letter';

/** An event, a signal: anything delivered to a process from outside. Deduplicated by `inputId`. */
export const inputSignal = defineSignal<[Delivery]>('processInput');
/** Staff action: a dead-lettered process tries again. */
export const retrySignal = defineSignal('retry');

export interface ProcessSnapshot {
  readonly processType: string;
  readonly processId: string;
  readonly status: WorkflowProcessStatus;
  readonly state: unknown;
  readonly timers: Readonly<Record<string, PendingTimer>>;
  readonly done: boolean;
  readonly inputs: number;
  readonly pendingCommands: number;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
}
export const snapshotQuery = defineQuery<ProcessSnapshot>('processSnapshot');

/** What `continueAsNew` carries into the next run. */
export interface CarriedProcess {
  readonly instance: ProcessInstance;
  readonly inbox: Delivery[];
  readonly pending: PlannedCommand[];
  readonly seen: string[];
}

export interface ProcessWorkflowArgs {
  readonly processType: string;
  readonly processId: string;
  /** Correlation id of the event that started the process. */
  readonly correlationId: string | null;
  /** Part of the start arguments: a running workflow keeps its settings and replays the same. */
  readonly settings: ProcessSettings;
  readonly carried?: CarriedProcess;
}

export const workflowIdOf = (processType: string, processId: string): string => `${processType}:${processId}`;

export interface ProcessWorkflowOptions {
  /** Attempts of one command before the process is dead-lettered. Default 10. */
  readonly maxAttempts?: number;
  /** Input ids remembered across `continueAsNew` for deduplication. Default 1,000. */
  readonly rememberInputs?: number;
  /** When a run continues as new (besides Temporal's own suggestion); `DEFAULT_RUN_LIMITS` otherwise. */
  readonly runLimits?: Partial<RunLimits>;
}

const messageOf = (error: unknown): string => {
  const e = error as { cause?: { message?: string; type?: string }; message?: string };
  return e?.cause?.message ? `${e.cause.type ?? 'Error'}: ${e.cause.message}` : String(e?.message ?? error);
};

export const createProcessWorkflow = (catalog: ProcessCatalog, options: ProcessWorkflowOptions = {}) =>
  async function processWorkflow(args: ProcessWorkflowArgs): Promise<ProcessSnapshot> {
    const definition = catalog(args.settings).find((d) => d.type === args.processType);
    if (!definition) throw ApplicationFailure.nonRetryable(`Unknown process type ${args.processType}`, 'UnknownProcessType');
    const ref = { processType: args.processType, processId: args.processId };
    const { dispatchCommand } = proxyActivities<ProcessActivities>({
      startToCloseTimeout: '1 minute',
      retry: {
        initialInterval: '1 second',
        backoffCoefficient: 2,
        maximumInterval: '10 minutes',
        maximumAttempts: options.maxAttempts ?? 10,
        nonRetryableErrorTypes: ['DomainError', 'PermanentDispatchError', 'UnknownCommandTargetError'],
      },
    });

    let instance: ProcessInstance = args.carried?.instance ?? startInstance(definition);
    const inbox: Delivery[] = [...(args.carried?.inbox ?? [])];
    const pending: PlannedCommand[] = [...(args.carried?.pending ?? [])];
    const seen = new Set<string>(args.carried?.seen ?? []);
    let status: WorkflowProcessStatus = 'running';
    let lastError: string | null = null;
    let lastErrorAt: string | null = null;
    let retryRequested = false;
    /** Inputs handled in this run (a fresh run counts from 0). */
    let steps = 0;

    const snapshot = (): ProcessSnapshot => ({
      ...ref,
      status,
      state: instance.state,
      timers: instance.timers,
      done: instance.done,
      inputs: instance.inputs,
      pendingCommands: pending.length,
      lastError,
      lastErrorAt,
    });

    setHandler(inputSignal, (delivery) => {
      if (seen.has(delivery.inputId)) return;
      seen.add(delivery.inputId);
      inbox.push(delivery);
    });
    setHandler(retrySignal, () => {
      retryRequested = true;
    });
    setHandler(snapshotQuery, snapshot);

    /** Parks the process until staff asks for a retry. */
    const deadLetter = async (error: unknown) => {
      status = 'dead_letter';
      lastError = messageOf(error);
      lastErrorAt = new Date().toISOString();
      retryRequested = false;
      await condition(() => retryRequested);
      status = 'running';
      lastError = null;
      lastErrorAt = null;
    };

    for (;;) {
      while (pending.length) {
        try {
          await dispatchCommand({ ...ref, planned: pending[0]!, correlationId: args.correlationId });
          pending.shift();
        } catch (error) {
          await deadLetter(error);
        }
      }
      if (instance.done) {
        status = 'completed';
        return snapshot();
      }
      // a process that never ends (blob maintenance) or waits long starts a fresh history now and
      // then: Temporal's suggestion, or this run's own count of inputs and history events
      const info = workflowInfo();
      const progress = { continueAsNewSuggested: info.continueAsNewSuggested, historyLength: info.historyLength, historySize: info.historySize, steps };
      if (continueAsNewReason(progress, options.runLimits)) {
        const keep = options.rememberInputs ?? 1_000;
        // signal handlers are synchronous here, but a handler must never be cut off half-way
        await condition(allHandlersFinished);
        await continueAsNew<typeof processWorkflow>({
          ...args,
          carried: { instance, inbox: [...inbox], pending: [...pending], seen: [...seen].slice(-keep) },
        });
      }
      let delivery = inbox.shift();
      if (!delivery) {
        const due = earliestTimer(instance);
        if (!due) {
          await condition(() => inbox.length > 0);
          continue;
        }
        const wait = Date.parse(due.at) - Date.now();
        // an input that arrives before the timer is due is handled first (it may cancel the timer)
        if (wait > 0 && (await condition(() => inbox.length > 0, wait))) continue;
        delivery = timerDelivery(due.name, due);
      }
      steps++;
      let outcome: ReturnType<typeof step>;
      try {
        outcome = step(definition, ref, instance, delivery, new Date());
      } catch (error) {
        inbox.unshift(delivery);
        await deadLetter(error);
        continue;
      }
      if (outcome.kind === 'applied') {
        instance = outcome.instance;
        pending.push(...outcome.commands);
      }
    }
  };

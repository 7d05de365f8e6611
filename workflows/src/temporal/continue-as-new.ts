/*
 * When a long-lived process workflow (blob maintenance never ends; others wait months) closes its
 * run and carries its state into a fresh one with Temporal's continue-as-new, before its event
 * history grows large: Temporal warns at 10,240 events or 10 MB and fails a run at 51,200 events
 * or 50 MB, and a worker that picks up a run replays all of it. Pure: bundled into workflow code.
 */

export interface RunLimits {
  /** Inputs (events, signals, timers) handled in one run. Each costs about ten history events. */
  readonly maxSteps: number;
  /** `workflowInfo().historyLength`: events in this run's history so far. */
  readonly maxHistoryEvents: number;
  /** `workflowInfo().historySize`: bytes of this run's history (0 when the server does not say). */
  readonly maxHistoryBytes: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxSteps: 500, maxHistoryEvents: 5_000, maxHistoryBytes: 5 * 1024 * 1024 };

/** What a run knows of itself: `workflowInfo()`'s fields, and the inputs it handled. */
export interface RunProgress {
  readonly continueAsNewSuggested: boolean;
  readonly historyLength: number;
  readonly historySize: number;
  readonly steps: number;
}

export type ContinueAsNewReason = 'suggested' | 'steps' | 'history_length' | 'history_size';

/** Why this run should continue as new now, or null while it may go on. */
export const continueAsNewReason = (run: RunProgress, limits: Partial<RunLimits> = {}): ContinueAsNewReason | null => {
  const { maxSteps, maxHistoryEvents, maxHistoryBytes } = { ...DEFAULT_RUN_LIMITS, ...limits };
  if (run.continueAsNewSuggested) return 'suggested';
  if (run.steps >= maxSteps) return 'steps';
  if (run.historyLength >= maxHistoryEvents) return 'history_length';
  if (run.historySize > 0 && run.historySize >= maxHistoryBytes) return 'history_size';
  return null;
};

import { describe, expect, it } from 'vitest';
import { continueAsNewReason, DEFAULT_RUN_LIMITS } from './continue-as-new';

const fresh = { continueAsNewSuggested: false, historyLength: 3, historySize: 900, steps: 0 };

describe('when a process workflow continues as new', () => {
  it('goes on while the run is young and Temporal does not suggest it', () => {
    expect(continueAsNewReason(fresh)).toBeNull();
    expect(continueAsNewReason({ ...fresh, steps: DEFAULT_RUN_LIMITS.maxSteps - 1, historyLength: DEFAULT_RUN_LIMITS.maxHistoryEvents - 1 })).toBeNull();
  });

  it("follows Temporal's suggestion at once", () => {
    expect(continueAsNewReason({ ...fresh, continueAsNewSuggested: true })).toBe('suggested');
  });

  it('starts a fresh run after its own number of inputs, events or bytes, well below the limits where Temporal warns (10,240 events, 10 MB)', () => {
    expect(continueAsNewReason({ ...fresh, steps: DEFAULT_RUN_LIMITS.maxSteps })).toBe('steps');
    expect(continueAsNewReason({ ...fresh, historyLength: DEFAULT_RUN_LIMITS.maxHistoryEvents })).toBe('history_length');
    expect(continueAsNewReason({ ...fresh, historySize: DEFAULT_RUN_LIMITS.maxHistoryBytes })).toBe('history_size');
    expect(DEFAULT_RUN_LIMITS.maxHistoryEvents).toBeLessThan(10_240);
    expect(DEFAULT_RUN_LIMITS.maxHistoryBytes).toBeLessThan(10 * 1024 * 1024);
    // about ten history events an input: the input count comes first
    expect(DEFAULT_RUN_LIMITS.maxSteps * 10).toBeLessThanOrEqual(DEFAULT_RUN_LIMITS.maxHistoryEvents);
  });

  it('a server that does not report the history size (0) never triggers the size rule; limits can be lowered per workflow', () => {
    expect(continueAsNewReason({ ...fresh, historySize: 0 }, { maxHistoryBytes: 0 })).toBeNull();
    expect(continueAsNewReason({ ...fresh, steps: 3 }, { maxSteps: 3 })).toBe('steps');
    expect(continueAsNewReason({ ...fresh, steps: 2 }, { maxSteps: 3 })).toBeNull();
  });
});

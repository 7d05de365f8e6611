import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * The generic workflow's own loop, run in-process against a stand-in for `@temporalio/workflow`
 * (no Temporal server can run here): timers elapse at once by moving the clock, activities
 * record the commands they were given, and `continueAsNew` ends the run with the arguments of
 * the next one, as Temporal's does.
 */
const temporal = vi.hoisted(() => {
  class ContinuedAsNew extends Error {
    constructor(readonly args: unknown) {
      super('continued as new');
    }
  }
  const world = { historyLength: 0, dispatched: [] as string[], handlerWaits: 0 };
  return { ContinuedAsNew, world };
});

vi.mock('@temporalio/workflow', () => {
  const { ContinuedAsNew, world } = temporal;
  return {
    ApplicationFailure: { nonRetryable: (message: string) => new Error(message) },
    allHandlersFinished: () => true,
    condition: async (done: () => boolean, timeoutMs?: number) => {
      world.historyLength += 2;
      // what Temporal does to a run whose history passes its limit
      if (world.historyLength > 51_200) throw new Error('history limit exceeded: the run is terminated');
      if (done === undefined || done()) return true;
      if (timeoutMs === undefined) throw new Error('the workflow would wait for ever');
      vi.setSystemTime(Date.now() + Number(timeoutMs));
      return false;
    },
    continueAsNew: async (args: unknown) => {
      throw new ContinuedAsNew(args);
    },
    defineQuery: (name: string) => name,
    defineSignal: (name: string) => name,
    proxyActivities: () => ({
      dispatchCommand: async (input: { planned: { command: { type: string } } }) => {
        world.historyLength += 3;
        world.dispatched.push(input.planned.command.type);
        return { position: 0 };
      },
    }),
    setHandler: () => undefined,
    workflowInfo: () => ({ continueAsNewSuggested: false, historyLength: world.historyLength, historySize: 0 }),
  };
});

const { createProcessWorkflow } = await import('./process-workflow');
const { createProcessCatalog, defaultProcessSettings } = await import('../catalog');
const { BLOB_MAINTENANCE_ID, BLOB_MAINTENANCE_PROCESS } = await import('../blob-maintenance/blob-maintenance.process');
type Args = Parameters<ReturnType<typeof createProcessWorkflow>>[0];

const HOUR = 3_600_000;

/** Runs a workflow run until it continues as new; answers the next run's arguments. */
const runUntilContinued = async (run: Promise<unknown>): Promise<Args> => {
  const ended = await run.then(
    () => null,
    (error: unknown) => error,
  );
  expect(ended).toBeInstanceOf(temporal.ContinuedAsNew);
  return (ended as InstanceType<typeof temporal.ContinuedAsNew>).args as Args;
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-05-01T00:00:00.000Z'));
  temporal.world.historyLength = 0;
  temporal.world.dispatched = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the blob maintenance workflow on Temporal', () => {
  const start: Args = {
    processType: BLOB_MAINTENANCE_PROCESS,
    processId: BLOB_MAINTENANCE_ID,
    correlationId: null,
    settings: defaultProcessSettings,
    carried: {
      instance: { state: null, timers: {}, done: false, inputs: 0 },
      inbox: [
        {
          input: {
            kind: 'event',
            event: {
              id: 'ev-1',
              type: 'BlobMaintenanceScheduled',
              data: { scrubEveryMs: 24 * HOUR, collectEveryMs: 6 * HOUR },
              streamName: 'blob-maintenance',
              position: 1,
              correlationId: null,
            },
          },
          inputId: 'ev-1',
          causationId: 'ev-1',
        },
      ],
      pending: [],
      seen: ['ev-1'],
    },
  };
  // a fresh process: the definition's own initial state
  const definition = createProcessCatalog(defaultProcessSettings).find((d) => d.type === BLOB_MAINTENANCE_PROCESS)!;
  const first: Args = { ...start, carried: { ...start.carried!, instance: { ...start.carried!.instance, state: definition.initialState() } } };

  it('never ends, so it continues as new after its number of inputs, carrying its state and timers; the next run goes on from there', async () => {
    const workflow = createProcessWorkflow(createProcessCatalog, { runLimits: { maxSteps: 10 } });

    const second = await runUntilContinued(workflow(first));
    // the schedule, then nine timers (one a 6-hour collection, the 24-hour scrub among them)
    expect(temporal.world.dispatched).toEqual([
      'CollectBlobs',
      'CollectBlobs',
      'CollectBlobs',
      'CollectBlobs',
      'ScrubBlobs',
      'CollectBlobs',
      'CollectBlobs',
      'CollectBlobs',
      'CollectBlobs',
    ]);
    expect(second.carried!.instance).toMatchObject({ inputs: 10, done: false, state: { scrubs: 1, collections: 8 } });
    expect(Object.keys(second.carried!.instance.timers).sort()).toEqual(['collect', 'scrub']);
    expect(second.carried!.pending).toEqual([]);
    expect(second.carried!.seen).toContain('ev-1');
    expect(second).toMatchObject({ processType: BLOB_MAINTENANCE_PROCESS, processId: BLOB_MAINTENANCE_ID });

    // the next run starts from the carried state (its own input count from 0) and keeps the rhythm
    temporal.world.dispatched = [];
    temporal.world.historyLength = 0;
    const third = await runUntilContinued(workflow(second));
    expect(temporal.world.dispatched.filter((c) => c === 'ScrubBlobs')).toHaveLength(2);
    expect(temporal.world.dispatched).toHaveLength(10);
    expect(third.carried!.instance).toMatchObject({ inputs: 20, state: { scrubs: 3, collections: 16 } });
  });

  it('continues as new when the history grows, whatever the number of inputs', async () => {
    const workflow = createProcessWorkflow(createProcessCatalog, { runLimits: { maxSteps: 1_000_000, maxHistoryEvents: 40 } });
    const next = await runUntilContinued(workflow(first));
    expect(temporal.world.historyLength).toBeGreaterThanOrEqual(40);
    // the first check past 40 events: about five events an input (a timer wait, a command)
    expect(temporal.world.historyLength).toBeLessThanOrEqual(45);
    expect(next.carried!.instance.inputs).toBeGreaterThan(1);
    expect(next.carried!.instance.inputs).toBeLessThanOrEqual(10);
  });
});

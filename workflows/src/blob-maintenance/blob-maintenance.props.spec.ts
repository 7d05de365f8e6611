import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../model/process';
import { simulate, type SimAction } from '../testing/simulate';
import { BLOB_MAINTENANCE_ID, COLLECT_TIMER, createBlobMaintenanceProcess, SCRUB_TIMER } from './blob-maintenance.process';

const HOUR = 3_600_000;
const T0 = new Date('2026-05-01T00:00:00.000Z');
const process = createBlobMaintenanceProcess();

const scheduled = (n: number, scrubEveryMs: number, collectEveryMs: number): SimAction => ({
  kind: 'event',
  event: {
    id: `e${n}`,
    type: 'BlobMaintenanceScheduled',
    data: { scrubEveryMs, collectEveryMs },
    streamName: 'blob-maintenance',
    position: n,
    correlationId: null,
  } satisfies ProcessEvent,
});

describe('blob maintenance process', () => {
  it('is one process for the installation, started by its schedule', () => {
    const event: ProcessEvent = { id: 'e', type: 'BlobMaintenanceScheduled', data: {}, streamName: 'blob-maintenance', position: 1, correlationId: null };
    expect(process.correlate(event)).toBe(BLOB_MAINTENANCE_ID);
    expect(process.correlate({ ...event, streamName: 'storage-s1' })).toBeNull();
  });

  it('asks for a scrub every scrub interval and a collection every collection interval; a new schedule re-times both', () => {
    const trace = simulate(process, BLOB_MAINTENANCE_ID, [scheduled(1, 24 * HOUR, 6 * HOUR), { kind: 'advance', ms: 25 * HOUR }], T0);
    expect(trace.commands.map((c) => c.command.type)).toEqual(['CollectBlobs', 'CollectBlobs', 'CollectBlobs', 'CollectBlobs', 'ScrubBlobs']);
    const retimed = simulate(
      process,
      BLOB_MAINTENANCE_ID,
      [scheduled(1, 24 * HOUR, 6 * HOUR), { kind: 'advance', ms: 5 * HOUR }, scheduled(2, 2 * HOUR, 2 * HOUR), { kind: 'advance', ms: 2 * HOUR }],
      T0,
    );
    expect(retimed.commands.map((c) => c.command.type).sort()).toEqual(['CollectBlobs', 'ScrubBlobs']);
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 48 }),
      fc.integer({ min: 1, max: 48 }),
      fc.array(
        fc.oneof(
          fc.record({ advance: fc.integer({ min: 1, max: 100 }) }),
          fc.record({ scrub: fc.integer({ min: 1, max: 48 }), collect: fc.integer({ min: 1, max: 48 }) }),
        ),
        { maxLength: 12 },
      ),
    ],
    { numRuns: 200 },
  )('never stops: both timers stay pending, each one interval after its last run or schedule', (scrub, collect, steps) => {
    const actions: SimAction[] = [scheduled(0, scrub * HOUR, collect * HOUR)];
    for (const [i, s] of steps.entries())
      actions.push('advance' in s ? { kind: 'advance', ms: s.advance * HOUR } : scheduled(i + 1, s.scrub * HOUR, s.collect * HOUR));
    const trace = simulate(process, BLOB_MAINTENANCE_ID, actions, T0);
    expect(trace.instance.done).toBe(false);
    expect(Object.keys(trace.instance.timers).sort()).toEqual([COLLECT_TIMER, SCRUB_TIMER]);
    const state = trace.instance.state;
    for (const [timer, every] of [
      [SCRUB_TIMER, state.scrubEveryMs!],
      [COLLECT_TIMER, state.collectEveryMs!],
    ] as const) {
      const runs = trace.steps
        .filter((s) => s.outcome === 'applied' && s.delivery.input.kind === 'timer' && s.delivery.input.name === timer)
        .map((s) => s.at.getTime());
      expect(runs.length).toBe(timer === SCRUB_TIMER ? state.scrubs : state.collections);
      // the pending timer is one interval (the current one) after the last run or the last schedule
      const lastSchedule = Math.max(...trace.steps.filter((s) => s.delivery.input.kind === 'event').map((s) => s.at.getTime()));
      expect(Date.parse(trace.instance.timers[timer]!.at)).toBe(Math.max(lastSchedule, ...runs) + every);
    }
    for (const c of trace.commands) expect(c.command).toMatchObject({ aggregate: 'blobs', aggregateId: BLOB_MAINTENANCE_ID });
  });
});

import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeKit } from '../testing/probe';
import type { ProcessRuntime, ProcessStatus } from './port';

/** What the contract needs from a runtime under test. */
export interface RuntimeHarness {
  readonly runtime: ProcessRuntime;
  readonly kit: ProbeKit;
  /** Pool on the database of the event store the kit writes to. */
  readonly pool: pg.Pool;
  /** The processes' "now". */
  now(): Date;
  /** Lets `ms` pass for the processes and makes the timers due by then fire. */
  elapse(ms: number): Promise<void>;
  /** False for runtimes whose clock cannot be controlled here: the 90-day case is skipped. */
  readonly canSkipTime: boolean;
  /** Real time a short wait should last so a duplicate would have shown up. */
  readonly settleMs: number;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60 * 1000;

export const waitFor = async <T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `ProbeRecorded` events per probe, read from the store's table. */
export const recordsOf = async (pool: pg.Pool, probeIds: readonly string[]): Promise<Map<string, string[]>> => {
  const { rows } = await pool.query<{ probe: string; what: string }>(
    `select data->>'probeId' as probe, data->>'what' as what from es_events
     where event_type = 'ProbeRecorded' and data->>'probeId' = any($1::text[]) order by position`,
    [probeIds],
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.probe, [...(out.get(r.probe) ?? []), r.what]);
  return out;
};

const countRecords = async (pool: pg.Pool, probeIds: readonly string[]) => {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) as n from es_events where event_type = 'ProbeRecorded' and data->>'probeId' = any($1::text[])`,
    [probeIds],
  );
  return Number(rows[0]!.n);
};

/**
 * The behaviour every process runtime must show, on a real event store: timers fire once, a
 * signal beats a timer and cancels it, long waits complete when time passes, and a thousand
 * processes at once each complete exactly once.
 */
export const runtimeContract = (name: string, makeHarness: () => Promise<RuntimeHarness>): void => {
  describe(`process runtime contract: ${name}`, () => {
    let h: RuntimeHarness;
    const run = randomBytes(3).toString('hex');
    let n = 0;
    const probeId = (label: string) => `${run}-${label}-${++n}`;

    beforeAll(async () => {
      h = await makeHarness();
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    }, 120_000);

    const statusOf = async (type: string, id: string): Promise<ProcessStatus | 'absent'> => (await h.runtime.getProcess(type, id))?.status ?? 'absent';

    const waitUntilWaiting = (type: string, id: string) =>
      waitFor(
        `${type} ${id} to wait on its timer`,
        () => h.runtime.getProcess(type, id),
        (p) => p?.nextTimer != null,
      );

    it('a timer fires once', async () => {
      const id = probeId('timer');
      await h.kit.start(id, 'timer', 2_000, h.now());
      await waitUntilWaiting('probe-timer', id);
      expect(await countRecords(h.pool, [id])).toBe(0);

      await h.elapse(2_500);
      await waitFor(
        'the timer command',
        () => countRecords(h.pool, [id]),
        (c) => c >= 1,
      );
      await waitFor(
        'completion',
        () => statusOf('probe-timer', id),
        (s) => s === 'completed',
      );
      await h.elapse(5_000);
      await sleep(h.settleMs);
      expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['fired']);
      const process = await h.runtime.getProcess('probe-timer', id);
      expect(process?.nextTimer).toBeNull();
      expect(process?.pendingCommands).toBe(0);
    });

    it('a signal before the timer wins and the timer is cancelled', async () => {
      const id = probeId('approval');
      await h.kit.start(id, 'approval', 5_000, h.now());
      await waitUntilWaiting('probe-approval', id);

      await h.runtime.signal('probe-approval', id, 'approve', { by: 'staff-1' });
      await waitFor(
        'approval',
        () => countRecords(h.pool, [id]),
        (c) => c >= 1,
      );
      await waitFor(
        'completion',
        () => statusOf('probe-approval', id),
        (s) => s === 'completed',
      );
      expect((await h.runtime.getProcess('probe-approval', id))?.nextTimer).toBeNull();

      await h.elapse(6_000);
      await sleep(h.settleMs);
      expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['approved']);
    }, 60_000);

    it('a timer that is not signalled times out', async () => {
      const id = probeId('timeout');
      await h.kit.start(id, 'approval', 1_000, h.now());
      await waitUntilWaiting('probe-approval', id);
      await h.elapse(1_500);
      await waitFor(
        'time-out',
        () => statusOf('probe-approval', id),
        (s) => s === 'completed',
      );
      // a signal after completion changes nothing
      await h.runtime.signal('probe-approval', id, 'approve').catch(() => undefined);
      await sleep(h.settleMs);
      expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['timed-out']);
    }, 60_000);

    it('a process waiting 90 days completes when the clock is advanced', async (ctx) => {
      if (!h.canSkipTime) ctx.skip();
      const id = probeId('ninety');
      await h.kit.start(id, 'timer', 90 * DAY, h.now());
      const waiting = await waitUntilWaiting('probe-timer', id);
      expect(Date.parse(waiting!.nextTimer!.at) - h.now().getTime()).toBeGreaterThan(89 * DAY);

      await h.elapse(89 * DAY);
      await sleep(h.settleMs);
      expect(await countRecords(h.pool, [id])).toBe(0);
      expect(await statusOf('probe-timer', id)).toBe('running');

      await h.elapse(1 * DAY + 1_000);
      await waitFor(
        'the 90-day timer',
        () => statusOf('probe-timer', id),
        (s) => s === 'completed',
      );
      expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['fired']);
    });

    it('1,000 concurrent processes all complete exactly once', async () => {
      const ids = Array.from({ length: 1_000 }, (_, i) => probeId(`many${i}`));
      // with a real clock the timers must not come due while the thousand are still starting
      const delay = h.canSkipTime ? 5_000 : 30_000;
      const queue = [...ids];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let id = queue.shift(); id; id = queue.shift()) await h.kit.start(id, 'timer', delay, h.now());
        }),
      );
      if (h.canSkipTime) {
        await waitFor(
          '1,000 processes waiting',
          async () =>
            (await h.runtime.listProcesses({ processType: 'probe-timer', status: 'running', limit: 5_000 })).filter(
              (p) => p.processId.startsWith(`${run}-many`) && p.nextTimer,
            ).length,
          (c) => c === 1_000,
          60_000,
        );
        expect(await countRecords(h.pool, ids)).toBe(0);
      }
      await h.elapse(delay + 1_000);
      await waitFor(
        '1,000 timer commands',
        () => countRecords(h.pool, ids),
        (c) => c >= 1_000,
        90_000,
      );
      await waitFor(
        '1,000 completions',
        async () =>
          (await h.runtime.listProcesses({ processType: 'probe-timer', status: 'completed', limit: 10_000 })).filter((p) =>
            p.processId.startsWith(`${run}-many`),
          ).length,
        (c) => c === 1_000,
        90_000,
      );
      await sleep(h.settleMs);
      const records = await recordsOf(h.pool, ids);
      expect(records.size).toBe(1_000);
      const notOnce = [...records].filter(([, whats]) => whats.length !== 1);
      expect(notOnce).toEqual([]);
      expect(await countRecords(h.pool, ids)).toBe(1_000);
    }, 300_000);
  });
};

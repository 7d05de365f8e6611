import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedHarness, type EmbeddedHarness } from '../testing/embedded-harness';
import { probeStream, SEQUENCE_TIMERS } from '../testing/probe';
import { recordsOf, runtimeContract, waitFor } from './runtime.contract';

runtimeContract('embedded (PostgreSQL + graphile-worker)', () => createEmbeddedHarness());

describe('embedded runtime', () => {
  let h: EmbeddedHarness;
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const probeId = (label: string) => `${run}-${label}-${++n}`;

  beforeAll(async () => {
    h = await createEmbeddedHarness({ maxAttempts: 2 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const status = async (type: string, id: string) => (await h.runtime.getProcess(type, id))?.status;

  it('commands carry the process as actor, the triggering event as causation and a deterministic id', async () => {
    const id = probeId('meta');
    await h.kit.start(id, 'immediate', 0, h.now());
    await waitFor(
      'completion',
      () => status('probe-immediate', id),
      (s) => s === 'completed',
    );
    const { events } = await h.store.readStream(probeStream(id));
    expect(events.map((e) => e.type)).toEqual(['ProbeStarted', 'ProbeRecorded']);
    const [started, recorded] = events;
    expect(recorded!.metadata).toMatchObject({
      actorKind: 'process',
      actorId: `probe-immediate:${id}`,
      causationId: started!.id,
      correlationId: started!.metadata.correlationId,
    });
    const history = await h.runtime.history('probe-immediate', id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ kind: 'event', inputId: started!.id, outcome: 'applied' });
    expect(history[0]!.commands[0]!.position).toBe(recorded!.position);
  });

  it('a failing command is retried with backoff and then applied once', async () => {
    const id = probeId('flaky');
    h.kit.faults.failNext(id, 1);
    await h.kit.start(id, 'immediate', 0, h.now());
    await waitFor(
      'the failure to be recorded',
      () => h.runtime.getProcess('probe-immediate', id),
      (p) => p?.lastError != null,
    );
    expect((await h.runtime.getProcess('probe-immediate', id))?.status).toBe('running');
    // graphile-worker's backoff: exp(1) ≈ 2.7 s before the second attempt
    await waitFor(
      'the retry',
      () => status('probe-immediate', id),
      (s) => s === 'completed',
      15_000,
    );
    expect(h.kit.faults.attempts.get(id)).toBe(2);
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['immediate']);
    expect((await h.runtime.getProcess('probe-immediate', id))?.lastError).toBeNull();
  }, 20_000);

  it('a command sent when a timer fires that fails once is retried by a drain job', async () => {
    const id = probeId('timer-flaky');
    h.kit.faults.failNext(id, 1);
    await h.kit.start(id, 'timer', 1_000, h.now());
    await waitFor(
      'waiting',
      () => h.runtime.getProcess('probe-timer', id),
      (p) => p?.nextTimer != null,
    );
    await h.elapse(1_000);
    await waitFor(
      'the failure',
      () => h.runtime.getProcess('probe-timer', id),
      (p) => p?.lastError != null,
    );
    await waitFor(
      'the retry',
      () => status('probe-timer', id),
      (s) => s === 'completed',
      15_000,
    );
    expect(h.kit.faults.attempts.get(id)).toBe(2);
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['fired']);
  }, 20_000);

  it('after the last attempt the process is dead-lettered; a staff retry completes it once', async () => {
    const id = probeId('dead');
    h.kit.faults.failNext(id, 2);
    await h.kit.start(id, 'immediate', 0, h.now());
    await waitFor(
      'dead letter',
      () => status('probe-immediate', id),
      (s) => s === 'dead_letter',
      15_000,
    );
    const dead = await h.runtime.listProcesses({ status: 'dead_letter' });
    expect(dead.map((p) => p.processId)).toContain(id);
    expect(dead.find((p) => p.processId === id)).toMatchObject({ pendingCommands: 1, lastError: 'Error: injected failure' });
    expect(await recordsOf(h.pool, [id])).toEqual(new Map());

    expect(await h.runtime.retry('probe-immediate', id)).toBe(true);
    await waitFor(
      'completion',
      () => status('probe-immediate', id),
      (s) => s === 'completed',
    );
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['immediate']);
    expect(await h.runtime.retry('probe-immediate', id)).toBe(false);
  }, 20_000);

  it('a domain error dead-letters at once, and inputs that arrive meanwhile wait for the retry', async () => {
    const id = probeId('reject');
    h.kit.faults.failAlways(id);
    await h.kit.start(id, 'approval', 0, h.now());
    // the 'timeout' timer (0 ms) fires at once and its command is rejected
    await waitFor(
      'dead letter',
      () => status('probe-approval', id),
      (s) => s === 'dead_letter',
    );
    expect(h.kit.faults.attempts.get(id)).toBe(1);
    h.kit.faults.heal(id);
    expect(await h.runtime.retry('probe-approval', id)).toBe(true);
    await waitFor(
      'completion',
      () => status('probe-approval', id),
      (s) => s === 'completed',
    );
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['timed-out']);
  });

  it('signals to a dead-lettered process are parked and applied in order on retry', async () => {
    const id = probeId('parked');
    await h.kit.start(id, 'approval', 60_000, h.now());
    await waitFor(
      'waiting',
      () => h.runtime.getProcess('probe-approval', id),
      (p) => p?.nextTimer != null,
    );
    // dead-letter it by hand, as a failed command would
    await h.pool.query(`update wf_processes set status = 'dead_letter', last_error = 'test' where process_id = $1`, [id]);
    await h.runtime.signal('probe-approval', id, 'approve', null, { signalId: `approve-${id}` });
    await h.runtime.signal('probe-approval', id, 'approve', null, { signalId: `approve-${id}` });
    const parked = await h.runtime.history('probe-approval', id);
    expect(parked.map((e) => e.outcome)).toEqual(['applied', 'parked']);
    expect(await recordsOf(h.pool, [id])).toEqual(new Map());
    await h.runtime.retry('probe-approval', id);
    await waitFor(
      'completion',
      () => status('probe-approval', id),
      (s) => s === 'completed',
    );
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['approved']);
  });

  it('events delivered again (checkpoint lost) are not applied twice', async () => {
    const id = probeId('replay');
    await h.kit.start(id, 'immediate', 0, h.now());
    await waitFor(
      'completion',
      () => status('probe-immediate', id),
      (s) => s === 'completed',
    );
    await h.pool.query(`update wf_checkpoints set position = 0`);
    const runtime = await h.restart();
    await runtime.whenIdle();
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['immediate']);
    expect(await runtime.history('probe-immediate', id)).toHaveLength(1);
  });

  it('a timer that came due while the runtime was stopped fires after the restart', async () => {
    const id = probeId('down');
    await h.kit.start(id, 'timer', 1_000, h.now());
    await waitFor(
      'waiting',
      () => h.runtime.getProcess('probe-timer', id),
      (p) => p?.nextTimer != null,
    );
    await h.runtime.stop();
    h.clock.advanceBy(5_000);
    // graphile's job is due in ~1 s of real time: let it pass while nothing runs
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await recordsOf(h.pool, [id])).toEqual(new Map());
    const runtime = await h.restart();
    await waitFor(
      'completion',
      () => runtime.getProcess('probe-timer', id),
      (p) => p?.status === 'completed',
    );
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual(['fired']);
  });

  it('timers that came due together fire in the order of their times, whatever order their jobs run in', async () => {
    const id = probeId('sequence');
    await h.kit.start(id, 'sequence', 1_000, h.now());
    await waitFor(
      'waiting',
      () => h.runtime.getProcess('probe-sequence', id),
      (p) => p?.nextTimer != null,
    );
    // the clock jumps past all three (as after a stop of the server): their jobs are made due at once,
    // in the order PostgreSQL lists the timers (by name length: the last first), so without the runtime
    // putting the earliest first this records them backwards
    h.clock.advanceBy(10_000);
    await h.runtime.fireDueTimers();
    await waitFor(
      'completion',
      () => h.runtime.getProcess('probe-sequence', id),
      (p) => p?.status === 'completed',
    );
    expect((await recordsOf(h.pool, [id])).get(id)).toEqual([...SEQUENCE_TIMERS]);
  });

  it('signalling an unknown process fails', async () => {
    await expect(h.runtime.signal('probe-approval', 'nope', 'approve')).rejects.toThrow(/No probe-approval process nope/);
  });
});

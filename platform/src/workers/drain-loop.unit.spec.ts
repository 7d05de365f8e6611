import { describe, expect, it } from 'vitest';
import { DrainLoop } from './drain-loop';

const tick = () => new Promise((r) => setImmediate(r));

describe('DrainLoop', () => {
  it('never runs two drains at once, and kicks during a drain make exactly one more', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const gates: (() => void)[] = [];
    const loop = new DrainLoop(
      async () => {
        active++;
        most = Math.max(most, active);
        runs++;
        await new Promise<void>((r) => gates.push(r));
        active--;
      },
      { intervalMs: 60_000, onError: () => undefined },
    );
    loop.start();
    for (let i = 0; i < 5; i++) loop.kick();
    expect(runs).toBe(1);
    gates.shift()!();
    await tick();
    await tick();
    expect(runs).toBe(2);
    gates.shift()!();
    await tick();
    await tick();
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await loop.stop();
  });

  it('stop waits for the running drain and later kicks do nothing; a failing drain is reported and the loop goes on', async () => {
    const errors: unknown[] = [];
    let release!: () => void;
    let finished = false;
    let runs = 0;
    const loop = new DrainLoop(
      async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
        await new Promise<void>((r) => {
          release = r;
        });
        finished = true;
      },
      { intervalMs: 60_000, onError: (e) => errors.push(e) },
    );
    loop.start();
    await tick();
    expect(errors).toHaveLength(1);
    loop.kick();
    const stopping = loop.stop();
    expect(loop.isStopped()).toBe(true);
    release();
    await stopping;
    expect(finished).toBe(true);
    loop.kick();
    expect(runs).toBe(2);
  });
});

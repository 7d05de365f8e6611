import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PasswordWorkGate, type PasswordLane } from './passwords';

/** Work that ends when the test says so. */
const pending = () => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('password work gate', () => {
  it('never runs more than its concurrency, queues up to its bound per lane, and refuses the rest with RATE_LIMITED', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.constantFrom<PasswordLane>('normal', 'trusted'), { maxLength: 30 }),
        async (concurrency, bound, lanes) => {
          const gate = new PasswordWorkGate(concurrency, { normal: bound, trusted: bound });
          let running = 0;
          let most = 0;
          const works = lanes.map(() => pending());
          const results = lanes.map((lane, i) =>
            gate
              .run(async () => {
                running++;
                most = Math.max(most, running);
                await works[i]!.done;
                running--;
              }, lane)
              .then(
                () => 'done',
                (error: { code?: string }) => error.code,
              ),
          );
          await tick();
          const admitted = concurrency + 2 * bound;
          expect(gate.stats.running).toBe(Math.min(concurrency, lanes.length));
          for (const work of works) work.finish();
          const outcomes = await Promise.all(results);
          expect(most).toBeLessThanOrEqual(concurrency);
          expect(outcomes.filter((o) => o !== 'done' && o !== 'RATE_LIMITED')).toEqual([]);
          expect(outcomes.filter((o) => o === 'done').length).toBeLessThanOrEqual(admitted);
          expect(gate.stats).toEqual({ running: 0, queued: 0 });
        },
      ),
    );
  });

  it('serves the trusted lane first', async () => {
    const gate = new PasswordWorkGate(1, { normal: 10, trusted: 10 });
    const order: string[] = [];
    const first = pending();
    const running = gate.run(() => first.done);
    const queued = [
      gate.run(async () => void order.push('normal-1'), 'normal'),
      gate.run(async () => void order.push('normal-2'), 'normal'),
      gate.run(async () => void order.push('trusted'), 'trusted'),
    ];
    first.finish();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['trusted', 'normal-1', 'normal-2']);
  });
});

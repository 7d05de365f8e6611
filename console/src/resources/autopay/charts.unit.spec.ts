import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barLayout, figuresIn, seriesIn } from './charts';

describe('dashboard charts', () => {
  it('finds the series and figures of a dashboard answer', () => {
    const answer = {
      wallets: 3,
      treasury: { address: 'x', confirmed: '12.5', unconfirmed: '0' },
      development: true,
      perDay: [
        { date: '2026-11-01', count: 2 },
        { date: '2026-11-02', count: 5 },
      ],
      byStatus: [{ status: 'paid', total: '1.5' }],
    };
    expect(seriesIn(answer)).toEqual([
      {
        name: 'perDay',
        points: [
          { label: '2026-11-01', value: 2 },
          { label: '2026-11-02', value: 5 },
        ],
      },
      { name: 'byStatus', points: [{ label: 'paid', value: 1.5 }] },
    ]);
    expect(figuresIn(answer)).toEqual([
      { key: 'wallets', value: '3' },
      { key: 'treasury.confirmed', value: '12.5' },
      { key: 'treasury.unconfirmed', value: '0' },
      { key: 'development', value: 'yes' },
    ]);
  });

  it('keeps every bar inside the box, the tallest one full height', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ label: fc.string(), value: fc.integer({ min: -5, max: 1_000_000 }) }), { minLength: 1, maxLength: 40 }), (points) => {
        const bars = barLayout(points, 600, 200);
        expect(bars).toHaveLength(points.length);
        for (const b of bars) {
          expect(b.height).toBeGreaterThanOrEqual(0);
          expect(b.height).toBeLessThanOrEqual(200 + 1e-9);
          expect(b.y + b.height).toBeCloseTo(200);
        }
        const max = Math.max(...points.map((p) => p.value));
        if (max > 0) expect(Math.max(...bars.map((b) => b.height))).toBeCloseTo(200);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { barWidths, byPlan, formatUsd } from './billingDashboard';

describe('billing dashboard', () => {
  it('adds the monthly and yearly products of a plan into one bar, largest first', () => {
    const rows = [
      { productName: 'Professional', amount: 1999 },
      { productName: 'Starter', amount: 999 },
      { productName: 'Professional', amount: 19990 },
    ];
    expect(
      byPlan(
        rows,
        (r) => r.productName,
        (r) => r.amount,
      ),
    ).toEqual([
      { label: 'Professional', value: 21989 },
      { label: 'Starter', value: 999 },
    ]);
  });

  it('writes cents as dollars without floats', () => {
    expect(formatUsd(21989)).toBe('$219.89');
    expect(formatUsd(123456789)).toBe('$1,234,567.89');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('scales bars to the largest', () => {
    expect(
      barWidths([
        { label: 'a', value: 50 },
        { label: 'b', value: 25 },
      ]),
    ).toEqual([100, 50]);
    expect(barWidths([{ label: 'a', value: 0 }])).toEqual([0]);
    expect(barWidths([])).toEqual([]);
  });
});

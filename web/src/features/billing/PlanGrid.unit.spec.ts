import { describe, expect, it } from 'vitest';
import type { Product } from './billing.types';
import { plansFor } from './PlanGrid';

const GB = 1024 ** 3;
const plan = (id: number, name: string, quotaGb: number | null, price: number, weight: number): Product => ({
  id,
  name,
  type: 'plan',
  price,
  currency: 'USD',
  cycle: 'monthly',
  weight,
  parentId: null,
  status: 'active',
  quotaBytes: quotaGb === null ? null : quotaGb * GB,
});

describe('plansFor', () => {
  const premium = plan(1, 'Premium', 10, 499, 30);
  const starter = plan(2, 'Starter', 100, 999, 20);
  const professional = plan(3, 'Professional', 1000, 1999, 40);
  const cheaperTwin = plan(4, 'Starter lite', 100, 799, 25);
  const unlimited = plan(5, 'Enterprise', null, 9999, 50);

  it('orders plans by storage, then price, whatever their weight', () => {
    expect(plansFor([unlimited, professional, starter, premium, cheaperTwin], 'monthly').map((p) => p.name)).toEqual([
      'Premium',
      'Starter lite',
      'Starter',
      'Professional',
      'Enterprise',
    ]);
  });

  it('keeps only heavier plans for an upgrade, still ordered by storage', () => {
    expect(plansFor([premium, starter, professional], 'monthly', 10).map((p) => p.name)).toEqual(['Premium', 'Starter', 'Professional']);
    expect(plansFor([premium, starter, professional], 'monthly', 20).map((p) => p.name)).toEqual(['Premium', 'Professional']);
  });
});

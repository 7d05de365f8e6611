import { describe, expect, it } from 'vitest';
import type { PlanInfo, Product } from './billing.types';
import { canUnsubscribeSlots, groupPlanFor, slotProductFor, validSlotQuantity } from './slots';

const product = (id: number, name: string, type: Product['type'], cycle: Product['cycle'], parentId: number | null = null): Product => ({
  id,
  name,
  type,
  price: 400,
  currency: 'USD',
  cycle,
  weight: 0,
  parentId,
  status: 'active',
  quotaBytes: null,
});
const PRODUCTS: Product[] = [
  product(1, 'Basic', 'free-plan', null),
  product(300, 'Group', 'plan', 'monthly'),
  product(301, 'Group', 'plan', 'yearly'),
  product(500, 'Team', 'plan', 'monthly'),
  product(501, 'Team', 'plan', 'yearly'),
  product(320, 'Extra Group account', 'extra-members', 'monthly', 300),
  product(321, 'Extra Group account', 'extra-members', 'yearly', 300),
  product(520, 'Extra Team member', 'extra-members', 'monthly', 500),
  product(521, 'Extra Team member', 'extra-members', 'yearly', 500),
];
const plan = (productId: number, productName: string): PlanInfo => ({ productId, productName, quotaBytes: null, startDate: null, paymentDelay: false });

describe('extra member slots', () => {
  it('offers the slots of the plan the user is on, in the chosen cycle, whichever cycle the plan runs', () => {
    expect(slotProductFor(PRODUCTS, plan(500, 'Team'), 'monthly')?.id).toBe(520);
    expect(slotProductFor(PRODUCTS, plan(501, 'Team'), 'yearly')?.id).toBe(521);
    expect(slotProductFor(PRODUCTS, plan(301, 'Group'), 'monthly')?.id).toBe(320);
    expect(slotProductFor(PRODUCTS, plan(1, 'Basic'), 'monthly')).toBeNull();
    expect(slotProductFor(PRODUCTS, plan(999, 'Unknown'), 'monthly')).toBeNull();
  });

  it('buys a whole number of slots from 1 to 100', () => {
    expect(validSlotQuantity('3')).toBe(3);
    expect(validSlotQuantity(' 100 ')).toBe(100);
    for (const bad of ['0', '101', '2.5', '-1', '', 'two', '1e2']) expect(validSlotQuantity(bad), bad).toBeNull();
  });

  it('unsubscribing slots needs enough unused slots: the seats left must still hold every member using one', () => {
    expect(canUnsubscribeSlots(3, 0, 2)).toBe(true);
    expect(canUnsubscribeSlots(3, 1, 2)).toBe(true);
    expect(canUnsubscribeSlots(3, 2, 2)).toBe(false);
    expect(canUnsubscribeSlots(1, 0, 2)).toBe(false);
  });

  it('the group page sells the Group plan of the chosen cycle', () => {
    expect(groupPlanFor(PRODUCTS, 'monthly')?.id).toBe(300);
    expect(groupPlanFor(PRODUCTS, 'yearly')?.id).toBe(301);
    expect(
      groupPlanFor(
        PRODUCTS.filter((p) => p.name !== 'Group'),
        'monthly',
      ),
    ).toBeNull();
  });
});

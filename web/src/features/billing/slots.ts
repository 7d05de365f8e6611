import type { BillingCycle, PlanInfo, Product } from './billing.types';

/** Slots bought at once: the API takes 1 to 100. */
export const MAX_SLOTS_AT_ONCE = 100;

/** The plan product the user is on, by id or else by name (a yearly plan shares its monthly one's name). */
const currentPlanProduct = (products: readonly Product[], plan: PlanInfo): Product | undefined =>
  products.find((p) => p.id === plan.productId) ?? products.find((p) => p.name === plan.productName && p.type !== 'extra-members');

/**
 * The extra member slot products for the user's plan in a cycle: those whose parent plan is the
 * user's (by name, so the yearly plan finds the slots its monthly sibling is the parent of).
 */
export const slotProductFor = (products: readonly Product[], plan: PlanInfo, cycle: BillingCycle): Product | null => {
  const current = currentPlanProduct(products, plan);
  if (!current) return null;
  return (
    products.find((p) => {
      if (p.type !== 'extra-members' || p.cycle !== cycle) return false;
      const parent = products.find((q) => q.id === p.parentId);
      return parent !== undefined && (parent.id === current.id || parent.name === current.name);
    }) ?? null
  );
};

/** Whether a slot count can be bought: a whole number from 1 to 100. */
export const validSlotQuantity = (value: string): number | null => {
  if (!/^\d{1,3}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= 1 && n <= MAX_SLOTS_AT_ONCE ? n : null;
};

/**
 * The specification's rule for unsubscribing extra slots: it needs enough unused slots, so the
 * seats left after giving these up still hold every member who uses one.
 */
export const canUnsubscribeSlots = (freeSeats: number, membersUsingSeats: number, quantity: number): boolean => freeSeats - quantity >= membersUsingSeats;

/** The Group plan of a cycle, as sold on `/storages/group`. */
export const groupPlanFor = (products: readonly Product[], cycle: BillingCycle): Product | null =>
  products.find((p) => p.type === 'plan' && p.name === 'Group' && p.cycle === cycle) ?? null;

/** `GET /api/admin/billing/dashboard`, and the bars the charts draw from it. */
export interface BillingDashboardData {
  revenueByPlan: { productId: number; productName: string; cycle: string | null; amount: number; payments: number }[];
  activeSubscriptions: { productId: number; productName: string; count: number }[];
  usersInGrace: number;
  unpaidUsers: number;
  currency: string;
}

export interface Bar {
  label: string;
  value: number;
}

/** Monthly and yearly products of one plan are one bar: the chart is about plans, not price lists. */
export const byPlan = <T>(rows: readonly T[], name: (row: T) => string, value: (row: T) => number): Bar[] => {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(name(row), (sums.get(name(row)) ?? 0) + value(row));
  return [...sums].map(([label, v]) => ({ label, value: v })).sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
};

/** Cents as dollars, with integer arithmetic only. */
export const formatUsd = (cents: number): string => {
  const whole = Math.trunc(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
};

/** Bar widths as a share of the largest, in whole percent; an all-zero chart has empty bars. */
export const barWidths = (bars: readonly Bar[]): number[] => {
  const max = Math.max(0, ...bars.map((b) => b.value));
  return bars.map((b) => (max === 0 ? 0 : Math.round((b.value * 100) / max)));
};

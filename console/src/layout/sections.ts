/** Menu sections that are not built yet; each gets a custom route showing "Not available yet". */
export const PENDING_SECTIONS = [
  { path: 'databases', label: 'console.menu.databases' },
  { path: 'grafana', label: 'console.menu.grafana' },
] as const;
export type PendingSection = (typeof PENDING_SECTIONS)[number];

/**
 * Where each dashboard figure leads: the users behind it (the users list filtered the same way,
 * or one user's page) or the events behind it (the activity log narrowed to their types and time).
 */

/** The users list with a react-admin filter in its address. */
export const usersWhere = (basename: string, filter: Readonly<Record<string, string>>): string =>
  `${basename}/users?${new URLSearchParams({ filter: JSON.stringify(filter) })}`;

/** One user's page. */
export const userPage = (basename: string, id: string): string => `${basename}/users/${encodeURIComponent(id)}/show`;

/** The activity log narrowed to event types, from an instant and until another when given. */
export const eventsOf = (basename: string, types: readonly string[], window: { from?: Date; to?: Date } = {}): string => {
  const params = new URLSearchParams({ type: types.join(',') });
  if (window.from) params.set('from', window.from.toISOString());
  if (window.to) params.set('to', window.to.toISOString());
  return `${basename}/activity?${params}`;
};

/** A `YYYY-MM` month, as the instants it starts and ends at (UTC). */
export const monthWindow = (month: string): { from: Date; to: Date } | null => {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return null;
  const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  const to = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1) - 1);
  return { from, to };
};

/** The instant `days` before `now`. */
export const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * 86_400_000);

/** Bytes in a unit people read (B, KB, MB, GB, TB; powers of 1024). */
export const readableBytes = (bytes: number): string => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
};

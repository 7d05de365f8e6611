/**
 * The status chips of a user, most serious first. The account's `status` alone hides a block, a
 * sign-in lock and a deletion (a blocked user's status stays `active`), so each gets its own chip.
 */
export type StatusChipKind = 'deleted' | 'suspended' | 'blocked' | 'locked' | 'active' | 'inactive' | 'unpaid' | 'abandoned' | 'unknown';

export interface StatusChip {
  readonly kind: StatusChipKind;
  readonly color: 'success' | 'error' | 'warning' | 'default';
  /** Translation key of the chip's text. */
  readonly label: string;
  /** For a block or lock with an end: when it ends. */
  readonly until?: string;
}

const COLORS: Record<StatusChipKind, StatusChip['color']> = {
  deleted: 'default',
  suspended: 'error',
  blocked: 'error',
  locked: 'warning',
  active: 'success',
  inactive: 'default',
  unpaid: 'warning',
  abandoned: 'warning',
  unknown: 'default',
};

const chip = (kind: StatusChipKind, until?: string): StatusChip => ({
  kind,
  color: COLORS[kind],
  label: `resources.users.statuses.${kind}`,
  ...(until ? { until } : {}),
});

const future = (value: unknown, now: number): value is string => typeof value === 'string' && Date.parse(value) > now;

interface UserStatusFields {
  readonly status?: unknown;
  readonly blocked?: unknown;
  readonly blockedUntil?: unknown;
  readonly lockedUntil?: unknown;
  readonly deletedAt?: unknown;
}

/**
 * Deleted outranks everything; suspended, blocked and locked can hold together and each shows;
 * "Active" shows only when nothing stops the user from signing in.
 */
export const statusChips = (user: object | undefined, now = Date.now()): StatusChip[] => {
  const u = (user ?? {}) as UserStatusFields;
  if (typeof u.deletedAt === 'string' && u.deletedAt) return [chip('deleted')];
  const chips: StatusChip[] = [];
  if (u.status === 'suspended') chips.push(chip('suspended'));
  const blocked = typeof u.blocked === 'boolean' ? u.blocked : future(u.blockedUntil, now);
  if (blocked) chips.push(chip('blocked', future(u.blockedUntil, now) ? u.blockedUntil : undefined));
  if (future(u.lockedUntil, now)) chips.push(chip('locked', u.lockedUntil));
  if (chips.length > 0) return chips;
  const status = typeof u.status === 'string' ? u.status : '';
  const known: readonly StatusChipKind[] = ['active', 'inactive', 'unpaid', 'abandoned'];
  return [known.includes(status as StatusChipKind) ? chip(status as StatusChipKind) : chip('unknown')];
};

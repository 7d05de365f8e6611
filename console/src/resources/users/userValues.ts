/** How the admin view shows values whose shape the API leaves open (plan, storages, partners, ...). */
export const NONE = '—';

const formatObject = (value: Record<string, unknown>): string => {
  const name = value.name ?? value.title ?? value.productName ?? value.type ?? value.id;
  const used = value.sizeUsed;
  const total = value.sizeTotal;
  if (name !== undefined && name !== null) {
    const size = typeof used === 'number' && typeof total === 'number' ? ` ${formatBytes(used)} / ${formatBytes(total)}` : '';
    return `${String(name)}${size}`;
  }
  return JSON.stringify(value);
};

export const formatValue = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return NONE;
  if (Array.isArray(value)) return value.length ? value.map(formatValue).join(', ') : NONE;
  if (typeof value === 'object') return formatObject(value as Record<string, unknown>);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
};

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
export const formatBytes = (bytes: number): string => {
  if (!Number.isFinite(bytes) || bytes < 0) return String(bytes);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
};

/** Blocked when the API says so, or when a block end date lies in the future. */
export const isBlocked = (user: object | undefined, now = Date.now()): boolean => {
  const record = user as { blocked?: unknown; blockedUntil?: unknown } | undefined;
  if (!record) return false;
  if (typeof record.blocked === 'boolean') return record.blocked;
  return typeof record.blockedUntil === 'string' && Date.parse(record.blockedUntil) > now;
};

export const isSuspended = (user: object | undefined): boolean => (user as { status?: unknown } | undefined)?.status === 'suspended';

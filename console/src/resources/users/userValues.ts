import { formatSize } from '@axel/domain/shared/sizes';

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

/** Sizes as the web app and the plans write them: 100 GB is 10^11 bytes. */
export const formatBytes = (bytes: number): string => formatSize(bytes) ?? String(bytes);

/** Blocked when the API says so, or when a block end date lies in the future. */
export const isBlocked = (user: object | undefined, now = Date.now()): boolean => {
  const record = user as { blocked?: unknown; blockedUntil?: unknown } | undefined;
  if (!record) return false;
  if (typeof record.blocked === 'boolean') return record.blocked;
  return typeof record.blockedUntil === 'string' && Date.parse(record.blockedUntil) > now;
};

export const isSuspended = (user: object | undefined): boolean => (user as { status?: unknown } | undefined)?.status === 'suspended';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/**
 * A size as people read it everywhere in the product (web app, console, activity log): decimal
 * units, as plans and quotas count them (100 GB is 10^11 bytes), at most one decimal and none from
 * 100 up, in the language's number format. Null for a value that is no size.
 */
export const formatSize = (bytes: number, localeTag = 'en-US'): string | null => {
  if (!Number.isFinite(bytes) || bytes < 0) return null;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(localeTag, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
};

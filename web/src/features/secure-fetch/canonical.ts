/**
 * Canonical JSON as the server writes it for certificates and receipts (RFC 8785 for the values
 * they hold): object keys sorted, no whitespace, members with an undefined value left out, arrays
 * in order. The browser recomputes it to check a certificate's own fingerprint.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new Error(`canonical JSON cannot hold a ${typeof value}`);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON has no non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
};

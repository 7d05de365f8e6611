import { describe, expect, it } from 'vitest';
import { formatBytes, formatValue, isBlocked, isSuspended } from './userValues';

describe('admin view value formatting', () => {
  it('shows a dash for empty values', () => {
    for (const v of [null, undefined, '', []]) expect(formatValue(v)).toBe('—');
  });

  it('joins lists and names objects', () => {
    expect(formatValue(['password', 'google'])).toBe('password, google');
    expect(formatValue({ id: 's1', name: 'My files', sizeUsed: 1500, sizeTotal: 100_000_000_000 })).toBe('My files 1.5 KB / 100 GB');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
    expect(formatValue(true)).toBe('Yes');
    expect(formatBytes(512)).toBe('512 B');
  });
});

describe('user state', () => {
  it('reads blocked from the flag, else from a future blockedUntil', () => {
    const now = Date.parse('2025-06-01T00:00:00Z');
    expect(isBlocked({ blocked: true, blockedUntil: null }, now)).toBe(true);
    expect(isBlocked({ blocked: false, blockedUntil: '2030-01-01T00:00:00Z' }, now)).toBe(false);
    expect(isBlocked({ blockedUntil: '2030-01-01T00:00:00Z' }, now)).toBe(true);
    expect(isBlocked({ blockedUntil: '2020-01-01T00:00:00Z' }, now)).toBe(false);
    expect(isBlocked(undefined, now)).toBe(false);
  });

  it('reads suspension from the status', () => {
    expect(isSuspended({ status: 'suspended' })).toBe(true);
    expect(isSuspended({ status: 'active' })).toBe(false);
  });
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { GB } from '@axel/domain/billing/billing.catalogue';
import { formatMoney, formatStorage, yearlySavingPercent } from './money';

describe('money from minor units', () => {
  it('writes cents exactly in each locale', () => {
    expect(formatMoney(999, 'USD', 'en_us')).toBe('$9.99');
    expect(formatMoney(1999, 'usd', 'en_us')).toBe('$19.99');
    expect(formatMoney(40000, 'USD', 'en_us')).toBe('$400.00');
    expect(formatMoney(99, 'USD', 'nl')).toMatch(/US\$\s?0,99|\$\s?0,99/);
    expect(formatMoney(0, 'USD', 'en_us')).toBe('$0.00');
  });

  test.prop([fc.integer({ min: 0, max: 10_000_000_000 })])('never loses a cent, however large', (minor) => {
    const written = formatMoney(minor, 'USD', 'en_us').replace(/[$,]/g, '');
    const [whole, cents] = written.split('.');
    expect(BigInt(whole!) * 100n + BigInt(cents!)).toBe(BigInt(minor));
  });

  it('storage as plans are sold', () => {
    expect(formatStorage(500 * GB, 'en_us')).toBe('500 GB');
    expect(formatStorage(1000 * GB, 'en_us')).toBe('1 TB');
    expect(formatStorage(10 * GB, 'en_us')).toBe('10 GB');
    expect(formatStorage(GB / 2, 'en_us')).toBe('500 MB');
  });

  it('the yearly saving of the specification (about 16.6%)', () => {
    expect(yearlySavingPercent(999, 9999)).toBe(16.6);
    expect(yearlySavingPercent(0, 0)).toBe(0);
    expect(yearlySavingPercent(1000, 12000)).toBe(0);
  });
});

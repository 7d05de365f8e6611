import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayAxel, formatAxel, parseAxel, toUnits } from './amounts';

describe('AXEL amounts', () => {
  it('reads decimal strings of AXEL into base units', () => {
    expect(parseAxel('0.003')).toBe(300_000n);
    expect(parseAxel('1')).toBe(100_000_000n);
    expect(parseAxel('12.5')).toBe(1_250_000_000n);
    expect(parseAxel('0.00000001')).toBe(1n);
    expect(parseAxel(' 2. ')).toBe(200_000_000n);
  });

  it('refuses what is not a plain amount of at most 8 decimals', () => {
    for (const bad of ['', '.5', '-1', '1e3', '0.000000001', '1,5', 'abc', '1.2.3', 'NaN', 'Infinity', '0x10']) {
      expect(parseAxel(bad), bad).toBeNull();
    }
  });

  it('formats base units as the shortest decimal string', () => {
    expect(formatAxel(300_000n)).toBe('0.003');
    expect(formatAxel(900_000n)).toBe('0.009');
    expect(formatAxel(0n)).toBe('0');
    expect(formatAxel(-150_000_000n)).toBe('-1.5');
  });

  it('round-trips every amount of base units through its text', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 21_000_000n * 100_000_000n }), (units) => {
        expect(parseAxel(formatAxel(units))).toBe(units);
      }),
    );
  });

  it('adds amounts exactly where floats would not', () => {
    const sum = (parseAxel('0.1') ?? 0n) + (parseAxel('0.2') ?? 0n);
    expect(formatAxel(sum)).toBe('0.3');
  });

  it('reads API amounts given as signed strings or numbers', () => {
    expect(toUnits('-0.5')).toBe(-50_000_000n);
    expect(toUnits('+0.5')).toBe(50_000_000n);
    expect(toUnits(0.003)).toBe(300_000n);
    expect(toUnits(null)).toBeNull();
    expect(toUnits('x')).toBeNull();
  });

  it('displays amounts with the locale marks', () => {
    expect(displayAxel('1234567.5', 'en-US')).toBe('1,234,567.5');
    expect(displayAxel('1234567.5', 'nl-NL')).toBe('1.234.567,5');
    expect(displayAxel('-0.003', 'en-US')).toBe('-0.003');
    expect(displayAxel(undefined)).toBe('—');
  });
});

describe('pinning costs', () => {
  it('adds the certificate to the fetch in base units: 0.003 + 0.006 = 0.009', async () => {
    const { costLines } = await import('./PaymentSection');
    expect(costLines({ fetch: '0.003', certificate: '0.006' })).toEqual({ secureFetch: '0.003', certificate: '0.006', total: '0.009' });
  });
});

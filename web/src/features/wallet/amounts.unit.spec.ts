import { describe, expect, it } from 'vitest';
import { displayAxel, formatAxel, parseAxel, toUnits } from './amounts';

describe('AXEL amounts in the web app', () => {
  it('adds amounts exactly in base units where floats would not', () => {
    expect(formatAxel((parseAxel('0.1') ?? 0) + (parseAxel('0.2') ?? 0))).toBe('0.3');
  });

  it('reads API amounts given as signed strings or numbers', () => {
    expect(toUnits('-0.5')).toBe(-50_000_000);
    expect(toUnits('+0.5')).toBe(50_000_000);
    expect(toUnits('25.5')).toBe(2_550_000_000);
    expect(toUnits(0.003)).toBe(300_000);
    expect(toUnits(10)).toBe(1_000_000_000);
    expect(toUnits(null)).toBeNull();
    expect(toUnits('x')).toBeNull();
    expect(toUnits('1e3')).toBeNull();
  });

  it('displays amounts with the locale marks', () => {
    expect(displayAxel('1234567.5', 'en-US')).toBe('1,234,567.5');
    expect(displayAxel('1234567.5', 'nl-NL')).toBe('1.234.567,5');
    expect(displayAxel('-0.003', 'en-US')).toBe('-0.003');
    expect(displayAxel('0', 'en-US')).toBe('0');
    expect(displayAxel(undefined)).toBe('—');
  });
});

describe('pinning costs', () => {
  it('adds the certificate to the fetch in base units: 0.003 + 0.006 = 0.009', async () => {
    const { costLines } = await import('./PaymentSection');
    expect(costLines({ fetch: '0.003', certificate: '0.006' })).toEqual({ secureFetch: '0.003', certificate: '0.006', total: '0.009' });
  });
});

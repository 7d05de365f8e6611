import { describe, expect, it } from 'vitest';
import { checkoutUserId } from './port';
import { testPaymentsMode } from './test-provider';

describe('where the test payment provider runs', () => {
  const mode = (HOST: string, TEST_PAYMENTS: 'auto' | 'on' | 'off', STRIPE_SECRET_KEY?: string) => testPaymentsMode({ HOST, TEST_PAYMENTS, STRIPE_SECRET_KEY });

  it('auto: on a loopback HOST only, and never beside Stripe', () => {
    expect(mode('127.0.0.1', 'auto')).toBe('loopback');
    expect(mode('localhost', 'auto')).toBe('loopback');
    expect(mode('::1', 'auto')).toBe('loopback');
    expect(mode('0.0.0.0', 'auto')).toBe('off');
    expect(mode('10.1.2.3', 'auto')).toBe('off');
    expect(mode('127.0.0.1', 'auto', 'sk_test_x')).toBe('off');
  });

  it('on: on any HOST, flagged as exposed (the start warns); off: never', () => {
    expect(mode('0.0.0.0', 'on')).toBe('exposed');
    expect(mode('127.0.0.1', 'on')).toBe('loopback');
    expect(mode('127.0.0.1', 'off')).toBe('off');
  });

  it('a checkout id names its user before the secret part', () => {
    expect(checkoutUserId('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.abcdefghijklmnop')).toBe('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect(checkoutUserId('nodot')).toBeNull();
    expect(checkoutUserId('.leadingdot-abcdefghijklmnopqrstuvwxyz')).toBeNull();
    expect(checkoutUserId('a/b.cdefghijklmnopqrstuvwxyz')).toBeNull();
  });
});
